package analysis

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/m1nd-go/m1nd/core/graph"
)

// Direction selects which edges an analysis follows.
type Direction uint8

const (
	// Forward follows edges source → target ("what does this affect?").
	Forward Direction = iota
	// Reverse follows edges target → source ("what affects this?").
	Reverse
	// Both follows edges either way.
	Both
)

// String returns "forward", "reverse" or "both".
func (d Direction) String() string {
	switch d {
	case Forward:
		return "forward"
	case Reverse:
		return "reverse"
	case Both:
		return "both"
	}
	return fmt.Sprintf("direction(%d)", uint8(d))
}

// ParseDirection accepts "forward", "reverse" or "both" in any case
// ("" is forward, "backward" and "upstream" mean reverse).
func ParseDirection(s string) (Direction, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "forward", "downstream":
		return Forward, nil
	case "reverse", "backward", "upstream":
		return Reverse, nil
	case "both", "bidirectional":
		return Both, nil
	}
	return 0, fmt.Errorf("unknown direction %q (want \"forward\", \"reverse\" or \"both\")", s)
}

func (d Direction) valid() bool { return d <= Both }

// neighbors calls f for each edge leaving u in direction d: forward edges
// as (target, edge, false), reverse ones as (source, edge, true).
func neighbors(g *graph.Graph, u graph.NodeID, d Direction, f func(v graph.NodeID, e graph.EdgeIdx, reversed bool) bool) bool {
	if d != Reverse {
		lo, hi := g.OutRange(u)
		for e := lo; e < hi; e++ {
			if !f(g.Target(e), e, false) {
				return false
			}
		}
	}
	if d != Forward {
		lo, hi := g.InRange(u)
		for pos := lo; pos < hi; pos++ {
			if !f(g.InSource(pos), g.InEdge(pos), true) {
				return false
			}
		}
	}
	return true
}

// ImpactParams configures Impact.
type ImpactParams struct {
	Direction Direction
	// MaxHops bounds the blast radius (default 3; 1 … 20).
	MaxHops int
	// HopDecay multiplies the signal per hop, on top of the edge weight
	// (capped at 1). (0, 1].
	HopDecay float32
	// InhibitoryFactor multiplies the signal crossing an inhibitory edge.
	// [0, 1].
	InhibitoryFactor float32
	// Threshold: weaker signals stop. (0, 1).
	Threshold float32
	// IncludeCausalChains adds the strongest propagation paths.
	IncludeCausalChains bool
	// MaxChains bounds the chains (10).
	MaxChains int
	// TopK bounds BlastRadius (0: every node reached).
	TopK int
	// EdgeBudget caps the edges examined.
	EdgeBudget int
}

// DefaultImpactParams: forward, 3 hops, decay 0.85 per hop, threshold 0.01,
// causal chains on.
func DefaultImpactParams() ImpactParams {
	return ImpactParams{Direction: Forward, MaxHops: 3, HopDecay: 0.85, InhibitoryFactor: 0.5, Threshold: 0.01, IncludeCausalChains: true, MaxChains: 10, EdgeBudget: 2_000_000}
}

func (p ImpactParams) validate() error {
	if !p.Direction.valid() {
		return fmt.Errorf("invalid direction %v", p.Direction)
	}
	if p.MaxHops < 1 || p.MaxHops > 20 {
		return fmt.Errorf("max_hops must be in [1, 20], got %d", p.MaxHops)
	}
	if _, err := graph.UnitInterval("hop_decay", p.HopDecay); err != nil {
		return err
	}
	if !graph.IsFinite(p.InhibitoryFactor) || p.InhibitoryFactor < 0 || p.InhibitoryFactor > 1 {
		return fmt.Errorf("inhibitory_factor must be in [0, 1], got %v", p.InhibitoryFactor)
	}
	if !graph.IsFinite(p.Threshold) || p.Threshold <= 0 || p.Threshold >= 1 {
		return fmt.Errorf("threshold must be in (0, 1), got %v", p.Threshold)
	}
	if p.MaxChains < 0 || p.TopK < 0 || p.EdgeBudget < 1 {
		return errors.New("max_chains and top_k must be ≥ 0, edge_budget ≥ 1")
	}
	return nil
}

// ImpactNode is one node of the blast radius.
type ImpactNode struct {
	Node graph.NodeID `json:"node"`
	// SignalStrength is the strongest signal that reached the node, (0, 1].
	SignalStrength float32 `json:"signal_strength"`
	// HopDistance is the fewest hops over which a signal reached it.
	HopDistance int `json:"hop_distance"`
}

// Chain is a path from a source: nodes, the relation of each hop (Reversed
// marks hops taken against the edge's direction) and its cumulative
// strength.
type Chain struct {
	Nodes              []graph.NodeID `json:"path"`
	Relations          []string       `json:"relations"`
	Reversed           []bool         `json:"reversed"`
	CumulativeStrength float32        `json:"cumulative_strength"`
}

// ImpactResult is the blast radius of a node.
type ImpactResult struct {
	Source    graph.NodeID `json:"source"`
	Direction string       `json:"direction"`
	// BlastRadius is sorted by signal (descending), then NodeID.
	BlastRadius []ImpactNode `json:"blast_radius"`
	// TotalEnergy is the sum of every reached node's signal.
	TotalEnergy    float32 `json:"total_energy"`
	MaxHopsReached int     `json:"max_hops_reached"`
	CausalChains   []Chain `json:"causal_chains,omitempty"`
	// Affected counts every node reached, before TopK cut BlastRadius.
	Affected int `json:"affected"`
	// Truncated is true when EdgeBudget stopped the propagation.
	Truncated    bool `json:"truncated,omitempty"`
	EdgesVisited int  `json:"edges_visited"`
}

type impactScratch struct {
	stamp    []uint32
	cur      uint32
	sig      []float32
	hop      []uint8
	parent   []graph.NodeID
	pedge    []graph.EdgeIdx
	prev     []bool
	inNext   []uint32 // per-layer "already in next" stamp
	lstamp   uint32
	touched  []graph.NodeID
	frontier []graph.NodeID
	fsig     []float32
	next     []graph.NodeID
}

var impactPool = sync.Pool{New: func() any { return &impactScratch{} }}

func (s *impactScratch) reset(n int) {
	if len(s.stamp) < n {
		s.stamp = make([]uint32, n)
		s.inNext = make([]uint32, n)
		s.sig = make([]float32, n)
		s.hop = make([]uint8, n)
		s.parent = make([]graph.NodeID, n)
		s.pedge = make([]graph.EdgeIdx, n)
		s.prev = make([]bool, n)
		s.cur = 0
		s.lstamp = 0
	}
	s.cur++
	if s.cur == 0 {
		clear(s.stamp)
		s.cur = 1
	}
	s.touched = s.touched[:0]
}

// Impact propagates a signal from source along Direction for up to MaxHops
// hops: crossing an edge multiplies the signal by min(weight, 1)·HopDecay
// (and InhibitoryFactor on inhibitory edges); each node keeps its strongest
// signal, computed by hop-limited relaxation (Bellman–Ford by layers), so a
// signal reported at hop distance k travelled at most MaxHops hops.
func Impact(g *graph.Graph, source graph.NodeID, p ImpactParams) (ImpactResult, error) {
	res := ImpactResult{Source: source, Direction: p.Direction.String()}
	if err := checkGraph(g); err != nil {
		return res, err
	}
	if err := p.validate(); err != nil {
		return res, err
	}
	if !g.Valid(source) {
		return res, fmt.Errorf("analysis: node %d out of range (graph has %d nodes)", source, g.NumNodes())
	}
	s := impactPool.Get().(*impactScratch)
	defer impactPool.Put(s)
	s.reset(g.NumNodes())
	cur := s.cur
	s.stamp[source] = cur
	s.sig[source] = 1
	s.hop[source] = 0
	s.parent[source] = graph.NoNode
	s.frontier = append(s.frontier[:0], source)

	for layer := 1; layer <= p.MaxHops && len(s.frontier) > 0 && !res.Truncated; layer++ {
		// Relax from the signals as they stood at the start of the layer.
		s.fsig = s.fsig[:0]
		for _, u := range s.frontier {
			s.fsig = append(s.fsig, s.sig[u])
		}
		s.next = s.next[:0]
		s.lstamp++
		if s.lstamp == 0 {
			clear(s.inNext)
			s.lstamp = 1
		}
		for i, u := range s.frontier {
			su := s.fsig[i]
			ok := neighbors(g, u, p.Direction, func(v graph.NodeID, e graph.EdgeIdx, rev bool) bool {
				if res.EdgesVisited++; res.EdgesVisited > p.EdgeBudget {
					res.Truncated = true
					return false
				}
				if v == source {
					return true
				}
				f := graph.Clamp(g.Weight(e), 0, 1) * p.HopDecay
				if g.Inhibitory(e) {
					f *= p.InhibitoryFactor
				}
				sv := su * f
				if sv < p.Threshold {
					return true
				}
				if s.stamp[v] != cur {
					s.stamp[v] = cur
					s.sig[v] = 0
					s.hop[v] = uint8(layer)
					s.touched = append(s.touched, v)
				}
				if sv <= s.sig[v] {
					return true
				}
				s.sig[v], s.parent[v], s.pedge[v], s.prev[v] = sv, u, e, rev
				if s.inNext[v] != s.lstamp {
					s.inNext[v] = s.lstamp
					s.next = append(s.next, v)
				}
				return true
			})
			if !ok {
				break
			}
		}
		s.frontier, s.next = s.next, s.frontier
	}

	// Sort by signal descending then NodeID: signals are positive finite
	// float32, whose bit patterns order like the values, so one uint64 key
	// per node sorts fast.
	keys := make([]uint64, len(s.touched))
	energy := 0.0
	for i, v := range s.touched {
		keys[i] = uint64(^math.Float32bits(s.sig[v]))<<32 | uint64(v)
		energy += float64(s.sig[v])
		res.MaxHopsReached = max(res.MaxHopsReached, int(s.hop[v]))
	}
	slices.Sort(keys)
	res.BlastRadius = make([]ImpactNode, len(keys))
	for i, k := range keys {
		v := graph.NodeID(uint32(k))
		res.BlastRadius[i] = ImpactNode{Node: v, SignalStrength: s.sig[v], HopDistance: int(s.hop[v])}
	}
	res.TotalEnergy = graph.Finite(float32(energy))
	if p.IncludeCausalChains && p.MaxChains > 0 {
		res.CausalChains = chains(g, s, source, res.BlastRadius, p)
	}
	res.Affected = len(res.BlastRadius)
	if p.TopK > 0 && len(res.BlastRadius) > p.TopK {
		res.BlastRadius = res.BlastRadius[:p.TopK]
	}
	return res, nil
}

// chains reconstructs the strongest propagation paths: to the strongest
// nodes at two hops or more first (a one-hop chain says nothing the blast
// radius does not), then to one-hop nodes.
func chains(g *graph.Graph, s *impactScratch, source graph.NodeID, radius []ImpactNode, p ImpactParams) []Chain {
	var ends []graph.NodeID
	for _, far := range []bool{true, false} {
		for _, n := range radius {
			if len(ends) == p.MaxChains {
				break
			}
			if (n.HopDistance >= 2) == far {
				ends = append(ends, n.Node)
			}
		}
	}
	out := make([]Chain, 0, len(ends))
	for _, end := range ends {
		var rev []graph.NodeID
		seen := map[graph.NodeID]bool{}
		ok := true
		for v := end; v != source; v = s.parent[v] {
			if seen[v] || len(rev) > 2*p.MaxHops || s.stamp[v] != s.cur {
				ok = false
				break
			}
			seen[v] = true
			rev = append(rev, v)
		}
		if !ok {
			continue
		}
		c := Chain{Nodes: []graph.NodeID{source}, CumulativeStrength: 1}
		for i := len(rev) - 1; i >= 0; i-- {
			v := rev[i]
			e := s.pedge[v]
			f := graph.Clamp(g.Weight(e), 0, 1) * p.HopDecay
			if g.Inhibitory(e) {
				f *= p.InhibitoryFactor
			}
			c.Nodes = append(c.Nodes, v)
			c.Relations = append(c.Relations, g.RelationName(e))
			c.Reversed = append(c.Reversed, s.prev[v])
			c.CumulativeStrength *= f
		}
		c.CumulativeStrength = graph.Finite(c.CumulativeStrength)
		out = append(out, c)
	}
	return out
}
