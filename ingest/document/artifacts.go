package document

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/m1nd-go/m1nd/core/snapshot"
)

// Claim is a normative statement of a document (RFC 2119 keywords, or
// "must"/"must not"/"never"): what a spec promises and code should keep.
type Claim struct {
	ID      string `json:"id"`
	Section string `json:"section"`
	Text    string `json:"text"`
}

var claimRe = regexp.MustCompile(`\b(MUST|MUST NOT|SHALL|SHALL NOT|SHOULD|SHOULD NOT|REQUIRED|must|must not|never)\b`)

// Claims extracts the normative sentences of a document.
func Claims(c *Canonical) []Claim {
	var out []Claim
	for i := range c.Sections {
		s := &c.Sections[i]
		for _, sent := range sentences(s.Prose()) {
			if claimRe.MatchString(sent) {
				anchor := s.Anchor
				if i == 0 {
					anchor = "(document)"
				}
				out = append(out, Claim{ID: fmt.Sprintf("claim-%d", len(out)+1), Section: anchor, Text: cut(sent, 500)})
			}
		}
	}
	return out
}

func sentences(p string) []string {
	p = strings.Join(strings.Fields(p), " ")
	var out []string
	for len(p) > 0 {
		i := strings.Index(p, ". ")
		if i < 0 {
			out = append(out, p)
			break
		}
		out = append(out, p[:i+1])
		p = p[i+2:]
	}
	return out
}

// Artifacts are the canonical files written for one document.
type Artifacts struct {
	Dir          string `json:"dir"`
	MarkdownPath string `json:"canonical_markdown_path"`
	JSONPath     string `json:"canonical_json_path"`
	ClaimsPath   string `json:"claims_path"`
	Claims       int    `json:"claim_count"`
	ContentHash  string `json:"content_hash"`
}

// canonicalJSON is the serialized form of a Canonical.
type canonicalJSON struct {
	SourcePath string            `json:"source_path"`
	Format     Format            `json:"format"`
	Title      string            `json:"title"`
	Meta       map[string]string `json:"meta"`
	Sections   []sectionJSON     `json:"sections"`
	Entities   []Entity          `json:"entities,omitempty"`
}

type sectionJSON struct {
	Anchor    string    `json:"anchor"`
	Heading   string    `json:"heading"`
	Level     int       `json:"level"`
	Parent    int       `json:"parent"`
	LineStart int       `json:"line_start"`
	LineEnd   int       `json:"line_end"`
	Text      string    `json:"text"`
	Blocks    []Block   `json:"code_blocks,omitempty"`
	Tables    []Table   `json:"tables,omitempty"`
	Links     []Link    `json:"links,omitempty"`
	Mentions  []Mention `json:"mentions,omitempty"`
}

// WriteArtifacts writes canonical.md, canonical.json and claims.json of a
// document under cacheDir/sources/{hash of source bytes}/, atomically.
// Unchanged sources reuse what is there.
func WriteArtifacts(cacheDir string, c *Canonical, source []byte) (Artifacts, error) {
	sum := sha256.Sum256(source)
	h := hex.EncodeToString(sum[:])
	dir := filepath.Join(cacheDir, "sources", h[:16])
	a := Artifacts{Dir: dir, MarkdownPath: filepath.Join(dir, "canonical.md"), JSONPath: filepath.Join(dir, "canonical.json"),
		ClaimsPath: filepath.Join(dir, "claims.json"), ContentHash: "sha256:" + h}
	claims := Claims(c)
	a.Claims = len(claims)
	if _, err := os.Stat(a.ClaimsPath); err == nil {
		return a, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return a, err
	}
	cj := canonicalJSON{SourcePath: c.Path, Format: c.Format, Title: c.Title, Meta: c.Meta, Entities: c.Entities}
	for _, s := range c.Sections {
		cj.Sections = append(cj.Sections, sectionJSON{Anchor: s.Anchor, Heading: s.Heading, Level: s.Level, Parent: s.Parent, LineStart: s.Line, LineEnd: s.EndLine,
			Text: s.Prose(), Blocks: s.Blocks, Tables: s.Tables, Links: s.Links, Mentions: s.Mentions})
	}
	writeJSON := func(p string, v any) error {
		return snapshot.WriteFileAtomic(p, 0o644, func(w io.Writer) error {
			e := json.NewEncoder(w)
			e.SetIndent("", "  ")
			return e.Encode(v)
		})
	}
	if err := writeJSON(a.JSONPath, cj); err != nil {
		return a, err
	}
	if err := snapshot.WriteFileAtomic(a.MarkdownPath, 0o644, func(w io.Writer) error {
		_, err := io.WriteString(w, RenderMarkdown(c))
		return err
	}); err != nil {
		return a, err
	}
	if claims == nil {
		claims = []Claim{}
	}
	return a, writeJSON(a.ClaimsPath, claims)
}

// RenderMarkdown renders a canonical document as Markdown.
func RenderMarkdown(c *Canonical) string {
	var b strings.Builder
	if c.Title != "" {
		fmt.Fprintf(&b, "<!-- source: %s (%s) -->\n\n", c.Path, c.Format)
	}
	for i, s := range c.Sections {
		if i > 0 {
			fmt.Fprintf(&b, "%s %s\n\n", strings.Repeat("#", min(s.Level, 6)), s.Heading)
		}
		if p := strings.TrimSpace(s.Prose()); p != "" {
			b.WriteString(p)
			b.WriteString("\n\n")
		}
		for _, t := range s.Tables {
			if len(t.Header) > 0 {
				fmt.Fprintf(&b, "| %s |\n|%s\n\n", strings.Join(t.Header, " | "), strings.Repeat(" --- |", len(t.Header)))
			}
		}
		for _, bl := range s.Blocks {
			fmt.Fprintf(&b, "```%s\n%s\n```\n\n", bl.Lang, strings.TrimRight(bl.Text, "\n"))
		}
	}
	return b.String()
}
