package ingest

import (
	"slices"
	"testing"

	"github.com/m1nd-go/m1nd/core/analysis"
	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/ingest/extract"
)

// TestTypeOnlyImportsBind: a type-only import binds what the same import
// would bind at run time (the resolver reads it as an import), under its
// own relation; the runtime imports keep theirs.
func TestTypeOnlyImportsBind(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{
		"pkg/__init__.py":     "",
		"pkg/applications.py": "from pkg.requests import Request\n\n\nclass App:\n    def handle(self, r: Request):\n        return r\n",
		"pkg/requests.py": "from __future__ import annotations\nimport typing\n\nif typing.TYPE_CHECKING:\n    from pkg.applications import App\n\n\n" +
			"class Request:\n    @property\n    def app(self) -> App:\n        return self.scope['app']\n",
		"web/atom.ts":      "import type { Store } from './store'\nexport function makeAtom(s?: Store) { return s }\n",
		"web/store.ts":     "import { type Getter, createAtom } from './atom-util'\nimport { makeAtom } from './atom'\nexport class Store { get() { return makeAtom(this) && createAtom() } }\n",
		"web/atom-util.ts": "export type Getter = () => number\nexport function createAtom() { return 1 }\n",
	})
	g := run(t, Config{Root: dir}, nil).Graph
	for _, c := range []struct{ src, dst, rel string }{
		{"file::pkg/requests.py", "file::pkg/applications.py::App", extract.RelTypeImports},
		{"file::pkg/requests.py", "file::pkg/applications.py", extract.RelTypeImports},
		{"file::pkg/applications.py", "file::pkg/requests.py::Request", extract.RelImports},
		{"file::web/atom.ts", "file::web/store.ts::Store", extract.RelTypeImports},
		{"file::web/store.ts", "file::web/atom.ts::makeAtom", extract.RelImports},
		{"file::web/store.ts", "file::web/atom-util.ts::createAtom", extract.RelImports},
		{"file::web/store.ts", "file::web/atom-util.ts", extract.RelImports},
	} {
		if rels := relationsBetween(t, g, c.src, c.dst); !slices.Contains(rels, c.rel) {
			t.Errorf("%s → %s: relations %v, want %s among them", c.src, c.dst, rels, c.rel)
		}
	}
	d, err := analysis.NewDepGraph(g, true)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range [][2]string{{"file::pkg/requests.py", "file::pkg/applications.py"}, {"file::web/atom.ts", "file::web/store.ts"}} {
		a, _ := g.Lookup(p[0])
		b, _ := g.Lookup(p[1])
		if !d.TypeOnly(a, b) || d.TypeOnly(b, a) {
			t.Errorf("%s → %s should be type-only, the way back not", p[0], p[1])
		}
	}
}

func relationsBetween(t *testing.T, g *graph.Graph, src, dst string) []string {
	t.Helper()
	a, ok1 := g.Lookup(src)
	b, ok2 := g.Lookup(dst)
	if !ok1 || !ok2 {
		t.Fatalf("missing node %s or %s", src, dst)
	}
	var rels []string
	for _, e := range g.EdgesBetween(a, b) {
		rels = append(rels, g.RelationName(e))
	}
	return rels
}
