// Package activation is the engines' core arithmetic: structural spreading
// activation (D1: wavefront, heap and the hybrid selector), the causal
// chain search (D4), and the merge of the four dimensions into one
// ranking with resonance bonus and PageRank boost.
//
// Every function reads the graph only (weights through atomic loads) and
// keeps its state in a Workspace, so many queries may run at once on one
// finalized graph while plasticity rewrites weights.
package activation

import (
	"math"
	"slices"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/internal/finite"
)

// Engine names a structural propagation strategy.
type Engine uint8

// The two strategies.
const (
	WavefrontEngine Engine = iota
	HeapEngine
)

func (e Engine) String() string {
	if e == HeapEngine {
		return "heap"
	}
	return "wavefront"
}

func check(g *graph.Graph, p Params) error {
	if err := p.Validate(); err != nil {
		return err
	}
	if !g.Finalized() {
		return graph.ErrNotFinalized
	}
	return nil
}

// PreferHeap is the hybrid selector: the heap engine wins when fewer than
// HeapSeedRatio of the nodes are seeds and the average degree is below
// HeapMaxAvgDegree — a few seeds in a sparse graph touch little, and
// processing the strongest signal first lets it stop early. Otherwise the
// wavefront's depth-at-a-time sweep avoids heap overhead.
func PreferHeap(g *graph.Graph, numSeeds int, p Params) bool {
	ratio := float64(numSeeds) / float64(max(g.NumNodes(), 1))
	return ratio < p.HeapSeedRatio && g.AvgDegree() < p.HeapMaxAvgDegree
}

// Structural runs D1 with the engine PreferHeap selects and reports which
// one ran. See Wavefront for the result's form.
func Structural(g *graph.Graph, seeds []graph.Scored, p Params, ws *Workspace) ([]graph.Scored, Engine, error) {
	if PreferHeap(g, len(seeds), p) {
		r, err := Heap(g, seeds, p, ws)
		return r, HeapEngine, err
	}
	r, err := Wavefront(g, seeds, p, ws)
	return r, WavefrontEngine, err
}

// seed loads the seeds into the cells' act (capped at the saturation cap; invalid
// IDs and non-positive scores are skipped) and returns them deduplicated
// in first-seen order.
func (w *Workspace) seed(seeds []graph.Scored, p Params) []graph.NodeID {
	out := w.frontier[:0]
	for _, s := range seeds {
		if int(s.Node) >= w.n {
			continue
		}
		v := finite.Clamp(s.Score, 0, p.SaturationCap)
		if v <= 0 {
			continue
		}
		if w.c[s.Node].flags&flagFrontier == 0 {
			w.c[s.Node].flags |= flagFrontier
			out = append(out, s.Node)
		}
		if v > w.c[s.Node].act {
			w.c[s.Node].act = v
			w.touch(s.Node)
		}
	}
	for _, n := range out {
		w.c[n].flags &^= flagFrontier
	}
	return out
}

// Wavefront is the reference D1 engine. Depth by depth, every frontier
// node at or above Threshold fires: along each outgoing edge it sends
// activation·weight·Decay, and back along each incoming edge
// activation·weight·Decay·ReverseFactor (so a file's importers light up,
// as in docs/design.md#activation-pipeline's worked example). Arrivals
// below Threshold are dropped; the rest are capped at SaturationCap and
// scatter-maxed (the strongest arrival wins). An inhibitory edge instead
// subtracts signal·InhibitoryFactor from its target (floored at 0);
// inhibition flows only forward, because "A deprecates B" says nothing
// against A when B is the one asked about. A depth's arrivals are applied
// together — max first, then inhibition — so the result does not depend on
// the order in which sources fire. A node fires again at a later depth only
// if its activation rose.
//
// The result lists every node with positive activation, seeds included,
// in ascending NodeID order (rank it with graph.SelectTop). ws may be nil.
func Wavefront(g *graph.Graph, seeds []graph.Scored, p Params, ws *Workspace) ([]graph.Scored, error) {
	if err := check(g, p); err != nil {
		return nil, err
	}
	w := workspace(ws, g)
	w.frontier = w.seed(seeds, p)
	fired := 0
	for d := 0; d < p.MaxDepth && len(w.frontier) > 0 && fired < p.MaxFired; d++ {
		if fired+len(w.frontier) > p.MaxFired {
			w.frontier = w.strongest(w.frontier, p.MaxFired-fired)
		}
		if w.plain {
			// Fire in node order: the CSR's ranges and the cells are then
			// read front to back. Without inhibition the order moves no
			// answer (see strongest).
			slices.Sort(w.frontier)
		}
		for _, u := range w.frontier {
			if a := w.c[u].act; a >= p.Threshold {
				w.spread(g, u, a, &p)
				fired++
			}
		}
		w.next = w.next[:0]
		for _, t := range w.pending {
			old := w.c[t].act
			nv := max(old, w.c[t].aux)
			if w.c[t].inh > 0 {
				nv = max(0, nv-w.c[t].inh)
			}
			w.c[t].aux, w.c[t].inh = 0, 0
			w.c[t].flags &^= flagPending
			if nv != old {
				w.c[t].act = nv
				w.touch(t)
			}
			if nv > old && nv >= p.Threshold {
				w.next = append(w.next, t)
			}
		}
		w.pending = w.pending[:0]
		w.frontier, w.next = w.next, w.frontier
	}
	w.frontier = w.frontier[:0]
	return w.collect(), nil
}

// strongest keeps the k most activated nodes of list (ties by NodeID), in
// that order — or in any order when the graph has no inhibitory edge: the
// order in which a depth's nodes fire only matters to the sums of
// inhibition (every other arrival is a max), so it moves no answer then.
func (w *Workspace) strongest(list []graph.NodeID, k int) []graph.NodeID {
	cand := w.cand[:0]
	for _, n := range list {
		cand = append(cand, graph.Scored{Node: n, Score: w.c[n].act})
	}
	var top []graph.Scored
	if w.plain {
		top = graph.SelectTopUnordered(cand, k)
	} else {
		top = graph.SelectTop(cand, k)
	}
	list = list[:0]
	for _, t := range top {
		list = append(list, t.Node)
	}
	w.cand = cand[:0]
	return list
}

// fanout is the share of the signal each of k edges in one direction
// carries (see Params.FanoutLimit).
func fanout(k int, p *Params) float32 {
	if p.FanoutLimit <= 0 || k <= p.FanoutLimit {
		return 1
	}
	return float32(p.FanoutLimit) / float32(k)
}

// spread sends u's activation a along its edges into the current depth's
// arrival buffers.
func (w *Workspace) spread(g *graph.Graph, u graph.NodeID, a float32, p *Params) {
	lo, hi := g.OutRange(u)
	out := a * p.Decay * fanout(int(hi-lo), p)
	if w.plain {
		// No edge is inhibitory: skip reading each edge's attributes.
		for e := lo; e < hi; e++ {
			w.arrive(g.Target(e), out*g.Weight(e), p)
		}
	} else {
		for e := lo; e < hi; e++ {
			t := g.Target(e)
			s := out * g.Weight(e)
			if g.Inhibitory(e) {
				w.inhibit(t, s*p.InhibitoryFactor)
				continue
			}
			w.arrive(t, s, p)
		}
	}
	if p.ReverseFactor <= 0 {
		return
	}
	ilo, ihi := g.InRange(u)
	in := a * p.Decay * p.ReverseFactor * fanout(int(ihi-ilo), p)
	if in < p.Threshold/graph.WeightCap || in*g.InWeightBound(u) < p.Threshold {
		// No incoming edge can carry a signal above the threshold (weights
		// are at most graph.WeightCap, and at most u's bound): skip
		// scanning u's importers.
		return
	}
	if w.imp != nil {
		for _, im := range w.imp.Carriers(u) {
			w.arrive(im.Source, in*g.Weight(im.Edge), p)
		}
		return
	}
	for pos := ilo; pos < ihi; pos++ {
		e := g.InEdge(pos)
		// A bidirectional edge's other copy is one of u's outgoing edges.
		if g.Inhibitory(e) || g.EdgeDirection(e) == graph.Bidirectional {
			continue
		}
		w.arrive(g.InSource(pos), in*g.Weight(e), p)
	}
}

func (w *Workspace) markPending(t graph.NodeID) {
	if w.c[t].flags&flagPending == 0 {
		w.c[t].flags |= flagPending
		w.pending = append(w.pending, t)
	}
}

func (w *Workspace) arrive(t graph.NodeID, s float32, p *Params) {
	if !(s >= p.Threshold) { // also drops NaN
		return
	}
	s = min(s, p.SaturationCap)
	w.markPending(t)
	if s > w.c[t].aux {
		w.c[t].aux = s
	}
}

func (w *Workspace) inhibit(t graph.NodeID, s float32) {
	if !(s > 0) || math.IsInf(float64(s), 0) {
		return
	}
	w.markPending(t)
	w.c[t].inh += s
}

// heapEntry is a queued node: the activation it was queued with, its hop
// count, and (causal search) the direction of its chain.
type heapEntry struct {
	node  graph.NodeID
	act   float32
	depth uint8
	dir   uint8
}

func better(a, b heapEntry) bool {
	return a.act > b.act || (a.act == b.act && a.node < b.node)
}

func (w *Workspace) push(e heapEntry) {
	h := append(w.heap, e)
	i := len(h) - 1
	for i > 0 {
		parent := (i - 1) / 2
		if !better(h[i], h[parent]) {
			break
		}
		h[i], h[parent] = h[parent], h[i]
		i = parent
	}
	w.heap = h
}

func (w *Workspace) pop() heapEntry {
	h := w.heap
	top := h[0]
	last := len(h) - 1
	h[0] = h[last]
	h = h[:last]
	i := 0
	for {
		l := 2*i + 1
		if l >= len(h) {
			break
		}
		c := l
		if r := l + 1; r < len(h) && better(h[r], h[l]) {
			c = r
		}
		if !better(h[c], h[i]) {
			break
		}
		h[i], h[c] = h[c], h[i]
		i = c
	}
	w.heap = h
	return top
}

// Heap is the D1 engine for sparse queries: a max-heap processes the
// strongest activation first and stops as soon as the strongest queued
// signal is below Threshold. Each node expands at most once (a
// double-hashing Bloom filter remembers which did), with the activation it
// has when it reaches the top; stale queue entries are skipped. Signal
// rules are Wavefront's, except that inhibition applies the moment it
// arrives. When every hop attenuates (weight·Decay <= 1) and there is no
// inhibition, each node's result is at most Wavefront's, and equal on
// graphs where the strongest path to a node is also a shortest one.
//
// The result has Wavefront's form. ws may be nil.
func Heap(g *graph.Graph, seeds []graph.Scored, p Params, ws *Workspace) ([]graph.Scored, error) {
	if err := check(g, p); err != nil {
		return nil, err
	}
	w := workspace(ws, g)
	n := g.NumNodes()
	// Size the visited set for the neighbourhood a query can reach, not
	// the graph: seeds × (1 + 2·avg degree)³ (three hops carry most of the
	// signal at decay 0.55), bounded by the graph.
	fan := 1 + math.Ceil(2*g.AvgDegree())
	expected := min(float64(n), max(4096, float64(len(seeds))*fan*fan*fan))
	w.bloom.Reset(int(expected), p.BloomFPR)
	for _, s := range w.seed(seeds, p) {
		w.push(heapEntry{node: s, act: w.c[s].act})
	}
	for pops := 0; len(w.heap) > 0 && pops < p.MaxFired; {
		e := w.pop()
		if e.act < p.Threshold {
			break // everything still queued is weaker
		}
		u := e.node
		if e.act < w.c[u].act || w.bloom.MayContain(u) {
			continue
		}
		w.bloom.Add(u)
		pops++
		if int(e.depth) >= p.MaxDepth {
			continue
		}
		a := w.c[u].act
		d := e.depth + 1
		lo, hi := g.OutRange(u)
		out := a * p.Decay * fanout(int(hi-lo), &p)
		for ed := lo; ed < hi; ed++ {
			t := g.Target(ed)
			s := out * g.Weight(ed)
			if g.Inhibitory(ed) {
				if s *= p.InhibitoryFactor; s > 0 && w.c[t].act > 0 {
					w.c[t].act = max(0, w.c[t].act-s)
				}
				continue
			}
			w.heapArrive(t, s, d, &p)
		}
		if p.ReverseFactor <= 0 {
			continue
		}
		ilo, ihi := g.InRange(u)
		in := a * p.Decay * p.ReverseFactor * fanout(int(ihi-ilo), &p)
		if in < p.Threshold/graph.WeightCap || in*g.InWeightBound(u) < p.Threshold {
			continue
		}
		if w.imp != nil {
			for _, im := range w.imp.Carriers(u) {
				w.heapArrive(im.Source, in*g.Weight(im.Edge), d, &p)
			}
			continue
		}
		for pos := ilo; pos < ihi; pos++ {
			ed := g.InEdge(pos)
			if g.Inhibitory(ed) || g.EdgeDirection(ed) == graph.Bidirectional {
				continue
			}
			w.heapArrive(g.InSource(pos), in*g.Weight(ed), d, &p)
		}
	}
	w.heap = w.heap[:0]
	return w.collect(), nil
}

func (w *Workspace) heapArrive(t graph.NodeID, s float32, depth uint8, p *Params) {
	if !(s >= p.Threshold) {
		return
	}
	s = min(s, p.SaturationCap)
	if s > w.c[t].act {
		w.c[t].act = s
		w.touch(t)
		w.push(heapEntry{node: t, act: s, depth: depth})
	}
}
