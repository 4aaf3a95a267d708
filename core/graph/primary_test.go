package graph_test

import (
	"math/rand/v2"
	"testing"

	"github.com/m1nd-go/m1nd/core/graph"
)

// walkPrimaryEdges counts the edges that are not mirrors, edge by edge.
func walkPrimaryEdges(g *graph.Graph) int {
	n := 0
	for e := range g.NumEdges() {
		if !g.IsMirror(graph.EdgeIdx(e)) {
			n++
		}
	}
	return n
}

// TestSplicedKeepsPrimaryEdgeCount: Finalize and every splice of a chain
// (a daemon's ticks: nodes added and removed, edges dropped, added and
// their mirrors restored) keep the count of distinct edges without a
// walk, and it equals the walk's; a loaded graph, which keeps none, and
// its splices are walked and count the same.
func TestSplicedKeepsPrimaryEdgeCount(t *testing.T) {
	check := func(t *testing.T, what string, g *graph.Graph, counted bool) {
		t.Helper()
		if got := graph.MirrorsCounted(g); got != counted {
			t.Fatalf("%s: count kept %v, want %v", what, got, counted)
		}
		if got, want := g.NumPrimaryEdges(), walkPrimaryEdges(g); got != want {
			t.Fatalf("%s: NumPrimaryEdges %d, walk %d (of %d entries)", what, got, want, g.NumEdges())
		}
	}
	for seed := uint64(1); seed <= 60; seed++ {
		r := rand.New(rand.NewPCG(seed, 41))
		base, files := fileGraph(r, 1+r.IntN(25))
		loaded := seed%3 == 0
		if loaded {
			raw, err := base.ToRaw()
			if err != nil {
				t.Fatal(err)
			}
			if base, err = graph.FromRaw(raw); err != nil {
				t.Fatal(err)
			}
		}
		check(t, "base", base, !loaded)
		sp, _ := randomSplice(r, base, files, seed%2 == 0)
		askAbout(&sp, base, seed%4)
		g, _, err := base.Spliced(sp)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		check(t, "random splice", g, !loaded)
		for step := range 20 {
			if g, _, err = g.Spliced(chainSplice(r, g, step)); err != nil {
				t.Fatalf("seed %d step %d: %v", seed, step, err)
			}
			check(t, "chained splice", g, !loaded)
		}
	}
}
