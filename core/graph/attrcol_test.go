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

// indexedEdge is an edge as a reader sees it at its index.
type indexedEdge struct {
	Src, Dst      graph.NodeID
	Rel           string
	Weight, Orig  float32
	Causal        float32
	Dir           graph.Direction
	Mirror, Inhib bool
}

func edgesByIndex(g *graph.Graph) []indexedEdge {
	out := make([]indexedEdge, g.NumEdges())
	for e := range out {
		ei := graph.EdgeIdx(e)
		out[e] = indexedEdge{Src: g.Source(ei), Dst: g.Target(ei), Rel: g.RelationName(ei), Weight: g.Weight(ei),
			Orig: g.EdgePlasticity().Original[ei], Causal: g.CausalStrength(ei), Dir: g.EdgeDirection(ei),
			Mirror: g.IsMirror(ei), Inhib: g.Inhibitory(ei)}
	}
	return out
}

// chainSplice is a daemon tick's kind of change to g: a node gains a
// sibling after it (a function added to its file), sometimes a later node
// goes, and a few edges are dropped and added.
func chainSplice(r *rand.Rand, g *graph.Graph, step int) graph.Splice {
	n := g.NumNodes()
	x := graph.NodeID(r.IntN(n))
	added := graph.Node{ExternalID: fmt.Sprintf("s%d::0", step), Label: "added", Provenance: graph.Provenance{SourcePath: "p"}}
	sp := graph.Splice{FreshWeights: step%2 == 0,
		Ranges: []graph.NodeRange{{Lo: x, Hi: x + 1, Nodes: []graph.Node{g.Node(x), added}}}}
	gone := graph.NoNode
	if y := x + 1 + graph.NodeID(r.IntN(n)); r.IntN(2) == 0 && int(y) < n {
		gone = y
		sp.Ranges = append(sp.Ranges, graph.NodeRange{Lo: y, Hi: y + 1})
	}
	drop := map[graph.EdgeIdx]bool{}
	for k := r.IntN(4); k > 0; k-- {
		if e := graph.EdgeIdx(r.IntN(g.NumEdges())); !g.IsMirror(e) {
			drop[e] = true
		}
	}
	sp.DropEdge = func(s, d graph.NodeID, rel graph.Str) bool {
		e, ok := g.FindEdge(s, d, rel)
		return ok && drop[e]
	}
	for k := 1 + r.IntN(3); k > 0; k-- {
		o := graph.NodeID(r.IntN(n))
		if o == gone {
			continue
		}
		e := randomEdge(r, 0, 0)
		src, dst := added.ExternalID, g.ExternalID(o)
		if r.IntN(2) == 0 {
			src, dst = dst, src
		}
		sp.AddEdges = append(sp.AddEdges, graph.SpliceEdge{Source: src, Target: dst, Edge: e})
	}
	return sp
}

// TestSpliceChainSharesAndKeepsBase splices a graph again and again, as a
// daemon's ticks do, sharing the attribute column's runs with the base:
// each result is edge for edge the one a splice that copies everything
// gives, the base a reader holds (and reads during the splice) is
// unchanged even after the result learns, the results do share, and the
// column never holds more than twice its size.
func TestSpliceChainSharesAndKeepsBase(t *testing.T) {
	for seed := uint64(1); seed <= 20; seed++ {
		r := rand.New(rand.NewPCG(seed, 29))
		shared, _ := fileGraph(r, 40)
		copied := shared.Clone()
		sharedSteps, pieces := 0, 0
		for step := range 30 {
			sp := chainSplice(r, shared, step)
			before := edgesByIndex(shared)
			var wg sync.WaitGroup
			wg.Go(func() { edgesByIndex(shared) }) // a reader of the base
			restore := graph.SetAttrMinShare(3)
			next, _, err := shared.Spliced(sp)
			restore()
			wg.Wait()
			if err != nil {
				t.Fatalf("seed %d step %d: %v", seed, step, err)
			}
			restore = graph.SetAttrMinShare(1 << 30)
			want, _, err := copied.Spliced(sp)
			restore()
			if err != nil {
				t.Fatalf("seed %d step %d, copied: %v", seed, step, err)
			}
			if a, b := edgesByIndex(want), edgesByIndex(next); !slices.Equal(a, b) {
				t.Fatalf("seed %d step %d: shared splice differs from a copying one (-copied +shared):\n%s", seed, step, cmp.Diff(a, b))
			}
			if !graph.ReverseAsBuilt(next) {
				t.Fatalf("seed %d step %d: reverse CSR differs from the one Finalize builds", seed, step)
			}
			for e := range next.NumEdges() {
				next.AtomicWriteWeight(graph.EdgeIdx(e), 3)
			}
			if after := edgesByIndex(shared); !slices.Equal(before, after) {
				t.Fatalf("seed %d step %d: the base changed under its reader (-before +after):\n%s", seed, step, cmp.Diff(before, after))
			}
			if graph.AttrsShared(shared, next) {
				sharedSteps++
			}
			pieces = max(pieces, graph.AttrPieces(next))
			if got, limit := graph.AttrRetained(next), 2*next.NumEdges()+3; got > limit {
				t.Fatalf("seed %d step %d: the column holds %d entries, more than %d", seed, step, got, limit)
			}
			// The copying chain learns as the shared one did.
			for e := range want.NumEdges() {
				want.AtomicWriteWeight(graph.EdgeIdx(e), 3)
			}
			shared, copied = next, want
		}
		if sharedSteps < 15 {
			t.Fatalf("seed %d: only %d of 30 splices shared the base's attributes", seed, sharedSteps)
		}
		if pieces < 4 {
			t.Fatalf("seed %d: the column was never in more than %d pieces", seed, pieces)
		}
	}
}

// splicedEightTimes is g after eight one-node splices spread over it: its
// columns in pieces, as a day of daemon ticks leaves them.
func splicedEightTimes(b *testing.B, g *graph.Graph) *graph.Graph {
	b.Helper()
	spliced := g
	for k := range 8 {
		lo := graph.NodeID(5_000 + k*11_000)
		nodes := []graph.Node{spliced.Node(lo), {ExternalID: fmt.Sprintf("bench::%d", k)}}
		var err error
		if spliced, _, err = spliced.Spliced(graph.Splice{Ranges: []graph.NodeRange{{Lo: lo, Hi: lo + 1, Nodes: nodes}}}); err != nil {
			b.Fatal(err)
		}
	}
	return spliced
}

// BenchmarkEdgeAttrRead reads every edge's relation and polarity, as an
// engine's walk does, on a graph built whole (one flat column) and on
// the same graph after eight splices (a column in pieces).
func BenchmarkEdgeAttrRead(b *testing.B) {
	g := graphtest.PowerLaw(100_000, 300_000, 1)
	spliced := splicedEightTimes(b, g)
	for _, c := range []struct {
		name string
		g    *graph.Graph
	}{{"flat", g}, {"spliced", spliced}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportMetric(float64(graph.AttrPieces(c.g)), "pieces")
			sum := 0
			for b.Loop() {
				for e := range c.g.NumEdges() {
					if !c.g.Inhibitory(graph.EdgeIdx(e)) {
						sum += int(c.g.Relation(graph.EdgeIdx(e)))
					}
				}
			}
			if sum < 0 {
				b.Fatal(sum)
			}
		})
	}
}
