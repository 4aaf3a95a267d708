package graph_test

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/graph/graphtest"
)

// TestMaybeLearnedListsEveryLearnedEdge: every edge with any learning
// state is listed, in edge order, and no untouched edge is.
func TestMaybeLearnedListsEveryLearnedEdge(t *testing.T) {
	r := rand.New(rand.NewPCG(29, 2))
	g := graphtest.PowerLaw(300, 900, 7)
	if got := g.MaybeLearned(nil); len(got) != 0 {
		t.Fatalf("a fresh graph lists %d edges", len(got))
	}
	pl := g.EdgePlasticity()
	want := map[graph.EdgeIdx]bool{}
	for range 60 {
		i := graph.EdgeIdx(r.IntN(g.NumEdges()))
		want[i] = true
		switch r.IntN(6) {
		case 0:
			g.AtomicWriteWeight(i, g.Weight(i)+0.25)
		case 1:
			pl.Strengthen[i]++
		case 2:
			pl.Weaken[i]++
		case 3:
			pl.LTP[i] = true
		case 4:
			pl.LTD[i] = true
		case 5:
			pl.Original[i] = float32(math.NaN())
		}
	}
	got := g.MaybeLearned(nil)
	if !slices.IsSorted(got) {
		t.Errorf("not in edge order: %v", got)
	}
	for _, e := range got {
		if !want[e] {
			t.Errorf("edge %d listed but untouched", e)
		}
		delete(want, e)
	}
	if len(want) != 0 {
		t.Errorf("learned edges not listed: %v", want)
	}
}
