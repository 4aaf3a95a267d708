package graphtest

import (
	"math/rand/v2"

	"github.com/m1nd-go/m1nd/core/graph"
)

// Mixed is PowerLaw(nodes, edges, seed) with extra edges of every kind the
// engines treat apart: inhibitory ones (some bidirectional) and
// bidirectional non-inhibitory ones, added by a second Finalize. The same
// arguments always give the same graph.
func Mixed(nodes, edges int, seed uint64) *graph.Graph {
	g := PowerLaw(nodes, edges, seed)
	r := rand.New(rand.NewPCG(seed+1, seed))
	for k := 0; k < edges/10; k++ {
		src, dst := graph.NodeID(r.IntN(nodes)), graph.NodeID(r.IntN(nodes))
		if src == dst {
			continue
		}
		e := graph.Edge{Source: src, Target: dst, Relation: "deprecates", Weight: 0.3 + float32(r.Float64())/2, Inhibitory: k%3 != 0}
		if k%2 == 0 {
			e.Direction = graph.Bidirectional
			e.Relation = "pairs"
		}
		mustEdge(g, e)
	}
	g.Finalize()
	return g
}
