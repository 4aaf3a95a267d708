package activation

import (
	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/internal/finite"
)

const (
	dirSeed uint8 = iota
	dirForward
	dirBackward
)

// Causal is the D4 dimension: a budgeted best-first search along edges
// with causal_strength > 0. From each seed, chains run forward (toward
// effects: a hop multiplies the chain's strength by the edge's
// causal_strength) and backward (toward causes: causal_strength ×
// BackwardDiscount per hop). A chain keeps one direction — a cause's other
// effects are siblings, not links of a chain — and stops at MaxDepth hops
// or below Threshold. The strongest chains are expanded first, at most
// Budget nodes per query, so a dense causal core cannot run away.
//
// Edge weights (which plasticity changes) play no part: D4 measures the
// causal structure itself, and keeping it independent of D1 is what makes
// agreement between the two dimensions meaningful.
//
// A node's score is its strongest chain in either direction. A seed scores
// its relevance when it has at least one causal edge; a seed outside the
// causal subgraph is not part of D4. The result is in ascending NodeID
// order. ws may be nil.
func Causal(g *graph.Graph, seeds []graph.Scored, p CausalParams, ws *Workspace) ([]graph.Scored, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if !g.Finalized() {
		return nil, graph.ErrNotFinalized
	}
	w := workspace(ws, g)
	for _, s := range seeds {
		if int(s.Node) >= w.n || !hasCausalEdge(g, s.Node) {
			continue
		}
		v := finite.Clamp(s.Score, 0, 1)
		if v <= 0 || v <= w.c[s.Node].act {
			continue
		}
		w.c[s.Node].act, w.c[s.Node].aux = v, v
		w.touch(s.Node)
		w.push(heapEntry{node: s.Node, act: v, dir: dirSeed})
	}
	for pops := 0; len(w.heap) > 0 && pops < p.Budget; {
		e := w.pop()
		if e.act < p.Threshold {
			break
		}
		u := e.node
		switch e.dir {
		case dirSeed, dirForward:
			if e.dir == dirForward && (e.act < w.c[u].act || w.c[u].flags&flagSettledFwd != 0) {
				continue
			}
		case dirBackward:
			if e.act < w.c[u].aux || w.c[u].flags&flagSettledBwd != 0 {
				continue
			}
		}
		if e.dir != dirBackward {
			w.c[u].flags |= flagSettledFwd
		}
		if e.dir != dirForward {
			w.c[u].flags |= flagSettledBwd
		}
		pops++
		if int(e.depth) >= p.MaxDepth {
			continue
		}
		d := e.depth + 1
		if e.dir != dirBackward {
			lo, hi := g.OutRange(u)
			for ed := lo; ed < hi; ed++ {
				cs := g.CausalStrength(ed)
				if !(cs > 0) {
					continue
				}
				t := g.Target(ed)
				if v := e.act * min(cs, 1); v >= p.Threshold && v > w.c[t].act {
					w.c[t].act = v
					w.touch(t)
					w.push(heapEntry{node: t, act: v, depth: d, dir: dirForward})
				}
			}
		}
		if e.dir != dirForward {
			ilo, ihi := g.InRange(u)
			for pos := ilo; pos < ihi; pos++ {
				cs := g.CausalStrength(g.InEdge(pos))
				if !(cs > 0) {
					continue
				}
				s := g.InSource(pos)
				if v := e.act * min(cs, 1) * p.BackwardDiscount; v >= p.Threshold && v > w.c[s].aux {
					w.c[s].aux = v
					w.touch(s)
					w.push(heapEntry{node: s, act: v, depth: d, dir: dirBackward})
				}
			}
		}
	}
	w.heap = w.heap[:0]
	// A node's score is its best chain either way.
	for _, n := range w.touched {
		w.c[n].act = max(w.c[n].act, w.c[n].aux)
	}
	return w.collect(), nil
}

func hasCausalEdge(g *graph.Graph, n graph.NodeID) bool {
	lo, hi := g.OutRange(n)
	for e := lo; e < hi; e++ {
		if g.CausalStrength(e) > 0 {
			return true
		}
	}
	ilo, ihi := g.InRange(n)
	for p := ilo; p < ihi; p++ {
		if g.CausalStrength(g.InEdge(p)) > 0 {
			return true
		}
	}
	return false
}
