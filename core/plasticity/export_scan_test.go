package plasticity

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/graph/graphtest"
)

// exportEveryEdge is ExportState as it was before graph.MaybeLearned: a
// test of every edge, the reference the narrowed scan must equal.
func exportEveryEdge(g *graph.Graph) []SynapticState {
	pl := g.EdgePlasticity()
	var out []SynapticState
	for i := 0; i < g.NumEdges(); i++ {
		edge := graph.EdgeIdx(i)
		w, orig := g.Weight(edge), graph.Finite(pl.Original[i])
		if !graph.IsFinite(w) {
			w = orig
		}
		if w == orig && pl.Strengthen[i] == 0 && pl.Weaken[i] == 0 && !pl.LTP[i] && !pl.LTD[i] {
			continue
		}
		out = append(out, SynapticState{
			SourceLabel: g.ExternalID(g.Source(edge)), TargetLabel: g.ExternalID(g.Target(edge)),
			Relation: g.RelationName(edge), OriginalWeight: orig, CurrentWeight: w,
			StrengthenCount: pl.Strengthen[i], WeakenCount: pl.Weaken[i], LTPApplied: pl.LTP[i], LTDApplied: pl.LTD[i],
		})
	}
	return out
}

// TestExportStateEqualsEveryEdgeScan: on graphs whose edges learned in
// every way there is (weights moved, counters, flags, a weight of -0 over
// an original of +0, non-finite originals), the export through
// graph.MaybeLearned is record for record the scan of every edge.
func TestExportStateEqualsEveryEdgeScan(t *testing.T) {
	r := rand.New(rand.NewPCG(29, 1))
	e := newEngine(t)
	for round := range 40 {
		g := graphtest.PowerLaw(200, 600, uint64(round))
		pl := g.EdgePlasticity()
		for range r.IntN(30) {
			i := graph.EdgeIdx(r.IntN(g.NumEdges()))
			switch r.IntN(8) {
			case 0:
				g.AtomicWriteWeight(i, r.Float32()*2)
			case 1:
				pl.Strengthen[i] = uint16(1 + r.IntN(3))
			case 2:
				pl.Weaken[i] = 1
			case 3:
				pl.LTP[i] = true
			case 4:
				pl.LTD[i] = true
			case 5: // +0 and -0 are the same weight: nothing learned
				pl.Original[i] = 0
				g.AtomicWriteWeight(i, float32(math.Copysign(0, -1)))
			case 6: // a non-finite original reads as 0
				pl.Original[i] = float32(math.Inf(1))
				g.AtomicWriteWeight(i, 0)
			case 7: // learned, then back where it was
				w := g.Weight(i)
				g.AtomicWriteWeight(i, w+1)
				g.AtomicWriteWeight(i, w)
			}
		}
		want := exportEveryEdge(g)
		if diff := cmp.Diff(want, e.ExportState(g)); diff != "" {
			t.Fatalf("round %d: ExportState differs from the scan of every edge (-want +got):\n%s", round, diff)
		}
	}
}

// BenchmarkExportState: the export of a graph of go-std's size (≈ 700 K
// edges) that learned on a few, against the scan of every edge.
func BenchmarkExportState(b *testing.B) {
	g := graphtest.PowerLaw(100_000, 700_000, 1)
	for i := range 10 {
		g.AtomicWriteWeight(graph.EdgeIdx(i*5000), 0.9)
	}
	e := newEngine(b)
	b.Run("narrowed", func(b *testing.B) {
		for b.Loop() {
			e.ExportState(g)
		}
	})
	b.Run("every-edge", func(b *testing.B) {
		for b.Loop() {
			exportEveryEdge(g)
		}
	})
}
