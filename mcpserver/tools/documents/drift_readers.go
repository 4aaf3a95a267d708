package documents

import (
	"path"
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/ingest/document"
	"github.com/m1nd-go/m1nd/mcpserver/session"
)

// A page names the reader's code as often as the project's: a packaging
// how-to lists the files of the project the reader creates
// ("src/textual_calculator/__about__.py"), a guide explains dispatch to
// handlers the reader writes ("Textual calls `Paddle.on_key`, then
// `Static.on_key`"), a template page holds placeholders
// ("textual.widget.WIDGET"). None of these claims the project has the
// name, so a missing name there is no drift: 8 of the 9 false findings on
// textual in benchmarks/results/drift-precision2.md were these.

// dropReadersOwn removes the missing_target findings that name the
// reader's code or a template's placeholder; it runs before the dating,
// so no note is kept for them.
func dropReadersOwn(b *session.Bundle, d *document.DocDrift) {
	// A history page names removed APIs on purpose (anyio's
	// versionhistory.rst: "Removed the BlockingPortal.stop_from_external_thread()
	// method"); a template holds placeholders.
	if templatePage(d.Doc.Path) || pastPage(d.Doc.Path) {
		d.Findings = slices.DeleteFunc(d.Findings, func(f document.Finding) bool { return f.Kind == document.DriftMissing })
		return
	}
	var text string
	d.Findings = slices.DeleteFunc(d.Findings, func(f document.Finding) bool {
		if f.Kind != document.DriftMissing {
			return false
		}
		if text == "" {
			t, err := readDocSource(b, d.Doc.Abs)
			if err != nil {
				return false
			}
			text = string(t)
		}
		switch f.Mention.Kind {
		case document.MentionPath:
			return readersPath(b.Graph, text, f.Mention.Text)
		case document.MentionQualified:
			return otherLibrary(docIndex(b), f.Mention.Text) || readersHook(b.Graph, text, f.Mention.Text)
		}
		return false
	})
}

// templatePage: a page named as a template ("_template.md") shows
// placeholders where names go.
func templatePage(p string) bool {
	return strings.Contains(strings.ToLower(path.Base(p)), "template")
}

// treeEntryRe: an entry of a directory tree drawn on the page
// ("│   └── textual_calculator", "|-- src").
var treeEntryRe = regexp.MustCompile(`(?:├──|└──|\|--|` + "`" + `--)\s*([\w.-]+)/?`)

// readersPath: the first directory of p the project does not have is one
// the page draws in a file tree or imports as a module — the reader's own
// project, which the page tells them to create.
func readersPath(g *graph.Graph, text, p string) bool {
	if captions(text, p) {
		return true
	}
	segs := strings.Split(p, "/")
	for i := 1; i < len(segs)-1; i++ {
		dir := strings.Join(segs[:i+1], "/")
		if _, ok := g.Lookup("dir::" + dir); ok {
			continue
		}
		name := segs[i]
		for _, m := range treeEntryRe.FindAllStringSubmatch(text, -1) {
			if m[1] == name {
				return true
			}
		}
		imp := regexp.MustCompile(`(?m)^\s*(?:>>>\s*)?(?:from|import)\s+` + regexp.QuoteMeta(name) + `\b`)
		return imp.MatchString(text)
	}
	return false
}

// captions: the page titles a code block with the path (a line that is
// only the path, bold or quoted, right above the fence): the block is the
// reader's file of that name, as starlette's config.md shows
// "**tests/conftest.py**:" above the reader's test setup.
func captions(text, p string) bool {
	q := regexp.QuoteMeta(p)
	above := regexp.MustCompile("(?m)^[ \t]*[*_`]*" + q + "[*_`]*:?[ \t]*\n(?:[ \t]*\n)*[ \t]*(?:```|~~~|\\.\\. code)")
	return above.MatchString(text)
}

// readersHook: the page names the same member on a class the project
// does not have (`Paddle.on_key`, the reader's widget), so the member is
// a hook the reader's classes define and the page's `Static.on_key` is
// talk of dispatch, not a claim that Static defines it.
func readersHook(g *graph.Graph, text, q string) bool {
	i := strings.LastIndex(q, ".")
	if i <= 0 {
		return false
	}
	owner, member := q[:i], q[i+1:]
	re := regexp.MustCompile(`\b([A-Z]\w*)\.` + regexp.QuoteMeta(member) + `\b`)
	for _, m := range re.FindAllStringSubmatch(text, -1) {
		if m[1] == owner || strings.HasSuffix(owner, "."+m[1]) {
			continue
		}
		if !slices.ContainsFunc(g.NodesByLabel(m[1]), func(id graph.NodeID) bool { return g.Type(id) == graph.Class }) {
			return true
		}
	}
	return false
}

// otherLibrary: a name qualified by a module that is neither the
// project's package nor one of its modules ("asyncio.TaskGroup.create_task"
// in anyio's section "Differences with asyncio.TaskGroup") is another
// library's, though its last names match a class of the project.
func otherLibrary(x *document.Index, q string) bool {
	segs := strings.Split(q, ".")
	if len(segs) < 3 || segs[0] == "" || !unicode.IsLower(rune(segs[0][0])) || x.PythonPackage(segs[0]) {
		return false
	}
	_, known := x.PythonModuleFiles(segs[0])
	return !known
}
