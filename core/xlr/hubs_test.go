package xlr

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/graph/graphtest"
)

// TestHubSetIsTheDegreeRule: the kept hub set marks exactly the nodes
// whose degree is above HubDegreeRatio × the average degree, is built once
// for a graph generation and reused, and is built again when the graph
// changes — a node that became a hub is then one, and the answer is a new
// engine's.
func TestHubSetIsTheDegreeRule(t *testing.T) {
	g := graphtest.PowerLaw(3000, 9000, 3)
	e, err := New(DefaultParams())
	if err != nil {
		t.Fatal(err)
	}
	seeds := []graph.Scored{{Node: 10, Score: 1}, {Node: 2000, Score: 0.5}}
	imp := graph.NewImporters(g)
	if _, err := e.PrepareWith(g, imp, seeds).Gate(seeds); err != nil {
		t.Fatal(err)
	}
	first := e.hubs.Load()
	checkHubs(t, g, first, e.p.HubDegreeRatio)
	if _, err := e.PrepareWith(g, imp, seeds).Gate(seeds); err != nil {
		t.Fatal(err)
	}
	if e.hubs.Load() != first {
		t.Fatal("the hub set was built again for the same generation")
	}

	// Node 2999 gains 200 importers: a hub in the next generation.
	const v = graph.NodeID(2999)
	for s := range graph.NodeID(200) {
		if err := g.AddEdge(graph.Edge{Source: s, Target: v, Relation: "calls", Weight: 1}); err != nil {
			t.Fatal(err)
		}
	}
	g.Finalize()
	before := *first
	got, err := e.PrepareWith(g, graph.NewImporters(g), seeds).Gate([]graph.Scored{{Node: v, Score: 1}})
	if err != nil {
		t.Fatal(err)
	}
	h := e.hubs.Load()
	if h == first || !h.has(v) || before.has(v) {
		t.Fatalf("after Finalize: new set %v, node %d a hub before %v, now %v", h != first, v, before.has(v), h.has(v))
	}
	checkHubs(t, g, h, e.p.HubDegreeRatio)
	fresh, _ := New(DefaultParams())
	want, err := fresh.Prepare(g, seeds).Gate([]graph.Scored{{Node: v, Score: 1}})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("a stale hub set moved the answer (-fresh +kept):\n%s", diff)
	}
}

func checkHubs(t *testing.T, g *graph.Graph, h *hubSet, ratio float32) {
	t.Helper()
	if !h.fits(g) {
		t.Fatal("the hub set does not describe the graph")
	}
	avg := 2 * float64(g.NumEdges()) / float64(g.NumNodes())
	hubs := 0
	for v := range graph.NodeID(g.NumNodes()) {
		want := float64(g.Degree(v)) > float64(ratio)*avg
		if h.has(v) != want {
			t.Fatalf("node %d (degree %d, average %.2f): hub %v, want %v", v, g.Degree(v), avg, h.has(v), want)
		}
		if want {
			hubs++
		}
	}
	if hubs == 0 {
		t.Fatal("test graph has no hub")
	}
}
