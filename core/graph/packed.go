package graph

// Importer is one entry of a node's packed reverse adjacency: the source
// of an incoming edge and the forward edge itself.
type Importer struct {
	Source NodeID
	Edge   EdgeIdx
}

// InhibitoryBit marks an inhibitory edge in Importers.Flagged entries
// (edge indexes stay below 2³¹: the CSR's offsets are uint32).
const InhibitoryBit EdgeIdx = 1 << 31

// Importers is a packed copy of one graph generation's reverse adjacency,
// built once so that the engines' hot loops read one array in order
// instead of three at random per incoming edge. Weights are not copied
// (plasticity rewrites them between queries); polarity and direction,
// fixed per generation, are folded in. Read-only after NewImporters and
// safe for concurrent use.
type Importers struct {
	g   *Graph
	gen Generation
	// carryOff/carry: per node, the incoming edges that can carry signal
	// back to their source (not inhibitory, not bidirectional), in
	// reverse-CSR order.
	carryOff []uint32
	carry    []Importer
	// flagged: every incoming edge, parallel to the reverse CSR (InRange
	// positions), its Edge with InhibitoryBit set when inhibitory.
	flagged []Importer
	// inhibitory counts the generation's inhibitory edges.
	inhibitory int
}

// NewImporters packs g's reverse adjacency; g must be finalized.
func NewImporters(g *Graph) *Importers {
	n := g.NumNodes()
	c := &g.csr
	im := &Importers{g: g, gen: g.gen, carryOff: make([]uint32, n+1), flagged: make([]Importer, len(c.revSources))}
	carriers := 0
	for pos, e := range c.revEdge {
		src := c.revSources[pos]
		f := e
		if a := edgeAt(&c.attrs, e); a.inhibitory {
			f |= InhibitoryBit
			im.inhibitory++
		} else if a.dir != Bidirectional {
			carriers++
		}
		im.flagged[pos] = Importer{Source: src, Edge: f}
	}
	im.carry = make([]Importer, 0, carriers)
	for v := 0; v < n; v++ {
		for pos := c.revOffsets[v]; pos < c.revOffsets[v+1]; pos++ {
			if a := edgeAt(&c.attrs, c.revEdge[pos]); !a.inhibitory && a.dir != Bidirectional {
				im.carry = append(im.carry, Importer{Source: c.revSources[pos], Edge: c.revEdge[pos]})
			}
		}
		im.carryOff[v+1] = uint32(len(im.carry))
	}
	return im
}

// For reports whether im describes g as it is now (same graph, same
// generation, still finalized).
func (im *Importers) For(g *Graph) bool {
	return im != nil && im.g == g && im.gen == g.gen && g.Finalized()
}

// HasInhibitory reports whether the generation has any inhibitory edge.
func (im *Importers) HasInhibitory() bool { return im.inhibitory > 0 }

// Carriers returns n's incoming edges that are neither inhibitory nor
// bidirectional, in reverse-CSR order. The slice is shared: do not modify.
func (im *Importers) Carriers(n NodeID) []Importer {
	return im.carry[im.carryOff[n]:im.carryOff[n+1]]
}

// Flagged returns all of n's incoming edges in reverse-CSR order, each
// Edge carrying InhibitoryBit when the edge is inhibitory. The slice is
// shared: do not modify.
func (im *Importers) Flagged(n NodeID) []Importer {
	return im.flagged[im.g.csr.revOffsets[n]:im.g.csr.revOffsets[n+1]]
}
