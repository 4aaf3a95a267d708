package documents

import (
	"errors"
	"iter"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/ingest/document"
	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

// A name a page's prose gives (`DatabaseMiddleware`, in a sentence saying
// it "is currently still available") that no code defines any more, and
// that the project's own changelog says it removed or renamed ("
// `DatabaseMiddleware` is now dropped in favour of `databases`"), is a
// claim the code contradicts: the reader who looks for it finds nothing.
// Both halves are needed: an unbound name alone is as often a library's
// or the reader's, and a changelog line alone may be about a name that
// came back. Starlette's database.md (fix 243d03e) is this.

// removalLine is a changelog line that says something was removed.
type removalLine struct {
	file string
	line int
	text string
}

var (
	codeSpanRe = regexp.MustCompile("(?::\\w+:)?`+[^`]*`+")
	removalRe  = regexp.MustCompile(`(?i)\b(remov|drop|delet|renam|replac)\w*|no longer (?:exists|available|provided|included|shipped)`)
	// rootChangelogs are the changelog files a project keeps at its root,
	// outside the docs the graph holds.
	rootChangelogs = []string{"CHANGELOG.md", "CHANGELOG.rst", "CHANGES.md", "CHANGES.rst", "CHANGES.txt", "CHANGES", "HISTORY.md", "HISTORY.rst", "NEWS.md", "NEWS.rst", "NEWS"}
	// removedNameRe: an identifier worth checking — CamelCase or with an
	// underscore, not a plain word of prose.
	removedNameRe = regexp.MustCompile(`^(?:[A-Z][a-z0-9]+[A-Z]\w*|[A-Za-z]\w*_\w+)$`)
)

// lowerCamelRe: a camelCase identifier ("getTokensEndLoc"), checked only
// in a code span and only against git.
var lowerCamelRe = regexp.MustCompile(`^[a-z][a-z0-9]*[A-Z]\w*$`)

// unbackedNote ends the detail of a name no changelog line names: such a
// finding stands only on git's word.
const unbackedNote = "no changelog line names it"

// maxUnbackedNames bounds the names per page no changelog line names,
// each asked of git.
const maxUnbackedNames = 40

// maxRemovedFindings bounds these findings per page.
const maxRemovedFindings = 5

// removalLines reads the lines of the project's changelogs (history pages
// of the ingested docs, and the root changelog files) that say something
// was removed, dropped or renamed.
func removalLines(b *session.Bundle, src *driftSources, dds []document.DocDrift) []removalLine {
	var out []removalLine
	add := func(file string, text []byte) {
		for i, l := range strings.Split(string(text), "\n") {
			// The removal word must be the line's own, not a code span's:
			// "New ``sqlite-utils drop-table`` command" removes nothing.
			if removalRe.MatchString(codeSpanRe.ReplaceAllString(l, "")) {
				out = append(out, removalLine{file, i + 1, strings.TrimSpace(l)})
			}
		}
	}
	for _, d := range dds {
		if !document.HistoryPage(b.Graph, d.Doc.Node, d.Doc.Path) || upgradingRe.MatchString(path.Base(d.Doc.Path)) {
			continue
		}
		if text, err := readDocSource(b, d.Doc.Abs); err == nil {
			add(d.Doc.Path, text)
		}
	}
	for _, f := range rootChangelogs {
		if text, ok := src.source(f); ok {
			add(f, text)
		}
	}
	return out
}

// removedFindings lists the names a page's prose gives that bind to no
// code and that a changelog line says were removed or renamed. A name in
// a code span that no changelog line names is listed too, marked
// unbacked: it stands only if git shows the project's def or module-level
// binding of it removed (pyparsing's getTokensEndLoc: CHANGES said only
// "Added"), and is dropped otherwise (driftEvidence).
func removedFindings(b *session.Bundle, src *driftSources, d *document.DocDrift, text []byte, removals []removalLine) []document.Finding {
	g, x := b.Graph, docIndex(b)
	prose := proseLines(string(text))
	var fs []document.Finding
	var names []string
	seen := map[string]bool{}
	for _, m := range pageMentions(g, d.Doc.Node) {
		name := strings.TrimSuffix(m.Text, "()")
		if m.Kind != document.MentionIdent && m.Kind != document.MentionWord || seen[name] {
			continue
		}
		shaped := removedNameRe.MatchString(name)
		if !shaped && !(m.Kind == document.MentionIdent && lowerCamelRe.MatchString(name)) {
			continue
		}
		seen[name] = true
		if x.Labeled(name) || len(x.Resolve(m)) > 0 {
			continue
		}
		detail := "the page names " + name + ", which no code defines now; "
		if r, ok := removalOf(name, removals); ok && shaped {
			detail += r.file + ":" + strconv.Itoa(r.line) + " says: " + tools.ClipText(r.text, 100)
		} else if !ok && m.Kind == document.MentionIdent {
			detail += unbackedNote
		} else {
			continue
		}
		line := claimLine(prose, name)
		if line == 0 {
			continue
		}
		fs = append(fs, document.Finding{Kind: document.DriftMissing, Section: sectionAt(g, d, line), Target: graph.NoNode, File: graph.NoNode,
			Mention: m, Line: line, Detail: detail})
		names = append(names, name)
	}
	// A class attribute or a local name the graph has no node for.
	spelled := src.spelledInCode(filepath.Dir(d.Doc.Abs), names)
	fs = slices.DeleteFunc(fs, func(f document.Finding) bool { return spelled[strings.TrimSuffix(f.Mention.Text, "()")] })
	slices.SortFunc(fs, func(a, b document.Finding) int { return a.Line - b.Line })
	// The bound counts the changelog's names; the unbacked wait for git,
	// which drops most of them (a reader's names, placeholders): bounded
	// apart, they do not crowd out a removed name late on the page
	// (pyparsing's getTokensEndLoc, line 958 of its HowTo, seen on split10).
	logged, unbacked := 0, 0
	return slices.DeleteFunc(fs, func(f document.Finding) bool {
		if strings.HasSuffix(f.Detail, unbackedNote) {
			unbacked++
			return unbacked > maxUnbackedNames
		}
		logged++
		return logged > maxRemovedFindings
	})
}

// removalOf is the first changelog line naming name as code (in
// backticks, maybe qualified or called): "Dropped support for PyPy 3.6"
// is about an interpreter, not a name the code gave.
func removalOf(name string, removals []removalLine) (removalLine, bool) {
	re := regexp.MustCompile("`[~!]?(?:[\\w.]+\\.)?" + regexp.QuoteMeta(name) + "(?:\\(\\))?`")
	for _, r := range removals {
		if re.MatchString(r.text) {
			return r, true
		}
	}
	return removalLine{}, false
}

// claimLine is the first prose line naming name that does not itself say
// it is gone (a page may tell the reader the name was removed); 0 when
// none.
func claimLine(prose []exLine, name string) int {
	re := regexp.MustCompile(`(?:^|[^\w.])` + regexp.QuoteMeta(name) + `(?:$|[^\w])`)
	for _, l := range prose {
		if re.MatchString(l.text) && !goneRe.MatchString(l.text) && !removalRe.MatchString(l.text) {
			return l.line
		}
	}
	return 0
}

// spelledInCode is the names a tracked Python file of the repository
// holding dir spells as a word (one git grep for all); every name when
// that cannot be asked, so that a doubt never makes a finding.
func (s *driftSources) spelledInCode(dir string, names []string) map[string]bool {
	out := map[string]bool{}
	if len(names) == 0 {
		return out
	}
	s.mu.Lock()
	top := s.topLevel(dir)
	s.mu.Unlock()
	args := []string{"-C", top, "grep", "-h", "-o", "-w", "-F"}
	for _, n := range names {
		args = append(args, "-e", n)
	}
	var got []byte
	err := errors.New("no git work tree")
	if top != "" {
		got, err = exec.Command("git", append(args, "--", "*.py")...).Output()
	}
	var exit *exec.ExitError
	if err != nil && !(errors.As(err, &exit) && exit.ExitCode() == 1) {
		for _, n := range names {
			out[n] = true
		}
		return out
	}
	for _, w := range strings.Fields(string(got)) {
		out[w] = true
	}
	return out
}

// pageMentions yields the mentions of a document and of each of its
// sections, with the node that holds each.
func pageMentions(g *graph.Graph, doc graph.NodeID) iter.Seq2[graph.NodeID, document.Mention] {
	return func(yield func(graph.NodeID, document.Mention) bool) {
		for _, s := range append([]graph.NodeID{doc}, document.Sections(g, doc)...) {
			for _, m := range document.Mentions(g, s) {
				if !yield(s, m) {
					return
				}
			}
		}
	}
}
