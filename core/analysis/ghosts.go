package analysis

import (
	"errors"
	"fmt"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/internal/finite"
	"github.com/m1nd-go/m1nd/core/internal/freelist"
)

// GhostParams configures GhostEdges.
type GhostParams struct {
	// MinActivation: only nodes activated at least this much are paired.
	MinActivation float32
	// DimensionThreshold: a node "fires" in a dimension when its score
	// there is at least this.
	DimensionThreshold float32
	// MinSharedDimensions: a pair must fire together in at least this many
	// dimensions (1 … 4).
	MinSharedDimensions int
	// MaxCandidates bounds the nodes paired (the strongest; pairs grow
	// quadratically).
	MaxCandidates int
	// TopK bounds the ghost edges returned.
	TopK int
}

// DefaultGhostParams: the 64 strongest nodes activated ≥ 0.2, pairs that
// fire together (≥ 0.1) in at least two dimensions, top 10.
func DefaultGhostParams() GhostParams {
	return GhostParams{MinActivation: 0.2, DimensionThreshold: 0.1, MinSharedDimensions: 2, MaxCandidates: 64, TopK: 10}
}

func (p GhostParams) validate() error {
	for _, f := range []struct {
		name string
		v    float32
	}{{"min_activation", p.MinActivation}, {"dimension_threshold", p.DimensionThreshold}} {
		if !graph.IsFinite(f.v) || f.v < 0 || f.v > 1 {
			return fmt.Errorf("%s must be in [0, 1], got %v", f.name, f.v)
		}
	}
	if p.MinSharedDimensions < 1 || p.MinSharedDimensions > graph.NumDimensions {
		return fmt.Errorf("min_shared_dimensions must be in [1, %d], got %d", graph.NumDimensions, p.MinSharedDimensions)
	}
	if p.MaxCandidates < 2 || p.TopK < 1 {
		return errors.New("max_candidates must be ≥ 2 and top_k ≥ 1")
	}
	return nil
}

// GhostEdge is a probable connection the graph does not have: two nodes
// that were strongly co-activated, firing in the same dimensions, with no
// edge between them in either direction.
type GhostEdge struct {
	// Source is the more strongly activated of the two (NodeID on ties).
	Source graph.NodeID `json:"source"`
	Target graph.NodeID `json:"target"`
	// SharedDimensions are the dimensions both fired in, in dimension order.
	SharedDimensions []graph.Dimension `json:"-"`
	// DimensionNames are SharedDimensions by name ("structural",
	// "semantic", "temporal", "causal").
	DimensionNames []string `json:"shared_dimensions"`
	// Strength is Σ over shared dimensions of DimensionWeights[d] ·
	// min(score_a[d], score_b[d]), in [0, 1].
	Strength float32 `json:"strength"`
}

// GhostEdges pairs the strongest activated nodes that share dimensions but
// no edge. dims holds each node's per-dimension scores (clamped to [0, 1];
// nodes absent from it are not paired).
func GhostEdges(g *graph.Graph, activation []graph.Scored, dims map[graph.NodeID][graph.NumDimensions]float32, p GhostParams) ([]GhostEdge, error) {
	if err := checkGraph(g); err != nil {
		return nil, err
	}
	if err := p.validate(); err != nil {
		return nil, err
	}
	act, err := activationMap(g, activation)
	if err != nil {
		return nil, err
	}
	gs := ghostScratches.get()
	defer ghostScratches.put(gs)
	cands := gs.cands[:0]
	for n, v := range act {
		if _, ok := dims[n]; ok && v >= p.MinActivation {
			cands = append(cands, graph.Scored{Node: n, Score: v})
		}
	}
	gs.cands = cands
	cands = graph.SelectTop(cands, p.MaxCandidates)
	gs.rows = gs.rows[:0]
	for _, c := range cands {
		gs.rows = append(gs.rows, clampedRow(dims[c.Node]))
	}
	pairs := ghostPairs(g, cands, gs.rows, p, gs.pairs[:0])
	gs.pairs = pairs
	pairs = bestPairs(pairs, p.TopK)
	out := make([]GhostEdge, 0, len(pairs))
	for _, pr := range pairs {
		var shared []graph.Dimension
		var names []string
		for d := 0; d < graph.NumDimensions; d++ {
			if pr.mask&(1<<d) != 0 {
				shared = append(shared, graph.Dimension(d))
				names = append(names, graph.Dimension(d).String())
			}
		}
		out = append(out, GhostEdge{Source: pr.a, Target: pr.b, SharedDimensions: shared, DimensionNames: names, Strength: pr.strength})
	}
	return out, nil
}

// ghostPair is a scored pair with its shared dimensions as a bitmask: only
// the top_k survivors get their dimension lists built.
type ghostPair struct {
	a, b     graph.NodeID
	mask     uint8
	strength float32
}

// clampedRow is a node's dimension scores clamped to [0, 1].
func clampedRow(r [graph.NumDimensions]float32) [graph.NumDimensions]float32 {
	for d := range r {
		r[d] = finite.Clamp(r[d], 0, 1)
	}
	return r
}

// ghostPairs appends to pairs every pair of cands that fires together in
// enough dimensions and has no edge (no allocation beyond pairs' growth).
// rows[i] is cands[i]'s clamped dimension scores, read once per node
// rather than once per pair.
func ghostPairs(g *graph.Graph, cands []graph.Scored, rows [][graph.NumDimensions]float32, p GhostParams, pairs []ghostPair) []ghostPair {
	for i := range cands {
		a := cands[i].Node
		da := &rows[i]
		for j := i + 1; j < len(cands); j++ {
			b := cands[j].Node
			db := &rows[j]
			var mask uint8
			shared, strength := 0, float32(0)
			for d := 0; d < graph.NumDimensions; d++ {
				x, y := da[d], db[d]
				if x >= p.DimensionThreshold && y >= p.DimensionThreshold && min(x, y) > 0 {
					mask |= 1 << d
					shared++
					strength += graph.DimensionWeights[d] * min(x, y)
				}
			}
			if shared < p.MinSharedDimensions || g.Adjacent(a, b) {
				continue
			}
			pairs = append(pairs, ghostPair{a, b, mask, finite.Clamp(strength, 0, 1)})
		}
	}
	return pairs
}

// bestPairs moves the k best pairs (strongest first, then by a, then by
// b: a total order, pairs being distinct) to the front of pairs, in that
// order, and returns them. It replaces a sort of every pair (≈ 2,000 for
// 64 candidates, most of GhostEdges' time) when 10 are kept.
func bestPairs(pairs []ghostPair, k int) []ghostPair {
	n := 0
	for i := range pairs {
		pr := pairs[i]
		if n == k && !pairBefore(pr, pairs[k-1]) {
			continue
		}
		j := min(n, k-1) // the slot that frees up: the end, or the worst kept
		n = min(n+1, k)
		for ; j > 0 && pairBefore(pr, pairs[j-1]); j-- {
			pairs[j] = pairs[j-1]
		}
		pairs[j] = pr
	}
	return pairs[:n]
}

// pairBefore orders ghost pairs: stronger first, then by a, then by b.
func pairBefore(x, y ghostPair) bool {
	if x.strength != y.strength {
		return x.strength > y.strength
	}
	if x.a != y.a {
		return x.a < y.a
	}
	return x.b < y.b
}

// ghostScratch holds GhostEdges' candidate and pair buffers between calls
// (≈ 0.08 MB a go-std activate call, regrown every call before; issue 29).
type ghostScratch struct {
	cands []graph.Scored
	rows  [][graph.NumDimensions]float32 // cands' clamped dimension scores
	pairs []ghostPair
}

// ghostPool keeps ghost scratches in a free list that survives collections.
type ghostPool struct{ l freelist.List[*ghostScratch] }

// ghostKeepPairs bounds the pair buffer kept (1 MB): the default 64
// candidates make at most 2,016 pairs, and a call with far more candidates
// should not pin its buffer for good.
const ghostKeepPairs = 1 << 16

var ghostScratches ghostPool

func (gp *ghostPool) get() *ghostScratch {
	if gs, ok := gp.l.Get(); ok {
		return gs
	}
	return &ghostScratch{}
}

func (gp *ghostPool) put(gs *ghostScratch) {
	if cap(gs.pairs) > ghostKeepPairs || cap(gs.cands) > ghostKeepPairs || cap(gs.rows) > ghostKeepPairs {
		return
	}
	gp.l.Put(gs)
}
