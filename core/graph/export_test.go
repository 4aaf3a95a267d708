package graph

import "slices"

// IndexesAsBuilt reports whether g's string indexes are exactly what
// buildIndexes makes of its nodes (keys, offsets and node order), for
// tests of graphs that derive them instead.
func IndexesAsBuilt(g *Graph) bool {
	c := &Graph{strings: g.strings, nodes: g.nodes} // what buildIndexes reads
	c.buildIndexes()
	same := func(a, b *strIndex) bool {
		return slices.Equal(a.keys, b.keys) && slices.Equal(a.offsets, b.offsets) && slices.Equal(a.nodes, b.nodes)
	}
	return same(&c.byLabel, &g.byLabel) && same(&c.byTag, &g.byTag) && same(&c.byPath, &g.byPath)
}

// ReverseAsBuilt reports whether g's reverse CSR is exactly the one
// Finalize builds from its forward CSR.
func ReverseAsBuilt(g *Graph) bool {
	c := g.csr
	c.buildReverse(g.NumNodes())
	return slices.Equal(c.revOffsets, g.csr.revOffsets) && slices.Equal(c.revSources, g.csr.revSources) &&
		slices.Equal(c.revEdge, g.csr.revEdge)
}

// PageRankResidual is how settled g's ranks are (prResidual).
func PageRankResidual(g *Graph) float64 { return g.prResidual }

// PageRankRounds is how many rounds g's PageRank took (prRounds).
func PageRankRounds(g *Graph) int { return g.prRounds }

// SetLocalSweeps sets the settling rounds of a warm start until restore.
func SetLocalSweeps(n int) (restore func()) {
	old := localSweeps
	localSweeps = n
	return func() { localSweeps = old }
}

// SetAttrMinShare sets the shortest run a splice shares of the attribute
// column (attrMinShare) until restore.
func SetAttrMinShare(n int) (restore func()) {
	old := attrMinShare
	attrMinShare = n
	return func() { attrMinShare = old }
}

// AttrPieces is how many pieces g's attribute column has (1 when flat).
func AttrPieces(g *Graph) int { return max(1, len(g.csr.attrs.pieces)) }

// AttrRetained is how many entries the allocations under g's attribute
// column hold.
func AttrRetained(g *Graph) int { return g.csr.attrs.retained() }

// AttrsShared reports whether some of b's attribute column lies in an
// allocation of a's.
func AttrsShared(a, b *Graph) bool { return colShared(&a.csr.attrs, &b.csr.attrs) }

// NodePieces is how many pieces g's node attribute column has (1 when
// flat).
func NodePieces(g *Graph) int { return max(1, len(g.nodes.attrs.pieces)) }

// NodeRetained is how many entries the allocations under g's node
// attribute column hold.
func NodeRetained(g *Graph) int { return g.nodes.attrs.retained() }

// NodesShared reports whether some of b's node attribute column lies in
// an allocation of a's.
func NodesShared(a, b *Graph) bool { return colShared(&a.nodes.attrs, &b.nodes.attrs) }

func colShared[T any](a, b *attrCol[T]) bool {
	wholes := func(c *attrCol[T]) map[*T]bool {
		ws := c.wholes
		if c.pieces == nil {
			ws = [][]T{c.flat}
		}
		out := map[*T]bool{}
		for _, w := range ws {
			if w = w[:cap(w)]; len(w) > 0 {
				out[&w[len(w)-1]] = true
			}
		}
		return out
	}
	wa := wholes(a)
	for w := range wholes(b) {
		if wa[w] {
			return true
		}
	}
	return false
}

// SetSpliceScratchFresh makes splices take new scratch instead of pooled
// scratch until restore.
func SetSpliceScratchFresh() (restore func()) {
	scratchFresh = true
	return func() { scratchFresh = false }
}

// LearningAllocated reports whether g holds its per-edge strengthen and
// weaken counts and LTP/LTD flags (a lazy CSR leaves them out until
// EdgePlasticity).
func LearningAllocated(g *Graph) bool { return g.csr.learning().Strengthen != nil }

// SpliceScratchArrays are the first entries' addresses of the two
// PageRank vectors the kept splice scratch holds (which holds which
// changes with the rounds run), as a set.
func SpliceScratchArrays() map[*float64]bool {
	scratchSlot.mu.Lock()
	defer scratchSlot.mu.Unlock()
	out := map[*float64]bool{}
	if sc := scratchSlot.sc; sc != nil {
		for _, v := range [][]float64{sc.init, sc.next} {
			if cap(v) > 0 {
				out[&v[:1][0]] = true
			}
		}
	}
	return out
}

// SourcesStored reports whether g holds its per-edge source array (a
// spliced CSR leaves it to edgeSources until a reader asks).
func SourcesStored(g *Graph) bool {
	z := g.csr.lazySrc
	return z == nil || z.src.Load() != nil
}

// MirrorsCounted reports whether g keeps its count of mirror entries (a
// graph Finalize or Spliced built), so NumPrimaryEdges walks no edges.
func MirrorsCounted(g *Graph) bool { return g.csr.mirrorsKnown }

// SetReverseSplitEdges sets the edge count from which a splice fills its
// reverse CSR in chunks (reverseSplitEdges) until restore.
func SetReverseSplitEdges(n int) (restore func()) {
	old := reverseSplitEdges
	reverseSplitEdges = n
	return func() { reverseSplitEdges = old }
}
