package xlr

import "github.com/m1nd-go/m1nd/core/graph"

// hubSet marks the hubs of one graph generation (degree above
// HubDegreeRatio × the average degree), one bit a node. Immunity and the
// anti-seed scan ask whether a node is a hub for every neighbour they
// visit; a node's degree is two reads of node-sized offset arrays at a
// random place, while the set of a 120,000-node graph is 15 KB. A degree
// only changes with the graph's generation, so one set serves every query
// until then (learning changes weights, not degrees).
type hubSet struct {
	g            *graph.Graph
	gen          graph.Generation
	nodes, edges int
	bits         []uint64
}

// has reports whether v is a hub.
func (h *hubSet) has(v graph.NodeID) bool { return h.bits[v>>6]&(1<<(v&63)) != 0 }

// fits reports whether h describes g as it is now.
func (h *hubSet) fits(g *graph.Graph) bool {
	return h != nil && h.g == g && h.gen == g.Generation() && h.nodes == g.NumNodes() && h.edges == g.NumEdges()
}

// newHubSet marks g's hubs for the given average degree and ratio: none
// when the average degree is 0.
func newHubSet(g *graph.Graph, avgDeg float64, ratio float32) *hubSet {
	n := g.NumNodes()
	h := &hubSet{g: g, gen: g.Generation(), nodes: n, edges: g.NumEdges(), bits: make([]uint64, (n+63)/64)}
	if avgDeg <= 0 {
		return h
	}
	limit := float64(ratio) * avgDeg
	for v := range n {
		if float64(g.Degree(graph.NodeID(v))) > limit {
			h.bits[v>>6] |= 1 << (v & 63)
		}
	}
	return h
}

// hubsOf returns g's hub set, built on the first query of a generation
// and kept in e (one graph at a time: an engine shared by several graphs
// rebuilds it when the graph changes, with the same answers).
func (e *Engine) hubsOf(g *graph.Graph, avgDeg float64) *hubSet {
	if h := e.hubs.Load(); h.fits(g) {
		return h
	}
	h := newHubSet(g, avgDeg, e.p.HubDegreeRatio)
	e.hubs.Store(h)
	return h
}
