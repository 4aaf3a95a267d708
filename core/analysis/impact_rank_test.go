package analysis

import (
	"fmt"
	"slices"
	"testing"

	"github.com/m1nd-go/m1nd/core/graph"
)

// A module's production importer and its test files all reach a signal of
// 1.000 (a file's noisy-or saturates once a few of its entities are hit):
// the production file is listed first, though the tests hit more entities.
func TestImpactProductionBeforeTestsAtEqualSignal(t *testing.T) {
	g := graph.New()
	add := func(id, path string, typ graph.NodeType) {
		n := graph.Node{ExternalID: id, Label: id, Type: typ}
		n.Provenance.SourcePath = path
		if _, err := g.AddNode(n); err != nil {
			t.Fatal(err)
		}
	}
	edge := func(src, rel, dst string) {
		if err := g.AddEdgeByID(src, dst, graph.Edge{Relation: rel, Weight: 1}); err != nil {
			t.Fatal(err)
		}
	}
	add("file::core.py", "core.py", graph.File)
	add("file::core.py::F", "core.py", graph.Function)
	edge("file::core.py", "contains", "file::core.py::F")
	users := map[string]int{"tests/test_a.py": 8, "tests/test_b.py": 7, "use.py": 5}
	for _, f := range slices.Sorted(func(yield func(string) bool) {
		for f := range users {
			if !yield(f) {
				return
			}
		}
	}) {
		add("file::"+f, f, graph.File)
		for i := range users[f] {
			fn := fmt.Sprintf("file::%s::f%d", f, i)
			add(fn, f, graph.Function)
			edge("file::"+f, "contains", fn)
			edge(fn, "calls", "file::core.py::F")
		}
	}
	g.Finalize()
	res, err := Impact(g, node(t, g, "file::core.py"), DefaultImpactParams())
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range res.BlastRadius {
		if shown(b.SignalStrength) != 1000 {
			t.Fatalf("%s: signal %v, the fixture needs every file at 1.000", g.ExternalID(b.Node), b.SignalStrength)
		}
	}
	want := []string{"file::use.py@1", "file::tests/test_a.py@1", "file::tests/test_b.py@1"}
	if got := listed(g, res); !slices.Equal(got, want) {
		t.Errorf("blast radius = %v\nwant %v", got, want)
	}
}
