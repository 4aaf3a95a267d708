package graph_test

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/m1nd-go/m1nd/core/graph"
)

// TestSplicedScratchPooled chains splices whose working memory comes from
// a pool that splices of a larger graph keep dirtying: each result (graph,
// remap, PageRank's rounds and residual) equals that of a splice with new
// scratch, and no result changes after later splices reuse the pool, so
// nothing a splice returns lies in its scratch.
func TestSplicedScratchPooled(t *testing.T) {
	type held struct {
		g           *graph.Graph
		raw         *graph.Raw
		remap, copy []graph.NodeID // as returned, and a copy
	}
	var kept []held
	for seed := uint64(1); seed <= 6; seed++ {
		r := rand.New(rand.NewPCG(seed, 31))
		shared, _ := fileGraph(r, 40)
		noise, _ := fileGraph(r, 160)
		for step := range 16 {
			// A larger splice first leaves non-zero scratch behind.
			if _, _, err := noise.Spliced(chainSplice(r, noise, step)); err != nil {
				t.Fatal(err)
			}
			sp := chainSplice(r, shared, step)
			next, remap, err := shared.Spliced(sp)
			if err != nil {
				t.Fatalf("seed %d step %d: %v", seed, step, err)
			}
			restore := graph.SetSpliceScratchFresh()
			want, wantRemap, err := shared.Spliced(sp)
			restore()
			if err != nil {
				t.Fatal(err)
			}
			got, exp := mustRaw(t, next), mustRaw(t, want)
			if d := cmp.Diff(exp, got); d != "" {
				t.Fatalf("seed %d step %d: pooled splice differs from a fresh one (-fresh +pooled):\n%s", seed, step, d)
			}
			if !slices.Equal(remap, wantRemap) || graph.PageRankRounds(next) != graph.PageRankRounds(want) ||
				graph.PageRankResidual(next) != graph.PageRankResidual(want) {
				t.Fatalf("seed %d step %d: remap or PageRank rounds differ from a fresh splice's", seed, step)
			}
			kept = append(kept, held{next, got, remap, slices.Clone(remap)})
			shared = next
		}
	}
	for i, h := range kept {
		if d := cmp.Diff(h.raw, mustRaw(t, h.g)); d != "" {
			t.Fatalf("result %d changed after later splices (-then +now):\n%s", i, d)
		}
		if !slices.Equal(h.remap, h.copy) {
			t.Fatalf("result %d: its remap changed after later splices", i)
		}
	}
}

func mustRaw(t *testing.T, g *graph.Graph) *graph.Raw {
	t.Helper()
	raw, err := g.ToRaw()
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

// TestSplicedScratchGrows: splices that each add a node (a daemon tick
// appending a function) keep reusing one scratch instead of replacing it
// for a graph one node larger each time.
func TestSplicedScratchGrows(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 33))
	g, _ := fileGraph(r, 200)
	var first map[*float64]bool
	for step := range 8 {
		sp := graph.Splice{FreshWeights: true, Ranges: []graph.NodeRange{{Lo: 0, Hi: 0,
			Nodes: []graph.Node{{ExternalID: fmt.Sprintf("grown%d", step), Label: "grown"}}}}}
		next, _, err := g.Spliced(sp)
		if err != nil {
			t.Fatal(err)
		}
		at := graph.SpliceScratchArrays()
		if step == 1 {
			first = at
		}
		if step > 1 && !maps.Equal(at, first) {
			t.Fatalf("step %d: the splice scratch was allocated again for a graph of %d nodes", step, next.NumNodes())
		}
		g = next
	}
}
