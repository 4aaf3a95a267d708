package graph

import "sync"

// spliceScratch is the per-node working memory of a splice that does not
// outlive it: the warm PageRank's vectors, the layout's old-ID list and
// range marks, the CSR splicer's per-source marks. A daemon tick splices
// a graph of the same size again and again; pooled, these ≈ 36 bytes a
// node are not allocated (and collected) anew each time. Nothing a splice
// returns or keeps may alias them.
//
// One scratch is kept, the last one given back, in a slot rather than a
// sync.Pool, whose items a collection may drop (two collections a tick
// are common under the server's memory limit). The slot holds it between
// ticks: ≈ 4 MB of live heap on go-std, without pointers, so nothing for
// the collector to mark. New arrays get room to grow (zeroed): without
// it every tick that added a node outgrew them and allocated them again.
type spliceScratch struct {
	init, next, share    []float64
	from                 []NodeID
	inRange, shaky, mark []bool
	care                 []uint8
	shift                []int32
	skip                 []uint32
}

var scratchSlot struct {
	mu sync.Mutex
	sc *spliceScratch
}

// scratchFresh makes every splice take new scratch: a variable only so
// that a test can compare pooled splices with unpooled ones.
var scratchFresh = false

func getScratch() *spliceScratch {
	if scratchFresh {
		return new(spliceScratch)
	}
	scratchSlot.mu.Lock()
	defer scratchSlot.mu.Unlock()
	sc := scratchSlot.sc
	scratchSlot.sc = nil
	if sc == nil {
		sc = new(spliceScratch)
	}
	return sc
}

// putScratch gives sc back; of two, the slot keeps the larger.
func putScratch(sc *spliceScratch) {
	scratchSlot.mu.Lock()
	defer scratchSlot.mu.Unlock()
	if old := scratchSlot.sc; old == nil || cap(old.init) <= cap(sc.init) {
		scratchSlot.sc = sc
	}
}

// zeroed returns s resized to n entries, all zero, reusing its memory
// when it is large enough. A new one has room to grow: a tick that adds
// a function to a file splices a graph one node larger than the last.
func zeroed[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n, withRoom(n))
	}
	s = s[:n]
	clear(s)
	return s
}

// withRoom is the capacity given for n entries: an eighth more.
func withRoom(n int) int { return n + n/8 + 64 }
