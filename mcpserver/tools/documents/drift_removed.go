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
// code and that a changelog line says were removed or renamed.
func removedFindings(b *session.Bundle, src *driftSources, d *document.DocDrift, text []byte, removals []removalLine) []document.Finding {
	if len(removals) == 0 {
		return nil
	}
	g, x := b.Graph, docIndex(b)
	prose := proseLines(string(text))
	var fs []document.Finding
	seen := map[string]bool{}
	for _, m := range pageMentions(g, d.Doc.Node) {
		name := strings.TrimSuffix(m.Text, "()")
		if m.Kind != document.MentionIdent && m.Kind != document.MentionWord || seen[name] || !removedNameRe.MatchString(name) || len(fs) == maxRemovedFindings {
			continue
		}
		seen[name] = true
		if x.Labeled(name) || len(x.Resolve(m)) > 0 {
			continue
		}
		r, ok := removalOf(name, removals)
		if !ok || src.spelledInCode(filepath.Dir(d.Doc.Abs), name) {
			continue // a class attribute or a local name the graph has no node for
		}
		line := claimLine(prose, name)
		if line == 0 {
			continue
		}
		fs = append(fs, document.Finding{Kind: document.DriftMissing, Section: sectionAt(g, d, line), Target: graph.NoNode, File: graph.NoNode,
			Mention: m, Line: line, Detail: "the page names " + name + ", which no code defines now; " + r.file + ":" + strconv.Itoa(r.line) + " says: " + tools.ClipText(r.text, 100)})
	}
	slices.SortFunc(fs, func(a, b document.Finding) int { return a.Line - b.Line })
	return fs
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

// spelledInCode reports whether a tracked Python file of the repository
// holding dir spells name as a word (git grep); true when that cannot be
// asked, so that a doubt never makes a finding.
func (s *driftSources) spelledInCode(dir, name string) bool {
	s.mu.Lock()
	top := s.topLevel(dir)
	s.mu.Unlock()
	if top == "" {
		return true
	}
	err := exec.Command("git", "-C", top, "grep", "-q", "-w", "-F", "-e", name, "--", "*.py").Run()
	var exit *exec.ExitError
	return !(errors.As(err, &exit) && exit.ExitCode() == 1)
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
