package graph_test

import (
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
