package documents

import (
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/ingest/document"
	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

// A page that still hands the reader a function the code has deprecated
// (anyio's run_sync_in_worker_thread, fix 0d20fb3 of drift-heldout3.md)
// sends them to a warning and a future removal. The code's own marks are
// the evidence, and only marks about the def itself count: a decorator
// named deprecated, a ".. deprecated::" note in its docstring, or a
// warnings.warn(…DeprecationWarning…) at the top level of its body — a
// warning inside an if is usually about one parameter (pyjwt's decode
// warns for verify=), not the function.

// maxDeprecatedFindings bounds the findings per page.
const maxDeprecatedFindings = 3

var (
	deprecatedDecoRe = regexp.MustCompile(`^@(?:[\w.]+\.)?deprecated\b`)
	docDeprecatedRe  = regexp.MustCompile(`(?:^|\s)\.\.\s+deprecated::`)
	warnCallRe       = regexp.MustCompile(`^(?:warnings\.)?warn\(`)
	deprecationCatRe = regexp.MustCompile(`\b(?:Pending)?DeprecationWarning\b`)
	// paramNoteRe: a docstring note about one parameter (structlog's
	// ".. deprecated:: 21.3.0 *processor* (singular) in favor of
	// *processors*"), not the def: its text starts with a marked-up name
	// or speaks of a parameter.
	paramNoteRe = regexp.MustCompile(`^\s*[\d.]*\s*(?:[*` + "`" + `]|.*\b(?:parameter|argument|keyword|option)s?\b)`)
)

// deprecationMark is the source line that marks the def at path:qual
// deprecated, "" when none does.
func deprecationMark(text, qual string) string {
	return strings.Join(strings.Fields(rawDeprecationMark(text, qual)), " ") // a logical line keeps its physical lines' indents
}

func rawDeprecationMark(text, qual string) string {
	ls := pyLines(text)
	defs := pyOutline(ls)
	d, ok := findDef(defs, qual)
	if !ok {
		return ""
	}
	for _, l := range ls {
		if l.first >= d.start && l.first < d.def && deprecatedDecoRe.MatchString(l.text) {
			return l.text
		}
	}
	body := -1 // the indent of the def's own statements
	for i := d.head + 1; i < len(ls) && ls[i].first <= d.end; i++ {
		l := ls[i]
		if body < 0 {
			body = l.indent
		}
		if l.indent != body {
			continue
		}
		if i == d.head+1 && (strings.HasPrefix(l.text, `"""`) || strings.HasPrefix(l.text, `'''`) || strings.HasPrefix(l.text, `r"""`)) {
			if ix := docDeprecatedRe.FindStringIndex(l.text); ix != nil && !paramNoteRe.MatchString(noteHead(l.text[ix[1]:])) { // the docstring's lines are joined by spaces
				return strings.TrimSpace(l.text[ix[0]:])
			}
			continue
		}
		if warnCallRe.MatchString(l.text) && deprecationCatRe.MatchString(l.text) {
			return l.text
		}
	}
	return ""
}

// deprecatedFindings lists the names a page gives as code that resolve
// to one def the code marks deprecated, on a line that does not itself
// say so. Upgrading guides name deprecated names to explain them.
func deprecatedFindings(b *session.Bundle, src *driftSources, d *document.DocDrift, text []byte) []document.Finding {
	if upgradingRe.MatchString(path.Base(d.Doc.Path)) {
		return nil
	}
	g, x := b.Graph, docIndex(b)
	prose := proseLines(string(text))
	var fs []document.Finding
	seen := map[string]bool{}
	for _, m := range pageMentions(g, d.Doc.Node) {
		if m.Kind != document.MentionIdent && m.Kind != document.MentionQualified && m.Kind != document.MentionCode || seen[m.Text] || len(fs) == maxDeprecatedFindings {
			continue
		}
		if m.Kind == document.MentionIdent && !removedNameRe.MatchString(strings.TrimSuffix(m.Text, "()")) {
			continue // a plain word ("errors" of result.errors) binds too loosely
		}
		seen[m.Text] = true
		f, ok := deprecatedFinding(g, x, src, prose, m)
		if ok {
			fs = append(fs, f)
		}
	}
	slices.SortFunc(fs, func(a, b document.Finding) int { return a.Line - b.Line })
	for i := range fs {
		fs[i].Section = sectionAt(g, d, fs[i].Line)
	}
	return fs
}

// deprecatedFinding checks one mention: a single candidate, a function
// or class whose def carries a deprecation mark, named on a prose line
// that does not speak of deprecation or removal.
func deprecatedFinding(g *graph.Graph, x *document.Index, src *driftSources, prose []exLine, m document.Mention) (document.Finding, bool) {
	cs := x.Resolve(m)
	if len(cs) != 1 || g.Type(cs[0].Node) != graph.Function && g.Type(cs[0].Node) != graph.Class {
		return document.Finding{}, false
	}
	p, segs, ok := document.CodeQual(g.ExternalID(cs[0].Node))
	if !ok || len(segs) == 0 || !strings.HasSuffix(p, ".py") {
		return document.Finding{}, false
	}
	t, ok := src.source(p)
	if !ok {
		return document.Finding{}, false
	}
	mark := deprecationMark(string(t), strings.Join(segs, "."))
	if mark == "" {
		return document.Finding{}, false
	}
	name := strings.TrimSuffix(m.Text, "()")
	line := claimLine(prose, name[strings.LastIndexByte(name, '.')+1:])
	if line == 0 || pageSaysDeprecated(prose, name, segs, p) {
		return document.Finding{}, false
	}
	return document.Finding{Kind: document.DriftMissing, Target: cs[0].Node, File: x.FileOf(cs[0].Node), Mention: m, Line: line,
		Detail: "the page gives " + name + ", which the code marks deprecated (" + p + ": " + tools.ClipText(mark, 90) + "): name its replacement"}, true
}

// pageSaysDeprecated: some prose line of the page names the def or its
// module next to a deprecation word (structlog's thread-local page opens
// with "The `structlog.threadlocal` module is deprecated"): the page
// already warns, on whatever line.
func pageSaysDeprecated(prose []exLine, name string, segs []string, file string) bool {
	names := []string{name, segs[len(segs)-1]}
	if mod := strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(file, "src/"), "lib/"), ".py"); mod != "" {
		names = append(names, strings.ReplaceAll(strings.TrimSuffix(mod, "/__init__"), "/", "."))
	}
	for _, l := range prose {
		if !goneRe.MatchString(l.text) {
			continue
		}
		for _, n := range names {
			if strings.Contains(l.text, n) {
				return true
			}
		}
	}
	return false
}

// noteHead is the first sentence of a deprecation note (the docstring
// goes on about other things: structlog's AsyncBoundLogger note is
// followed by text about arguments).
func noteHead(s string) string {
	if i := strings.Index(s, ". "); i >= 0 {
		s = s[:i]
	}
	if len(s) > 120 {
		s = s[:120]
	}
	return s
}
