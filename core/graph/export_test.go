package graph

import "slices"

// IndexesAsBuilt reports whether g's string indexes are exactly what
// buildIndexes makes of its nodes (keys, offsets and node order), for
// tests of graphs that derive them instead.
func IndexesAsBuilt(g *Graph) bool {
	c := *g
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
