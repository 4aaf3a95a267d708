package analysis

import (
	"path"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/m1nd-go/m1nd/core/graph"
)

// holeFixture is a package whose modules all use lib/helpers.py and, but
// for one, lib/globals.py; tests cover every module but the odd one out.
// Each case adds the module under judgement.
func holeFixture(t *testing.T, odd string, oddUses []string, oddFunctions bool) []string {
	t.Helper()
	g := graph.New()
	file := func(p string) {
		if _, err := g.AddNode(graph.Node{ExternalID: "file::" + p, Label: path.Base(p), Type: graph.File, Provenance: graph.Provenance{SourcePath: p}}); err != nil {
			t.Fatal(err)
		}
	}
	entity := func(p, name string, typ graph.NodeType) {
		id := "file::" + p + "::" + name
		if _, err := g.AddNode(graph.Node{ExternalID: id, Label: name, Type: typ, Provenance: graph.Provenance{SourcePath: p}}); err != nil {
			t.Fatal(err)
		}
		if err := g.AddEdgeByID("file::"+p, id, graph.Edge{Relation: "contains", Weight: 1}); err != nil {
			t.Fatal(err)
		}
	}
	edge := func(a, b, rel string) {
		if err := g.AddEdgeByID("file::"+a, "file::"+b, graph.Edge{Relation: rel, Weight: 1}); err != nil {
			t.Fatal(err)
		}
	}
	mods := []string{"pkg/a.py", "pkg/b.py", "pkg/c.py"}
	for _, p := range append(mods, odd, "lib/helpers.py", "lib/globals.py", "tests/test_pkg.py") {
		file(p)
	}
	for _, p := range mods {
		entity(p, "run", graph.Function)
		edge(p, "lib/helpers.py", "imports")
		edge(p, "lib/globals.py", "imports")
		edge("tests/test_pkg.py", p, "imports")
	}
	if oddFunctions {
		entity(odd, "run", graph.Function)
	} else {
		entity(odd, "Alias", graph.Reference)
	}
	for _, u := range oddUses {
		edge(odd, u, "imports")
	}
	g.Finalize()
	lit := append(mods, "lib/helpers.py", "lib/globals.py")
	if !consumerDirs[strings.Split(odd, "/")[0]] {
		lit = append(lit, odd)
	}
	var act []graph.Scored
	for i, p := range lit {
		id, _ := g.Lookup("file::" + p)
		act = append(act, graph.Scored{Node: id, Score: 0.9 - float32(i)*0.05})
	}
	res, err := StructuralHoles(g, act, DefaultHoleParams())
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, h := range res.Holes {
		hole := string(h.Kind) + " " + g.SourcePath(h.Node)
		if h.Kind == HoleMissingDependency {
			hole += " without " + g.SourcePath(h.Missing)
		}
		got = append(got, hole)
	}
	return got
}

// Noise the missing tool used to report — a type-alias module "untested",
// a standalone module "not using" a utility, an example app — is no hole;
// the module that calls what its siblings call but skips one is.
func TestStructuralHolesAreRealGaps(t *testing.T) {
	for _, c := range []struct {
		name, odd string
		uses      []string
		functions bool
		want      []string
	}{
		{"module like its siblings skips globals", "pkg/d.py", []string{"lib/helpers.py"}, true,
			[]string{"missing_dependency pkg/d.py without lib/globals.py", "untested pkg/d.py"}},
		{"type aliases only: no tests needed, no dependency missing", "pkg/typing.py", []string{"lib/helpers.py"}, false, nil},
		{"standalone module using nothing its siblings use", "pkg/config.py", nil, true, []string{"untested pkg/config.py"}},
		{"example app is a consumer, not a part", "examples/app/e.py", []string{"pkg/a.py", "pkg/b.py", "pkg/c.py"}, true, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := holeFixture(t, c.odd, c.uses, c.functions)
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("holes (-want +got):\n%s", diff)
			}
		})
	}
}
