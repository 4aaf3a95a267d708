package extract

import "sync"

// edgeSlab is the unused tail of a large edge array. While a wide
// extraction runs (WideArenas), a file's edges are built straight into a
// slab's tail and keep their place there, one file after another: the
// copy finish makes out of a scratch array (keepEdges) was 0.25 s of
// go-std's 16 s of ingest CPU, the memmove into fresh pages of an array
// the size of the result. A slab's files are extracted one after the
// other by one worker, so they are held and released together; a slab
// stays allocated until the last of them is released.
type edgeSlab struct{ tail []Edge }

// slabEdges is a slab's length: 1 MB of edges, ≈ 35 go-std files.
const slabEdges = 1 << 13

// edgeSlabs keeps each processor's slab between files. A slab the
// collector drops from the pool is only its unused tail: the files built
// in it keep their edges.
var edgeSlabs = sync.Pool{New: func() any { return new(edgeSlab) }}

// takeSlab returns a slab whose tail has room for at least want edges,
// starting a new array when the kept one has not.
func takeSlab(want int) *edgeSlab {
	s := edgeSlabs.Get().(*edgeSlab)
	if cap(s.tail) < want {
		s.tail = make([]Edge, 0, slabEdges)
	}
	return s
}

// keep returns edges, which a builder appended to s.tail, as the file's
// own: in place, capped at its length so no later append reaches the
// next file's, with the tail moved past it. When append outgrew the tail
// the edges are in an array of their own (exact trims it), and the tail,
// filled with copies of them, is cleared for the next file. s goes back
// to the pool.
func (s *edgeSlab) keep(edges []Edge) []Edge {
	n := len(edges)
	switch {
	case n == 0:
		edges = nil
	case cap(edges) == cap(s.tail) && &edges[:1][0] == &s.tail[:1][0]:
		s.tail = s.tail[n:n]
		edges = edges[:n:n]
	default:
		clear(s.tail[:cap(s.tail)])
		edges = exact(edges)
	}
	edgeSlabs.Put(s)
	return edges
}
