package graph

import "math"

// MaybeLearned appends to dst, in edge order, every edge whose learning
// state may differ from what an ingest gives it: a weight whose bits differ
// from its original's, a non-zero strengthen or weaken count, or an LTP or
// LTD flag. It is a superset of the edges a learned-state export keeps (a
// weight of -0 against an original of +0 is listed, for the caller's exact
// test to drop); every edge it leaves out has learned nothing.
//
// Why it exists: every re-ingest (a daemon tick) carries the old graph's
// learned state onto the new one, and a per-edge scan through accessors
// through the accessors cost 15–23 ms a tick in the go-std tick profile
// (≈ 700 K edges, under GC load). This loop reads the six arrays directly
// with their bounds checks hoisted (BenchmarkExportState, 700 K edges:
// 5.9 → 3.6 ms at load 11); most graphs have learned on a handful of
// edges, so it returns few.
func (g *Graph) MaybeLearned(dst []EdgeIdx) []EdgeIdx {
	c := &g.csr
	w, p := c.weights, c.learning()
	n := len(w)
	if p.Strengthen == nil { // no counts or flags: only the weights
		orig := p.Original[:n]
		for i := range n {
			if w[i].Load() != math.Float32bits(orig[i]) {
				dst = append(dst, EdgeIdx(i))
			}
		}
		return dst
	}
	orig, st, wk := p.Original[:n], p.Strengthen[:n], p.Weaken[:n]
	ltp, ltd := p.LTP[:n], p.LTD[:n]
	for i := range n {
		// The weight is read atomically: learning may run beside the export.
		if w[i].Load() != math.Float32bits(orig[i]) || st[i]|wk[i] != 0 || ltp[i] || ltd[i] {
			dst = append(dst, EdgeIdx(i))
		}
	}
	return dst
}
