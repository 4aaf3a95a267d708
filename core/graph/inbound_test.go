package graph_test

import (
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/graph/graphtest"
)

// TestInWeightBoundHolds: once a graph keeps its bounds, each node's is at
// least every incoming edge's weight, also when weights are written while
// the bounds are being filled; a graph that keeps none, or whose edges
// Finalize rebuilt, answers WeightCap.
func TestInWeightBoundHolds(t *testing.T) {
	g := graphtest.Mixed(3000, 12000, 3)
	if got := g.InWeightBound(7); got != graph.WeightCap {
		t.Fatalf("untracked bound %v, want WeightCap", got)
	}
	var wg sync.WaitGroup
	for w := range 2 {
		wg.Go(func() {
			r := rand.New(rand.NewPCG(uint64(w), 9))
			for range 20000 {
				e := graph.EdgeIdx(r.IntN(g.NumEdges()))
				v := r.Float32() * graph.WeightCap
				if r.IntN(2) == 0 {
					_ = g.AtomicMaxWeight(e, v)
				} else if _, err := g.UpdateWeight(e, func(float32) float32 { return v }); err != nil {
					t.Error(err)
				}
			}
		})
	}
	g.TrackInWeightBound()
	wg.Wait()
	tight := 0
	for u := range graph.NodeID(g.NumNodes()) {
		lo, hi := g.OutRange(u)
		for e := lo; e < hi; e++ {
			if b := g.InWeightBound(g.Target(e)); g.Weight(e) > b {
				t.Fatalf("edge %d into %d weighs %v above its bound %v", e, g.Target(e), g.Weight(e), b)
			}
		}
		if g.InWeightBound(u) < graph.WeightCap {
			tight++
		}
	}
	if tight == 0 {
		t.Fatal("no bound below WeightCap: nothing to skip")
	}
	if err := g.AddEdge(graph.Edge{Source: 1, Target: 2, Relation: "calls", Weight: 1}); err != nil {
		t.Fatal(err)
	}
	g.Finalize()
	if got := g.InWeightBound(2); got != graph.WeightCap {
		t.Fatalf("bound %v kept across Finalize, want WeightCap", got)
	}
}
