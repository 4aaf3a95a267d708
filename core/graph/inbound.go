package graph

import (
	"math"
	"sync/atomic"
)

// inBound is, per node, an upper bound of its incoming edges' weights:
// the largest weight any of them had when it was filled, raised by every
// weight write since. A weight lowered leaves the bound where it was, so
// it stays an upper bound, never the maximum itself.
//
// Why it exists: D1's reverse spread scans a node's importers and loads
// each one's weight (a cache miss apiece) to find that most carry too
// little: on go-std, 45 % of the entries scanned were in lists where none
// passed the threshold. One load of the bound skips such a list.
type inBound struct {
	max []atomicU32 // float32 bits
	// ready is set once every node's bound was filled; until then a
	// reader gets WeightCap (the bounds may still be too low).
	ready atomic.Bool
}

// TrackInWeightBound starts keeping, for each node, an upper bound of its
// incoming edges' weights (InWeightBound); every weight write from then on
// raises it. It reads every edge once; a second call does nothing. Safe
// beside readers and weight writers; g must be finalized.
func (g *Graph) TrackInWeightBound() {
	b := &inBound{max: make([]atomicU32, g.NumNodes())}
	if !g.inBound.CompareAndSwap(nil, b) {
		return
	}
	// Published before the weights are read: a write that does not see
	// b stored its weight before, and the loop below reads it.
	c := &g.csr
	local := make([]float32, len(b.max)) // from 0: a bound is never below it
	for e, t := range c.targets {
		local[t] = max(local[t], math.Float32frombits(c.weights[e].Load()))
	}
	for n, v := range local {
		b.raise(NodeID(n), v)
	}
	b.ready.Store(true)
}

// InWeightBound returns an upper bound of node n's incoming edges'
// weights (never below 0), or WeightCap when the graph keeps
// none (TrackInWeightBound not called, or not finished).
func (g *Graph) InWeightBound(n NodeID) float32 {
	b := g.inBound.Load()
	if b == nil || !b.ready.Load() {
		return WeightCap
	}
	return math.Float32frombits(b.max[n].Load())
}

// raiseInBound lifts the bound of edge e's target to w, if kept.
func (g *Graph) raiseInBound(e EdgeIdx, w float32) {
	if b := g.inBound.Load(); b != nil {
		b.raise(g.csr.targets[e], w)
	}
}

// raise lifts n's bound to w if w is larger. Every writer only raises,
// so a failed swap means another raised it: the loop ends.
func (b *inBound) raise(n NodeID, w float32) {
	slot := &b.max[n]
	for {
		ob := slot.Load()
		if math.Float32frombits(ob) >= w || slot.CompareAndSwap(ob, math.Float32bits(w)) {
			return
		}
	}
}
