// Package analysis holds the graph analyses that explain an activation or
// a node: structural holes (the missing tool), ghost edges, impact (blast
// radius) and why (paths between two nodes).
//
// Inputs are plain graph.Scored activations (and, for ghost edges,
// per-dimension scores), so this package does not depend on the activation
// engine. Every analysis is deterministic (ties by NodeID) and budgeted.
package analysis

import (
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/m1nd-go/m1nd/core/graph"
)

// HoleParams configures StructuralHoles.
type HoleParams struct {
	// MinSiblingActivation: neighbours count as activated above it (the
	// missing tool's min_sibling_activation, default 0.3). [0, 1).
	MinSiblingActivation float32
	// InactiveBelow: a node is inactive at or below it (0.01). [0, 1).
	InactiveBelow float32
	// MinNeighbors is the number of activated neighbours that make a hole
	// (2). ≥ 1.
	MinNeighbors int
	// TopK bounds the holes returned (10); Total still counts them all.
	TopK int
	// EdgeBudget caps the adjacency entries scanned.
	EdgeBudget int
	// MaxListedNeighbors bounds Hole.Neighbors (8).
	MaxListedNeighbors int
}

// DefaultHoleParams returns the spec's defaults.
func DefaultHoleParams() HoleParams {
	return HoleParams{MinSiblingActivation: 0.3, InactiveBelow: 0.01, MinNeighbors: 2, TopK: 10, EdgeBudget: 4_000_000, MaxListedNeighbors: 8}
}

func (p HoleParams) validate() error {
	if !graph.IsFinite(p.MinSiblingActivation) || p.MinSiblingActivation < 0 || p.MinSiblingActivation >= 1 {
		return fmt.Errorf("min_sibling_activation must be in [0, 1), got %v", p.MinSiblingActivation)
	}
	if !graph.IsFinite(p.InactiveBelow) || p.InactiveBelow < 0 || p.InactiveBelow >= 1 {
		return fmt.Errorf("inactive_below must be in [0, 1), got %v", p.InactiveBelow)
	}
	if p.MinNeighbors < 1 || p.TopK < 1 || p.EdgeBudget < 1 || p.MaxListedNeighbors < 0 {
		return errors.New("min_neighbors, top_k and edge_budget must be ≥ 1, max_listed_neighbors ≥ 0")
	}
	return nil
}

// Hole is a node surrounded by activated neighbours but not activated
// itself.
type Hole struct {
	Node               graph.NodeID `json:"node"`
	ActivatedNeighbors int          `json:"activated_neighbors"`
	// SiblingAvgActivation is the mean activation of those neighbours.
	SiblingAvgActivation float32 `json:"sibling_avg_activation"`
	// Neighbors are the activated neighbours, strongest first (at most
	// MaxListedNeighbors).
	Neighbors []graph.NodeID `json:"neighbors"`
	Reason    string         `json:"reason"`
}

// HolesResult is the ranked holes.
type HolesResult struct {
	Holes []Hole `json:"holes"`
	// Total is the number of holes found before TopK.
	Total int `json:"total_holes"`
	// Truncated is true when EdgeBudget stopped the scan.
	Truncated bool `json:"truncated,omitempty"`
}

func checkGraph(g *graph.Graph) error {
	if g == nil {
		return errors.New("analysis: nil graph")
	}
	if !g.Finalized() {
		return graph.ErrNotFinalized
	}
	return nil
}

// activationMap turns a result list into node → activation (largest
// finite score wins, clamped to [0, 1]).
func activationMap(g *graph.Graph, act []graph.Scored) (map[graph.NodeID]float32, error) {
	m := make(map[graph.NodeID]float32, len(act))
	for _, s := range act {
		if !g.Valid(s.Node) {
			return nil, fmt.Errorf("analysis: node %d out of range (graph has %d nodes)", s.Node, g.NumNodes())
		}
		v := graph.Clamp(s.Score, 0, 1)
		if v > m[s.Node] {
			m[s.Node] = v
		}
	}
	return m, nil
}

type holeScratch struct {
	act        []float32
	count      []int32
	sum        []float64
	last       []graph.NodeID // source that last counted the node, +1 (0: none)
	actTouched []graph.NodeID
	touched    []graph.NodeID
}

var holePool = sync.Pool{New: func() any { return &holeScratch{} }}

func (s *holeScratch) reset(n int) {
	if len(s.act) < n {
		s.act = make([]float32, n)
		s.count = make([]int32, n)
		s.sum = make([]float64, n)
		s.last = make([]graph.NodeID, n)
	}
}

func (s *holeScratch) release() {
	for _, v := range s.actTouched {
		s.act[v] = 0
	}
	for _, v := range s.touched {
		s.count[v], s.sum[v], s.last[v] = 0, 0, 0
	}
	s.actTouched, s.touched = s.actTouched[:0], s.touched[:0]
}

// StructuralHoles finds nodes with at least MinNeighbors distinct
// neighbours (over forward and reverse edges) activated above
// MinSiblingActivation while the node itself is inactive, sorted by the
// neighbours' average activation (then their number, then NodeID).
func StructuralHoles(g *graph.Graph, activation []graph.Scored, p HoleParams) (HolesResult, error) {
	var res HolesResult
	if err := checkGraph(g); err != nil {
		return res, err
	}
	if err := p.validate(); err != nil {
		return res, err
	}
	for _, a := range activation {
		if !g.Valid(a.Node) {
			return res, fmt.Errorf("analysis: node %d out of range (graph has %d nodes)", a.Node, g.NumNodes())
		}
	}
	s := holePool.Get().(*holeScratch)
	defer holePool.Put(s)
	s.reset(g.NumNodes())
	defer s.release()
	// Dense activation (largest finite score wins, clamped to [0, 1]).
	var sources []graph.NodeID
	for _, a := range activation {
		v := graph.Clamp(a.Score, 0, 1)
		if s.act[a.Node] == 0 && v > 0 {
			s.actTouched = append(s.actTouched, a.Node)
		}
		s.act[a.Node] = max(s.act[a.Node], v)
	}
	for _, u := range s.actTouched {
		if s.act[u] > p.MinSiblingActivation {
			sources = append(sources, u)
		}
	}
	// Activated nodes in NodeID order, so the scan (and any truncation) is
	// deterministic.
	slices.Sort(sources)
	scanned := 0
	for _, u := range sources {
		a := s.act[u]
		visit := func(v graph.NodeID) {
			if v == u || s.act[v] > p.InactiveBelow || s.last[v] == u+1 {
				return // multi-edges count once per source
			}
			if s.last[v] == 0 {
				s.touched = append(s.touched, v)
			}
			s.last[v] = u + 1
			s.count[v]++
			s.sum[v] += float64(a)
		}
		lo, hi := g.OutRange(u)
		ilo, ihi := g.InRange(u)
		if scanned += int(hi-lo) + int(ihi-ilo); scanned > p.EdgeBudget {
			res.Truncated = true
			break
		}
		for e := lo; e < hi; e++ {
			visit(g.Target(e))
		}
		for pos := ilo; pos < ihi; pos++ {
			visit(g.InSource(pos))
		}
	}
	var holes []Hole
	for _, v := range s.touched {
		c := int(s.count[v])
		if c < p.MinNeighbors {
			continue
		}
		avg := float32(s.sum[v] / float64(c))
		holes = append(holes, Hole{
			Node: v, ActivatedNeighbors: c, SiblingAvgActivation: avg,
			Reason: fmt.Sprintf("%d activated neighbors (avg=%.2f) but node inactive", c, avg),
		})
	}
	slices.SortFunc(holes, func(a, b Hole) int {
		switch {
		case a.SiblingAvgActivation != b.SiblingAvgActivation:
			if a.SiblingAvgActivation > b.SiblingAvgActivation {
				return -1
			}
			return 1
		case a.ActivatedNeighbors != b.ActivatedNeighbors:
			return b.ActivatedNeighbors - a.ActivatedNeighbors
		}
		return int(a.Node) - int(b.Node)
	})
	res.Total = len(holes)
	res.Holes = holes[:min(len(holes), p.TopK)]
	for i := range res.Holes {
		res.Holes[i].Neighbors = activatedNeighbors(g, res.Holes[i].Node, s.act, p.MinSiblingActivation, p.MaxListedNeighbors)
	}
	return res, nil
}

func activatedNeighbors(g *graph.Graph, v graph.NodeID, act []float32, minAct float32, limit int) []graph.NodeID {
	var list []graph.Scored
	seen := map[graph.NodeID]bool{}
	add := func(u graph.NodeID) {
		if a := act[u]; a > minAct && !seen[u] && u != v {
			seen[u] = true
			list = append(list, graph.Scored{Node: u, Score: a})
		}
	}
	lo, hi := g.OutRange(v)
	for e := lo; e < hi; e++ {
		add(g.Target(e))
	}
	ilo, ihi := g.InRange(v)
	for pos := ilo; pos < ihi; pos++ {
		add(g.InSource(pos))
	}
	graph.SortScored(list)
	out := make([]graph.NodeID, 0, min(len(list), limit))
	for _, s := range list[:min(len(list), limit)] {
		out = append(out, s.Node)
	}
	return out
}
