package graph_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/graph/graphtest"
)

// sourcesByRange lists every forward edge's source from OutRange: what
// Source must answer.
func sourcesByRange(g *graph.Graph) []graph.NodeID {
	src := make([]graph.NodeID, g.NumEdges())
	for s := range graph.NodeID(g.NumNodes()) {
		lo, hi := g.OutRange(s)
		for e := lo; e < hi; e++ {
			src[e] = s
		}
	}
	return src
}

func allSources(g *graph.Graph) []graph.NodeID {
	src := make([]graph.NodeID, g.NumEdges())
	for e := range src {
		src[e] = g.Source(graph.EdgeIdx(e))
	}
	return src
}

// TestSplicedSourcesDerived: a splice leaves the edges' source array out;
// Source derives it, once, for readers on several goroutines (-race), and
// answers what the offsets say, on the splice, its clone, and a graph
// re-finalized from it. The base a reader holds keeps its answers.
func TestSplicedSourcesDerived(t *testing.T) {
	for seed := uint64(1); seed <= 6; seed++ {
		r := rand.New(rand.NewPCG(seed, 41))
		base, _ := fileGraph(r, 30)
		for step := range 10 {
			at := fmt.Sprintf("seed %d step %d", seed, step)
			held := allSources(base)
			next, _, err := base.Spliced(chainSplice(r, base, step))
			if err != nil {
				t.Fatalf("%s: %v", at, err)
			}
			if graph.SourcesStored(next) {
				t.Fatalf("%s: the splice wrote the source array", at)
			}
			want := sourcesByRange(next)
			got := make([][]graph.NodeID, 4)
			var wg sync.WaitGroup
			for i := range got {
				wg.Go(func() { got[i] = allSources(next) })
			}
			wg.Wait()
			for i := range got {
				if d := cmp.Diff(want, got[i]); d != "" {
					t.Fatalf("%s: reader %d: sources (-offsets +Source):\n%s", at, i, d)
				}
			}
			if d := cmp.Diff(want, allSources(next.Clone())); d != "" {
				t.Fatalf("%s: clone's sources (-offsets +clone):\n%s", at, d)
			}
			if d := cmp.Diff(held, allSources(base)); d != "" {
				t.Fatalf("%s: the splice changed its base's sources:\n%s", at, d)
			}
			base = next
		}
		// A spliced graph finalized again (an edge added) reads its old
		// edges' sources.
		n := base.NumNodes()
		s, d := graph.NodeID(r.IntN(n)), graph.NodeID(r.IntN(n))
		before := dumpGraph(base)
		base.AddEdge(graph.Edge{Source: s, Target: d, Relation: "m1nd_test", Weight: 0.5, Direction: graph.Forward})
		base.Finalize()
		after := dumpGraph(base)
		after.Edges = slices.DeleteFunc(after.Edges, func(e dumpEdge) bool { return e.Rel == "m1nd_test" })
		if diff := cmp.Diff(before.Edges, after.Edges); diff != "" {
			t.Fatalf("seed %d: re-finalized splice's edges (-before +after):\n%s", seed, diff)
		}
		if diff := cmp.Diff(sourcesByRange(base), allSources(base)); diff != "" {
			t.Fatalf("seed %d: re-finalized splice's sources:\n%s", seed, diff)
		}
	}
}

// BenchmarkSourceRead reads every edge's source on a graph built whole
// (a stored array) and on the same graph after eight splices (derived
// once, before the timer: the read cost after the first reader).
func BenchmarkSourceRead(b *testing.B) {
	g := graphtest.PowerLaw(100_000, 300_000, 1)
	spliced := splicedEightTimes(b, g)
	spliced.Source(0)
	for _, c := range []struct {
		name string
		g    *graph.Graph
	}{{"flat", g}, {"spliced", spliced}} {
		b.Run(c.name, func(b *testing.B) {
			sum := 0
			for b.Loop() {
				for e := range c.g.NumEdges() {
					sum += int(c.g.Source(graph.EdgeIdx(e)))
				}
			}
			if sum < 0 {
				b.Fatal(sum)
			}
		})
	}
}
