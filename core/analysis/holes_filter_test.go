package analysis

import (
	"path"
	"slices"
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
	return holeLines(t, g, act)
}

// holeLines runs StructuralHoles with the default parameters and writes
// each hole as "kind path", with " without path" for a missing dependency.
func holeLines(t *testing.T, g *graph.Graph, act []graph.Scored) []string {
	t.Helper()
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

// importGraph is a finalized graph of files joined by imports edges
// ("a>b": a imports b).
func importGraph(t *testing.T, edges []string) *graph.Graph {
	t.Helper()
	return dataGraph(t, edges, nil)
}

// dataGraph is importGraph where each file of data holds a constant and
// no function (a data module such as rich's _palettes.py).
func dataGraph(t *testing.T, edges, data []string) *graph.Graph {
	t.Helper()
	g := graph.New()
	seen := map[string]bool{}
	for _, e := range edges {
		for _, p := range strings.Split(e, ">") {
			if !seen[p] {
				seen[p] = true
				if _, err := g.AddNode(graph.Node{ExternalID: "file::" + p, Label: path.Base(p), Type: graph.File, Provenance: graph.Provenance{SourcePath: p}}); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	for _, e := range edges {
		a, b, _ := strings.Cut(e, ">")
		if err := g.AddEdgeByID("file::"+a, "file::"+b, graph.Edge{Relation: "imports", Weight: 1}); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range data {
		if !seen[p] {
			continue
		}
		id := "file::" + p + "::VALUE"
		if _, err := g.AddNode(graph.Node{ExternalID: id, Label: "VALUE", Type: graph.Reference, Provenance: graph.Provenance{SourcePath: p}}); err != nil {
			t.Fatal(err)
		}
		if err := g.AddEdgeByID("file::"+p, id, graph.Edge{Relation: "contains", Weight: 1}); err != nil {
			t.Fatal(err)
		}
	}
	g.Finalize()
	return g
}

// holesOf runs StructuralHoles on files joined by imports edges ("a>b":
// a imports b) with the given activations, and names the holes.
func holesOf(t *testing.T, edges []string, act map[string]float32) []string {
	t.Helper()
	g := importGraph(t, edges)
	var scored []graph.Scored
	for _, p := range sortedKeys(act) {
		id, _ := g.Lookup("file::" + p)
		scored = append(scored, graph.Scored{Node: id, Score: act[p]})
	}
	return holeLines(t, g, scored)
}

// Bridges are modules in the middle of the topic: not those lit only by
// hubs every query lights (flask's globals.py), nor by example apps, nor
// a module the topic's code merely uses (werkzeug's etag.py under the
// cookie code). A module under its siblings (a base they import) does
// not miss what they use.
func TestStructuralHolesBridgesAndLayers(t *testing.T) {
	hubs := []string{"core/hub.py", "core/hub2.py"}
	base := []string{"topic/t1.py>topic/t2.py"}
	for _, m := range []string{"mod/a.py", "mod/b.py", "mod/c.py", "mod/d.py", "mod/e.py"} {
		for _, h := range hubs {
			base = append(base, m+">"+h)
		}
	}
	topic := map[string]float32{"topic/t1.py": 1, "topic/t2.py": 0.9, "core/hub.py": 0.5, "core/hub2.py": 0.5}
	for _, c := range []struct {
		name  string
		edges []string
		act   map[string]float32
		want  []string
	}{
		{"between topic modules", []string{"mod/mid.py>topic/t1.py", "topic/t2.py>mod/mid.py"}, topic, []string{"inactive_bridge mod/mid.py"}},
		{"lit by hubs only", []string{"mod/leaf.py>core/hub.py", "mod/leaf.py>core/hub2.py"}, topic, nil},
		{"used by the topic, using none of it", []string{"topic/t1.py>mod/dep.py", "topic/t2.py>mod/dep.py"}, topic, nil},
		{"lit by examples", []string{"examples/x/e1.py>mod/local.py", "examples/y/e2.py>mod/local.py"},
			map[string]float32{"topic/t1.py": 1, "examples/x/e1.py": 0.9, "examples/y/e2.py": 0.9}, nil},
		{"a base its siblings import", []string{"pkg/p1.py>lib/util.py", "pkg/p2.py>lib/util.py", "pkg/p3.py>lib/util.py",
			"pkg/p1.py>lib/x.py", "pkg/p2.py>lib/x.py", "pkg/p3.py>lib/x.py", "pkg/base.py>lib/x.py", "pkg/p1.py>pkg/base.py", "pkg/p2.py>pkg/base.py"},
			map[string]float32{"pkg/p1.py": 1, "pkg/p2.py": 0.9, "pkg/p3.py": 0.8, "pkg/base.py": 0.7, "lib/util.py": 0.6, "lib/x.py": 0.6}, nil},
		{"a peer that skips", []string{"pkg/p1.py>lib/util.py", "pkg/p2.py>lib/util.py", "pkg/p3.py>lib/util.py",
			"pkg/p1.py>lib/x.py", "pkg/p2.py>lib/x.py", "pkg/p3.py>lib/x.py", "pkg/odd.py>lib/x.py"},
			map[string]float32{"pkg/p1.py": 1, "pkg/p2.py": 0.9, "pkg/p3.py": 0.8, "pkg/odd.py": 0.7, "lib/util.py": 0.6, "lib/x.py": 0.6},
			[]string{"missing_dependency pkg/odd.py without lib/util.py"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := holesOf(t, append(slices.Clone(base), c.edges...), c.act)
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("holes (-want +got):\n%s", diff)
			}
		})
	}
}
