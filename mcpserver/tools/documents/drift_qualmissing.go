package documents

import (
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

// qualifiedFindings lists the module-qualified mentions of a page whose
// module is one of the project's and whose source never spells the name.
func qualifiedFindings(b *session.Bundle, src *driftSources, d *document.DocDrift) []document.Finding {
	g, x := b.Graph, docIndex(b)
	seen := map[string]bool{}
	var fs []document.Finding
	for _, s := range append([]graph.NodeID{d.Doc.Node}, document.Sections(g, d.Doc.Node)...) {
		for _, m := range document.Mentions(g, s) {
			if m.Kind != document.MentionQualified || seen[m.Text] {
				continue
			}
			seen[m.Text] = true
			if why := moduleLacks(x, src, m.Text); why != "" {
				fs = append(fs, document.Finding{Kind: document.DriftMissing, Section: s, Target: graph.NoNode, File: graph.NoNode, Mention: m, Detail: why})
			}
		}
	}
	return fs
}

// moduleLacks says why mod.Name names nothing: mod is a module of the
// project's package with source, and the source never spells Name. ""
// when the owner is no module (a class: its members are checked by
// owner) or the name may be there.
func moduleLacks(x *document.Index, src *driftSources, q string) string {
	i := strings.LastIndexByte(q, '.')
	if i < 0 {
		return ""
	}
	mod, name := q[:i], q[i+1:]
	top, _, _ := strings.Cut(mod, ".")
	if !x.PythonPackage(top) {
		return ""
	}
	paths, _ := x.PythonModuleFiles(mod)
	if len(unboundNames(x, src, mod, paths, []string{name})) == 0 {
		return ""
	}
	return "the page names " + q + ", but " + mod + " (" + strings.Join(paths, ", ") + ") does not define or import " + name + " (renamed, moved or removed?)"
}
