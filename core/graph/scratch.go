package graph

import "sync"

// spliceScratch is the per-node working memory of a splice that does not
// outlive it: the warm PageRank's vectors, the layout's old-ID list and
// range marks, the CSR splicer's per-source marks. A daemon tick splices
// a graph of the same size again and again; pooled, these ≈ 36 bytes a
// node are not allocated (and collected) anew each time. Nothing a splice
// returns or keeps may alias them.
type spliceScratch struct {
	init, next, share    []float64
	from                 []NodeID
	inRange, shaky, mark []bool
	care                 []uint8
	shift                []int32
}

var scratchPool = sync.Pool{New: func() any { return new(spliceScratch) }}

// scratchFresh makes every splice take new scratch: a variable only so
// that a test can compare pooled splices with unpooled ones.
var scratchFresh = false

func getScratch() *spliceScratch {
	if scratchFresh {
		return new(spliceScratch)
	}
	return scratchPool.Get().(*spliceScratch)
}

func putScratch(s *spliceScratch) { scratchPool.Put(s) }

// zeroed returns s resized to n entries, all zero, reusing its memory
// when it is large enough.
func zeroed[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	s = s[:n]
	clear(s)
	return s
}
