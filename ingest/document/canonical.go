// Package document is the document lane of ingest: the universal adapter
// (Markdown, reStructuredText, AsciiDoc, plain text, HTML), the structured
// adapters (L1GHT Markdown, BibTeX, JATS XML, patent XML, RFC XML v3,
// CrossRef JSON), the router that picks one per file and per directory, and
// the binder that ties document sections to the code they name.
//
// Every format is first normalized into a Canonical document — title,
// metadata, a flat list of sections with their heading level and parent,
// and per section its prose, code blocks, tables, links and the code
// identifiers and paths it mentions — and then graphified the same way:
//
//	doc::{path}                       the document (File)
//	doc::{path}#{anchor}              a section (Concept), nested by level
//	doc::{path}#{anchor}/code-{n}     a code block (Process, tag lang:{x})
//	doc::{path}#{anchor}/table-{n}    a table (Process)
//	doc::{path}#entity:{kind}:{slug}  an author, keyword, citation… (Reference)
//
// With a namespace ns other than "doc" the IDs start with "{ns}::doc::".
// {path} is the file's path relative to its git work tree (or to the
// ingested root outside git), so the same file ingested through different
// roots is one node and links between documents resolve.
//
// Edges: contains (document → section → subsection, block, table),
// links_to (section → document it links to), documents (section → code
// node it names; added by Bind once code and documents share a graph),
// cites and mentions_entity for the structured formats. The relations
// links_to, documents, cites and mentions_entity are associations: impact
// never follows them as dependencies.
package document

import (
	"strings"
	"unicode/utf8"

	"github.com/m1nd-go/m1nd/ingest/internal/slug"
)

// Format is a document family.
type Format string

// Formats the lane knows.
const (
	Markdown Format = "markdown"
	RST      Format = "rst"
	AsciiDoc Format = "asciidoc"
	Text     Format = "text"
	HTML     Format = "html"
	Light    Format = "light"
	BibTeX   Format = "bibtex"
	JATS     Format = "jats"
	Patent   Format = "patent"
	RFC      Format = "rfc"
	CrossRef Format = "crossref"
	// PDF and DOCX are read only through optional providers (pdftotext,
	// pandoc); without them such files are skipped and counted.
	PDF  Format = "pdf"
	DOCX Format = "docx"
	// Code is the router's fallback: not a document.
	Code Format = "code"
)

// Canonical is one document normalized: what every format parser produces
// and graphify consumes.
type Canonical struct {
	// Path is the document's path in graph terms (see the package doc).
	Path   string
	Format Format
	Title  string
	// Meta holds front matter, header fields and bibliographic metadata
	// (doi, authors, year, …), keys lower-case.
	Meta map[string]string
	// Sections[0] is the preamble: the document body before its first
	// heading (level 0, never a node of its own — its content belongs to
	// the document node).
	Sections []Section
	// Entities are named things the document declares or cites (authors,
	// keywords, citations, L1GHT entities).
	Entities []Entity
	// stack holds the open sections (indices), innermost last.
	stack []int
}

// Section is one heading and the content up to the next heading.
type Section struct {
	Heading string
	// Level is 1 for a top heading; 0 for the preamble.
	Level int
	// Parent is the index of the enclosing section (0 = the document).
	Parent  int
	Line    int
	EndLine int
	// Anchor is set by Finish: the heading's slug, unique in the document.
	Anchor string
	prose  strings.Builder
	Blocks []Block
	Tables []Table
	Links  []Link
	// Spans are inline code spans (`x`, ``x``, <code>x</code>, :func:`x`).
	Spans []string
	// Mentions are filled by Finish from the prose, spans and blocks.
	Mentions []Mention
}

// Block is a code block.
type Block struct {
	Lang    string
	Line    int
	EndLine int
	Text    string
}

// Table is a table; Header holds its first row's cells.
type Table struct {
	Line    int
	EndLine int
	Header  []string
	Rows    int
}

// Link is a link as written; Finish resolves Target against the
// document's path (Resolved: repo-relative path of a local file, "" for
// URLs and anchors).
type Link struct {
	Target   string
	Text     string
	Line     int
	Resolved string
}

// Entity is a named thing a document declares or cites.
type Entity struct {
	// Kind: author, keyword, citation, orcid, doi, entity, state, event, …
	Kind string
	Name string
	// Key is the identity used across documents (a DOI, an ORCID, a
	// normalized name); "" = Name.
	Key string
	// Relation from the document (or Section) to the entity.
	Relation string
	// Section is the index of the section that mentions it (0 = document).
	Section int
	Line    int
}

// Prose returns the section's prose.
func (s *Section) Prose() string { return s.prose.String() }

// maxProse bounds the prose kept per section: mentions past it are not
// worth the memory on a 10 MB single-section text file.
const maxProse = 64 << 10

// AddProse appends a line of prose.
func (s *Section) AddProse(line string) {
	if s.prose.Len() >= maxProse {
		return
	}
	if s.prose.Len() > 0 {
		s.prose.WriteByte('\n')
	}
	s.prose.WriteString(line)
}

// newCanonical starts a document with its preamble section.
func newCanonical(path string, f Format) *Canonical {
	return &Canonical{Path: path, Format: f, Meta: map[string]string{}, Sections: []Section{{Line: 1, Parent: -1}}}
}

// open starts a section at heading level, nested under the nearest open
// section of a lower level; it returns its index.
func (c *Canonical) open(heading string, level, line int) int {
	heading = cleanHeading(heading)
	if level < 1 {
		level = 1
	}
	for len(c.stack) > 0 && c.Sections[c.stack[len(c.stack)-1]].Level >= level {
		c.stack = c.stack[:len(c.stack)-1]
	}
	parent := 0
	if len(c.stack) > 0 {
		parent = c.stack[len(c.stack)-1]
	}
	c.Sections = append(c.Sections, Section{Heading: heading, Level: level, Parent: parent, Line: line})
	c.stack = append(c.stack, len(c.Sections)-1)
	return len(c.Sections) - 1
}

// cur is the section content is currently added to.
func (c *Canonical) cur() *Section { return &c.Sections[len(c.Sections)-1] }

func cleanHeading(h string) string {
	h = strings.Join(strings.Fields(h), " ")
	if len(h) > 200 {
		h = cut(h, 200)
	}
	if h == "" {
		h = "(untitled)"
	}
	return h
}

// cut shortens s to at most n bytes on a rune boundary.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// Finish closes the document: end lines, unique anchors, a title, link
// resolution and mention extraction. lines is the document's line count.
func (c *Canonical) Finish(lines int) {
	for i := range c.Sections {
		end := lines
		if i+1 < len(c.Sections) {
			end = max(c.Sections[i+1].Line-1, c.Sections[i].Line)
		}
		c.Sections[i].EndLine = max(end, c.Sections[i].Line)
	}
	// A section ends where the next section at its level or above starts,
	// so a parent's span covers its children.
	for i := 1; i < len(c.Sections); i++ {
		for j := i + 1; j < len(c.Sections); j++ {
			if c.Sections[j].Level <= c.Sections[i].Level {
				break
			}
			c.Sections[i].EndLine = c.Sections[j].EndLine
		}
	}
	used := map[string]int{}
	for i := 1; i < len(c.Sections); i++ {
		a := Slug(c.Sections[i].Heading)
		used[a]++
		if used[a] > 1 {
			a = a + "-" + itoa(used[a])
		}
		c.Sections[i].Anchor = a
	}
	if c.Title == "" {
		if t := c.Meta["title"]; t != "" {
			c.Title = t
		} else if len(c.Sections) > 1 && c.Sections[1].Level == minLevel(c) {
			c.Title = c.Sections[1].Heading
		}
	}
	for i := range c.Sections {
		s := &c.Sections[i]
		for j := range s.Links {
			s.Links[j].Resolved = resolveLink(c.Path, s.Links[j].Target)
		}
		s.Mentions = extractMentions(s)
	}
}

func minLevel(c *Canonical) int {
	m := 99
	for _, s := range c.Sections[1:] {
		m = min(m, s.Level)
	}
	return m
}

// Slug lower-cases s and turns every run of other characters into one
// dash (at most 64 bytes), "section" when nothing is left.
func Slug(s string) string { return slug.Make(s, "section") }

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b [20]byte
	i := len(b)
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	return string(b[i:])
}

// splitLines splits text into lines without their line endings.
func splitLines(data []byte) []string {
	s := string(data)
	s = strings.TrimPrefix(s, "\ufeff")
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
	}
	if n := len(lines); n > 0 && lines[n-1] == "" {
		lines = lines[:n-1]
	}
	return lines
}
