package analysis

import (
	"container/heap"
	"errors"
	"fmt"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/internal/finite"
)

// WhyParams configures Why.
type WhyParams struct {
	// Direction of the edges a path may use; Both (the default) lets a
	// path go against an edge ("imported_by"), marked in Chain.Reversed.
	Direction Direction
	// HopDecay multiplies a path's strength per hop, so that of two
	// equally strong explanations the shorter comes first (0.9).
	HopDecay float32
	// MaxHops bounds path length (default 6; 1 … 20).
	MaxHops int
	// TopK bounds the paths returned (5).
	TopK int
	// ExpansionBudget caps the partial paths expanded; MaxStates the
	// partial paths held.
	ExpansionBudget int
	MaxStates       int
	// InhibitoryFactor multiplies the strength of an inhibitory hop.
	InhibitoryFactor float32
}

// DefaultWhyParams: both directions, 6 hops, top 5.
func DefaultWhyParams() WhyParams {
	return WhyParams{Direction: Both, HopDecay: 0.9, MaxHops: 6, TopK: 5, ExpansionBudget: 100_000, MaxStates: 1_000_000, InhibitoryFactor: 0.5}
}

func (p WhyParams) validate() error {
	if !p.Direction.valid() {
		return fmt.Errorf("invalid direction %v", p.Direction)
	}
	if p.MaxHops < 1 || p.MaxHops > 20 {
		return fmt.Errorf("max_hops must be in [1, 20], got %d", p.MaxHops)
	}
	if p.TopK < 1 || p.ExpansionBudget < 1 || p.MaxStates < 1 {
		return errors.New("top_k, expansion_budget and max_states must be ≥ 1")
	}
	if !graph.IsFinite(p.InhibitoryFactor) || p.InhibitoryFactor < 0 || p.InhibitoryFactor > 1 {
		return fmt.Errorf("inhibitory_factor must be in [0, 1], got %v", p.InhibitoryFactor)
	}
	if _, err := finite.UnitInterval("hop_decay", p.HopDecay); err != nil {
		return err
	}
	return nil
}

// Hop factors of Why: how much a hop of each kind explains.
const (
	// whyInner: between a file and its entities, a class and its methods
	// (moving inside one file explains nearly nothing away).
	whyInner = 0.8
	// whySibling: through a directory, package or workspace — "same
	// directory" is a weak reason.
	whySibling = 0.15
	// whyAssociation: co-change, similarity and other derived links.
	whyAssociation = 0.35
	// whyTurn: a path that depends on something and then goes back to
	// something else depending on it ("both import X") shares a
	// neighbour; it is not a dependency between the two ends.
	whyTurn = 0.3
	// whyTypeOnly: an import only the type checker reads (TypeImports)
	// explains how the code is checked, not how it runs: a runtime chain
	// of up to four hops comes before one such hop.
	whyTypeOnly = 0.5
)

// WhyResult lists the strongest paths from Source to Target.
type WhyResult struct {
	Source graph.NodeID `json:"source"`
	Target graph.NodeID `json:"target"`
	// Paths: the direct dependency edge between Source and Target first,
	// if there is one (forward before reversed, not a type-only import),
	// whatever its strength; then the others by cumulative strength
	// (descending), then hops, then discovery order. Chain.Nodes starts
	// at Source and ends at Target.
	Paths           []Chain `json:"paths"`
	TotalPathsFound int     `json:"total_paths_found"`
	// Truncated is true when a budget stopped the search before TopK paths
	// were found (weaker paths may exist).
	Truncated  bool `json:"truncated,omitempty"`
	Expansions int  `json:"expansions"`
}

// whyState is a partial path in the search arena.
type whyState struct {
	node     graph.NodeID
	parent   int32
	edge     graph.EdgeIdx
	rev      bool
	hops     uint8
	orient   orientation
	strength float32
}

// orientation is which way a path's dependency hops have gone so far.
type orientation uint8

const (
	orientNone orientation = iota
	orientDepends
	orientDependedOn
)

type whyHeap struct {
	idx    []int32
	states *[]whyState
}

func (h whyHeap) Len() int { return len(h.idx) }
func (h whyHeap) Less(i, j int) bool {
	a, b := &(*h.states)[h.idx[i]], &(*h.states)[h.idx[j]]
	if a.strength != b.strength {
		return a.strength > b.strength
	}
	if a.hops != b.hops {
		return a.hops < b.hops
	}
	return h.idx[i] < h.idx[j] // discovery order
}
func (h whyHeap) Swap(i, j int) { h.idx[i], h.idx[j] = h.idx[j], h.idx[i] }
func (h *whyHeap) Push(x any)   { h.idx = append(h.idx, x.(int32)) }
func (h *whyHeap) Pop() any {
	x := h.idx[len(h.idx)-1]
	h.idx = h.idx[:len(h.idx)-1]
	return x
}

// Why finds the most informative simple paths of at most MaxHops hops
// from source to target. A path's strength is the product over its hops
// of HopDecay × what the hop explains: a dependency edge its relation's
// strength × its structural weight (ingest's, not learned); a hop inside
// a file 0.8; a hop through a directory or package 0.15; a derived link
// (co-change) 0.35 × weight; an import only a type checker reads
// (TypeImports) × 0.5 more; inhibitory edges × InhibitoryFactor. A path
// whose dependency hops turn around (A imports X, X imported by B) is a
// shared neighbour, not a dependency: × 0.3. So real dependency chains
// come before "same directory" and "both import X". Between two adjacent
// nodes only the strongest edge is used. The search is best-first over
// partial paths, so paths come out strongest first and the TopK found are
// the TopK that exist (unless Truncated); a hop-distance bound from the
// target prunes partial paths that cannot arrive in time. A direct
// runtime dependency between the two comes first whatever its strength
// (directHop).
func Why(g *graph.Graph, source, target graph.NodeID, p WhyParams) (WhyResult, error) {
	res := WhyResult{Source: source, Target: target}
	if err := checkGraph(g); err != nil {
		return res, err
	}
	if err := p.validate(); err != nil {
		return res, err
	}
	for _, n := range []graph.NodeID{source, target} {
		if !g.Valid(n) {
			return res, fmt.Errorf("analysis: node %d out of range (graph has %d nodes)", n, g.NumNodes())
		}
	}
	if source == target {
		res.Paths = []Chain{{Nodes: []graph.NodeID{source}, CumulativeStrength: 1}}
		res.TotalPathsFound = 1
		return res, nil
	}
	// Hop distance to the target, walking the allowed edges backwards.
	back := map[Direction]Direction{Forward: Reverse, Reverse: Forward, Both: Both}[p.Direction]
	const unknown = 255
	dist := make([]uint8, g.NumNodes())
	for i := range dist {
		dist[i] = unknown
	}
	dist[target] = 0
	frontier := []graph.NodeID{target}
	for d := 1; d <= p.MaxHops && len(frontier) > 0; d++ {
		var next []graph.NodeID
		for _, u := range frontier {
			edgesOf(g, u, back, func(v graph.NodeID, _ graph.EdgeIdx, _ bool) bool {
				if dist[v] == unknown {
					dist[v] = uint8(d)
					next = append(next, v)
				}
				return true
			})
		}
		frontier = next
	}
	if dist[source] == unknown {
		return res, nil
	}

	rels := newRelTable(g)
	typeOnly := typeOnlyRelations(g)
	factor := func(e graph.EdgeIdx, rev bool, from orientation) (float32, orientation) {
		ri := rels.of(e)
		f, o := p.HopDecay, from
		switch ri.kind {
		case Declares:
			f *= whyInner
		case Contains:
			if isContainer(g, g.Source(e)) {
				f *= whySibling
			} else {
				f *= whyInner
			}
		case Association:
			f *= whyAssociation * structuralWeight(g, e)
		default:
			f *= ri.strength * structuralWeight(g, e)
			if typeOnly(g.Relation(e)) {
				f *= whyTypeOnly
			}
			o = orientDepends
			if (ri.kind == DependedOnBy) != rev {
				o = orientDependedOn
			}
			if from != orientNone && o != from {
				f *= whyTurn
			}
		}
		if g.Inhibitory(e) {
			f *= p.InhibitoryFactor
		}
		return f, o
	}
	states := []whyState{{node: source, parent: -1, strength: 1}}
	direct, hasDirect := directHop(g, source, target, p.Direction, rels, factor)
	if hasDirect {
		states = append(states, direct)
		res.Paths = append(res.Paths, pathOf(g, states, 1))
		if len(res.Paths) == p.TopK {
			res.TotalPathsFound = 1
			return res, nil
		}
	}
	h := &whyHeap{idx: []int32{0}, states: &states}
	type cand struct {
		v   graph.NodeID
		f   float32
		e   graph.EdgeIdx
		rev bool
		o   orientation
	}
	// Per-expansion dedupe of neighbours: slot[v] indexes cands while
	// stamp[v] == the expansion number.
	stamp := make([]uint32, g.NumNodes())
	slot := make([]int32, g.NumNodes())
	var cands []cand
	onPath := func(si int32, v graph.NodeID) bool {
		for ; si >= 0; si = states[si].parent {
			if states[si].node == v {
				return true
			}
		}
		return false
	}
	for h.Len() > 0 {
		if res.Expansions >= p.ExpansionBudget {
			res.Truncated = true
			break
		}
		si := heap.Pop(h).(int32)
		res.Expansions++
		st := states[si]
		if st.node == target {
			res.Paths = append(res.Paths, pathOf(g, states, si))
			if len(res.Paths) == p.TopK {
				break
			}
			continue
		}
		if int(st.hops) >= p.MaxHops {
			continue
		}
		cands = cands[:0]
		exp := uint32(res.Expansions)
		edgesOf(g, st.node, p.Direction, func(v graph.NodeID, e graph.EdgeIdx, rev bool) bool {
			d := dist[v]
			if d == unknown || int(st.hops)+1+int(d) > p.MaxHops {
				return true
			}
			f, o := factor(e, rev, st.orient)
			if f <= 0 {
				return true
			}
			if stamp[v] != exp {
				stamp[v] = exp
				slot[v] = int32(len(cands))
				cands = append(cands, cand{v, f, e, rev, o})
			} else if c := &cands[slot[v]]; f > c.f {
				c.f, c.e, c.rev, c.o = f, e, rev, o
			}
			return true
		})
		for _, c := range cands {
			if onPath(si, c.v) || (hasDirect && si == 0 && c.v == target) {
				continue // the direct hop is listed already
			}
			if len(states) >= p.MaxStates {
				res.Truncated = true
				break
			}
			states = append(states, whyState{node: c.v, parent: si, edge: c.e, rev: c.rev, hops: st.hops + 1, orient: c.o, strength: st.strength * c.f})
			heap.Push(h, int32(len(states)-1))
		}
	}
	res.TotalPathsFound = len(res.Paths)
	return res, nil
}

// directHop is the one-hop path from source to target, if a runtime
// dependency edge joins them in direction d: the strongest forward edge,
// else the strongest reversed one. Why lists it first whatever its
// strength: a direct call is the answer to "why are these connected",
// even when ingest weighed it down (an ambiguous resolution has weight
// 0.5, so "same file" or a cycle read backwards — B calls C, C references
// A, for A calls B — scored higher). Containment and derived links are no
// dependency, and a type-only import yields to a runtime chain
// (whyTypeOnly): those keep their rank by strength.
func directHop(g *graph.Graph, source, target graph.NodeID, d Direction, rels *relTable, factor func(graph.EdgeIdx, bool, orientation) (float32, orientation)) (whyState, bool) {
	best, found := whyState{}, false
	edgesOf(g, source, d, func(v graph.NodeID, e graph.EdgeIdx, rev bool) bool {
		if k := rels.of(e).kind; v != target || (k != DependsOn && k != DependedOnBy) || IsTypeOnly(g.RelationName(e)) {
			return true
		}
		f, o := factor(e, rev, orientNone)
		if f <= 0 {
			return true
		}
		better := !found || (best.rev && !rev) || (best.rev == rev && f > best.strength)
		if better {
			best, found = whyState{node: target, parent: 0, edge: e, rev: rev, hops: 1, orient: o, strength: f}, true
		}
		return true
	})
	return best, found
}

// typeOnlyRelations returns a test for the relation handles IsTypeOnly
// accepts, memoised per call.
func typeOnlyRelations(g *graph.Graph) func(graph.Str) bool {
	memo := map[graph.Str]bool{}
	return func(s graph.Str) bool {
		v, ok := memo[s]
		if !ok {
			v = IsTypeOnly(g.Strings().String(s))
			memo[s] = v
		}
		return v
	}
}

func pathOf(g *graph.Graph, states []whyState, si int32) Chain {
	var idx []int32
	for ; si >= 0; si = states[si].parent {
		idx = append(idx, si)
	}
	c := Chain{}
	for i := len(idx) - 1; i >= 0; i-- {
		st := states[idx[i]]
		c.Nodes = append(c.Nodes, st.node)
		if st.parent >= 0 {
			c.Relations = append(c.Relations, g.RelationName(st.edge))
			c.Reversed = append(c.Reversed, st.rev)
		}
	}
	c.CumulativeStrength = graph.Finite(states[idx[0]].strength)
	return c
}

// edgesOf calls f for each stored edge at u in direction d: outgoing ones
// as (target, edge, false), incoming ones as (source, edge, true). Mirror
// entries of bidirectional edges are skipped: the stored edge, walked
// against its direction, already covers them and reads right.
func edgesOf(g *graph.Graph, u graph.NodeID, d Direction, f func(v graph.NodeID, e graph.EdgeIdx, reversed bool) bool) bool {
	if d != Reverse {
		lo, hi := g.OutRange(u)
		for e := lo; e < hi; e++ {
			if !g.IsMirror(e) && !f(g.Target(e), e, false) {
				return false
			}
		}
	}
	if d != Forward {
		lo, hi := g.InRange(u)
		for pos := lo; pos < hi; pos++ {
			if e := g.InEdge(pos); !g.IsMirror(e) && !f(g.InSource(pos), e, true) {
				return false
			}
		}
	}
	return true
}
