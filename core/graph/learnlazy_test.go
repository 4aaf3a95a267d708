package graph_test

import (
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/m1nd-go/m1nd/core/graph"
)

var noPageRank = cmpopts.IgnoreFields(graph.Raw{}, "PageRank")

// learn writes learned state into g as the plasticity engine does: a few
// edges strengthened, one flagged LTP, their weights raised.
func learn(t *testing.T, g *graph.Graph, r *rand.Rand) {
	t.Helper()
	pl := g.EdgePlasticity()
	for k := 0; k < 3 && g.NumEdges() > 0; k++ {
		e := graph.EdgeIdx(r.IntN(g.NumEdges()))
		pl.Strengthen[e]++
		pl.LTP[e] = true
		if err := g.AtomicWriteWeight(e, g.Weight(e)+0.25); err != nil {
			t.Fatal(err)
		}
	}
}

// TestSplicedLearningLazy chains splices with and without FreshWeights
// over bases that learned: a fresh splice (and a splice of a base whose
// counts and flags were never allocated) leaves them unallocated and
// reads them as zero; readers (MaybeLearned, ToRaw, Clone, concurrent
// EdgePlasticity calls) see the same graph as a splice that allocates;
// writing learned state into the result leaves the base a reader holds
// unchanged, and writing into the base leaves the result unchanged.
func TestSplicedLearningLazy(t *testing.T) {
	for seed := uint64(1); seed <= 4; seed++ {
		r := rand.New(rand.NewPCG(seed, 32))
		base, _ := fileGraph(r, 30)
		learn(t, base, r)
		for step := range 12 {
			at := fmt.Sprintf("seed %d step %d", seed, step)
			sp := chainSplice(r, base, step)
			wasAllocated := graph.LearningAllocated(base)
			heldBase := mustRaw(t, base)
			next, _, err := base.Spliced(sp)
			if err != nil {
				t.Fatalf("%s: %v", at, err)
			}
			if lazy := sp.FreshWeights || !wasAllocated; graph.LearningAllocated(next) == lazy {
				t.Fatalf("%s: counts and flags allocated = %v, want %v", at, lazy, !lazy)
			}
			// A clone allocates everything; its reads are the reference
			// (its PageRank aims at another tolerance: a clone does not
			// know how settled its ranks are).
			ref := base.Clone()
			ref.EdgePlasticity()
			want, _, err := ref.Spliced(sp)
			if err != nil {
				t.Fatal(err)
			}
			gotRaw := mustRaw(t, next)
			if d := cmp.Diff(mustRaw(t, want), gotRaw, noPageRank); d != "" {
				t.Fatalf("%s: lazy splice differs from an allocating one (-allocating +lazy):\n%s", at, d)
			}
			if d := cmp.Diff(want.MaybeLearned(nil), next.MaybeLearned(nil)); d != "" {
				t.Fatalf("%s: MaybeLearned differs:\n%s", at, d)
			}
			if d := cmp.Diff(mustRaw(t, want.Clone()), mustRaw(t, next.Clone()), noPageRank); d != "" {
				t.Fatalf("%s: clones differ:\n%s", at, d)
			}
			// Readers and writers of the result at once (-race).
			if step%3 == 0 {
				var wg sync.WaitGroup
				for range 3 {
					wg.Go(func() { next.EdgePlasticity() })
					wg.Go(func() { next.MaybeLearned(nil) })
					wg.Go(func() { next.LearningState() })
				}
				wg.Wait()
			}
			// Learning on the result leaves the base as it was...
			learn(t, next, r)
			if d := cmp.Diff(heldBase, mustRaw(t, base)); d != "" {
				t.Fatalf("%s: learning on the splice changed its base (-before +after):\n%s", at, d)
			}
			// ...and learning on the base leaves the result.
			heldNext := mustRaw(t, next)
			learn(t, base, r)
			if d := cmp.Diff(heldNext, mustRaw(t, next)); d != "" {
				t.Fatalf("%s: learning on the base changed the splice (-before +after):\n%s", at, d)
			}
			// Every other step, go on from a result nothing learned on.
			if step%2 == 0 {
				next, _, err = base.Spliced(graph.Splice{FreshWeights: true})
				if err != nil {
					t.Fatal(err)
				}
			}
			base = next
		}
	}
}
