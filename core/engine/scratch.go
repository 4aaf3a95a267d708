package engine

import (
	"sync"

	"github.com/m1nd-go/m1nd/core/graph"
)

// runScratch is a query's candidate lists and maps from D3 and merge to the
// top-k cut, which no answer keeps: taken from scratchPool by Activate
// and given back when it returns. Why: made fresh they were ≈ 13 KB of
// every go-std activate's garbage, and each byte brings the next mark of
// a server's ≈ 300 MB live heap closer (activate-speed17.md).
type runScratch struct {
	nodes    []Node
	at       map[graph.NodeID]int
	feedback map[graph.NodeID]float32
	keep     []graph.NodeID
	rest     []float32
	cand     []graph.Scored // XLR's candidates
	rank     []graph.Scored // selectTop
	all      []graph.Scored // the analyses' activation
	act      []graph.Scored // learning's activation (beside selectTop)
	dimMap   map[graph.NodeID][graph.NumDimensions]float32
	temporal []graph.Scored // D3's result, read by merge
}

var scratchPool = sync.Pool{New: func() any {
	return &runScratch{
		at:       map[graph.NodeID]int{},
		feedback: map[graph.NodeID]float32{},
		dimMap:   map[graph.NodeID][graph.NumDimensions]float32{},
	}
}}

// maxPooledNodes keeps a rare huge query's lists out of the pool.
const maxPooledNodes = 1 << 15

// putScratch empties sc and gives it back, unless a huge query grew it.
func putScratch(sc *runScratch) {
	if cap(sc.nodes) > maxPooledNodes || len(sc.at) > maxPooledNodes {
		return
	}
	clear(sc.at)
	clear(sc.feedback)
	clear(sc.dimMap)
	*sc = runScratch{
		nodes: sc.nodes[:0], at: sc.at, feedback: sc.feedback, keep: sc.keep[:0],
		rest: sc.rest[:0], cand: sc.cand[:0], rank: sc.rank[:0], all: sc.all[:0],
		act: sc.act[:0], dimMap: sc.dimMap, temporal: sc.temporal[:0],
	}
	scratchPool.Put(sc)
}

// sized returns buf with length n, reusing its array when it is large
// enough.
func sized[T any](buf []T, n int) []T {
	if cap(buf) < n {
		return make([]T, n)
	}
	return buf[:n]
}
