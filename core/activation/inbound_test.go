package activation

import (
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/graph/graphtest"
)

// TestInWeightBoundSameAnswers: D1 on a graph that keeps its per-node
// bound of incoming weights (and skips importer lists under it) answers
// bit for bit as on a twin that keeps none, for both engines and with and
// without inhibitory edges, also after learning raised and lowered
// weights on both.
func TestInWeightBoundSameAnswers(t *testing.T) {
	for name, build := range map[string]func() *graph.Graph{
		"mixed":    func() *graph.Graph { return graphtest.Mixed(3000, 12000, 5) },
		"powerlaw": func() *graph.Graph { return graphtest.PowerLaw(4000, 16000, 9) },
	} {
		bounded, twin := build(), build()
		bounded.TrackInWeightBound()
		pb, pt := NewPool(bounded.NumNodes()), NewPool(twin.NumNodes())
		p := DefaultParams()
		r := rand.New(rand.NewPCG(1, 2))
		for round := range 6 {
			if round > 0 {
				// Learning between queries: raise some weights towards the
				// cap (the bound must follow) and lower others.
				for range 400 {
					e := graph.EdgeIdx(r.IntN(bounded.NumEdges()))
					v := r.Float32() * graph.WeightCap
					for _, g := range []*graph.Graph{bounded, twin} {
						if _, err := g.UpdateWeight(e, func(float32) float32 { return v }); err != nil {
							t.Fatal(err)
						}
					}
				}
			}
			var seeds []graph.Scored
			for range 1 + round {
				seeds = append(seeds, graph.Scored{Node: graph.NodeID(r.IntN(bounded.NumNodes())), Score: 0.5 + r.Float32()/2})
			}
			for engine, run := range map[string]func(*graph.Graph, []graph.Scored, Params, *Workspace) ([]graph.Scored, error){
				"wavefront": Wavefront, "heap": Heap,
			} {
				wb, wt := pb.Get(), pt.Get()
				got, err := run(bounded, seeds, p, wb)
				if err != nil {
					t.Fatal(err)
				}
				want, err := run(twin, seeds, p, wt)
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("%s %s round %d: the bound changed the answer (-none +bound):\n%s", name, engine, round, diff)
				}
				pb.Put(wb)
				pt.Put(wt)
			}
		}
	}
}
