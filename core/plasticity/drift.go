package plasticity

import (
	"cmp"
	"slices"
	"time"

	"github.com/m1nd-go/m1nd/core/graph"
)

// EdgeKey identifies an edge across graphs and re-ingests: the external IDs
// of its ends and its relation.
type EdgeKey struct {
	Source, Target, Relation string
}

func keyOf(g *graph.Graph, e graph.EdgeIdx) EdgeKey {
	return EdgeKey{g.ExternalID(g.Source(e)), g.ExternalID(g.Target(e)), g.RelationName(e)}
}

// Baseline is a saved picture of edge weights (and, when complete, of the
// node set) that Drift compares the current graph with.
type Baseline struct {
	Taken time.Time
	// Complete is true for CaptureBaseline: every node and edge is present,
	// so an edge missing from the baseline is new and node deltas are
	// reported. A baseline built from exported states holds only learned
	// edges; a missing edge is compared against its original weight.
	Complete bool
	Nodes    map[string]struct{}
	Weights  map[EdgeKey]float32
}

// CaptureBaseline records every node and current edge weight of g, e.g. at
// session end, for a later Drift "since last session".
func (e *Engine) CaptureBaseline(g *graph.Graph) (*Baseline, error) {
	if err := checkGraph(g); err != nil {
		return nil, err
	}
	e.mu.Lock()
	now := e.now()
	e.mu.Unlock()
	b := &Baseline{
		Taken:    now,
		Complete: true,
		Nodes:    make(map[string]struct{}, g.NumNodes()),
		Weights:  make(map[EdgeKey]float32, g.NumEdges()),
	}
	for i := 0; i < g.NumNodes(); i++ {
		b.Nodes[g.ExternalID(graph.NodeID(i))] = struct{}{}
	}
	for i := 0; i < g.NumEdges(); i++ {
		edge := graph.EdgeIdx(i)
		b.Weights[keyOf(g, edge)] = graph.Finite(g.Weight(edge))
	}
	return b, nil
}

// BaselineFromStates builds a partial baseline from exported states (the
// plasticity file saved by the previous session): their current weights.
// Records whose labels are display labels rather than external IDs simply
// never match.
func BaselineFromStates(states []SynapticState, taken time.Time) *Baseline {
	b := &Baseline{Taken: taken, Weights: make(map[EdgeKey]float32, len(states))}
	for _, s := range states {
		w := s.CurrentWeight
		if !graph.IsFinite(w) {
			w = graph.Finite(s.OriginalWeight)
		}
		b.Weights[EdgeKey{s.SourceLabel, s.TargetLabel, s.Relation}] = w
	}
	return b
}

// EdgeDrift is one edge's weight change.
type EdgeDrift struct {
	Edge     graph.EdgeIdx `json:"-"`
	Source   graph.NodeID  `json:"-"`
	Target   graph.NodeID  `json:"-"`
	SourceID string        `json:"source"`
	TargetID string        `json:"target"`
	Relation string        `json:"relation"`
	Old      float32       `json:"old"`
	New      float32       `json:"new"`
	Delta    float32       `json:"delta"`
}

// DriftOptions bounds a drift report.
type DriftOptions struct {
	// TopN is the length of the strengthened and weakened lists (default 10).
	TopN int
	// MaxNodesListed caps NewNodes and RemovedNodes (default 100).
	MaxNodesListed int
}

// DriftReport compares current weights with the original (ingest-time)
// weights or with a Baseline.
type DriftReport struct {
	// Since is "original" or the baseline's time (RFC 3339).
	Since         string `json:"since"`
	EdgesCompared int    `json:"edges_compared"`
	EdgesChanged  int    `json:"edges_changed"`
	// AvgAbsDelta is the mean |Δw| over changed edges.
	AvgAbsDelta     float32     `json:"avg_abs_delta"`
	TopStrengthened []EdgeDrift `json:"top_strengthened"`
	TopWeakened     []EdgeDrift `json:"top_weakened"`
	// LTPCount / LTDCount are the edges that crossed the LTP / LTD threshold.
	LTPCount int `json:"ltp_count"`
	LTDCount int `json:"ltd_count"`
	// Structural drift, against a complete baseline only.
	NodeCountDelta int      `json:"node_count_delta"`
	EdgeCountDelta int      `json:"edge_count_delta"`
	NewNodes       []string `json:"new_nodes,omitempty"`
	RemovedNodes   []string `json:"removed_nodes,omitempty"`
	NewEdges       int      `json:"new_edges"`
	RemovedEdges   int      `json:"removed_edges"`
}

// driftEpsilon is the smallest |Δw| counted as a change.
const driftEpsilon = 1e-6

// Drift reports per-edge weight change against the original weights (base
// nil) or against base.
func (e *Engine) Drift(g *graph.Graph, base *Baseline, opt DriftOptions) (DriftReport, error) {
	rep := DriftReport{Since: "original"}
	if err := checkGraph(g); err != nil {
		return rep, err
	}
	if opt.TopN <= 0 {
		opt.TopN = 10
	}
	if opt.MaxNodesListed <= 0 {
		opt.MaxNodesListed = 100
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	pl := g.EdgePlasticity()
	if base != nil {
		rep.Since = base.Taken.UTC().Format(time.RFC3339)
	}
	var changed []EdgeDrift
	sum := 0.0
	matched := 0
	for i := 0; i < g.NumEdges(); i++ {
		edge := graph.EdgeIdx(i)
		if pl.LTP[i] {
			rep.LTPCount++
		}
		if pl.LTD[i] {
			rep.LTDCount++
		}
		old := graph.Finite(pl.Original[i])
		if base != nil {
			if w, ok := base.Weights[keyOf(g, edge)]; ok {
				old = w
				matched++
			} else if base.Complete {
				rep.NewEdges++
				continue
			}
		}
		rep.EdgesCompared++
		nw := graph.Finite(g.Weight(edge))
		d := nw - old
		if abs32(d) <= driftEpsilon {
			continue
		}
		sum += float64(abs32(d))
		changed = append(changed, EdgeDrift{
			Edge: edge, Source: g.Source(edge), Target: g.Target(edge),
			SourceID: g.ExternalID(g.Source(edge)), TargetID: g.ExternalID(g.Target(edge)),
			Relation: g.RelationName(edge), Old: old, New: nw, Delta: d,
		})
	}
	rep.EdgesChanged = len(changed)
	if len(changed) > 0 {
		rep.AvgAbsDelta = float32(sum / float64(len(changed)))
	}
	byDelta := func(a, b EdgeDrift) int {
		if c := cmp.Compare(b.Delta, a.Delta); c != 0 {
			return c
		}
		return cmp.Compare(a.Edge, b.Edge)
	}
	slices.SortFunc(changed, byDelta)
	for _, c := range changed {
		if c.Delta <= 0 || len(rep.TopStrengthened) == opt.TopN {
			break
		}
		rep.TopStrengthened = append(rep.TopStrengthened, c)
	}
	for i := len(changed) - 1; i >= 0; i-- {
		c := changed[i]
		if c.Delta >= 0 || len(rep.TopWeakened) == opt.TopN {
			break
		}
		rep.TopWeakened = append(rep.TopWeakened, c)
	}
	if base != nil && base.Complete {
		rep.RemovedEdges = len(base.Weights) - matched
		rep.EdgeCountDelta = g.NumEdges() - len(base.Weights)
		rep.NodeCountDelta = g.NumNodes() - len(base.Nodes)
		for i := 0; i < g.NumNodes(); i++ {
			id := g.ExternalID(graph.NodeID(i))
			if _, ok := base.Nodes[id]; !ok {
				rep.NewNodes = append(rep.NewNodes, id)
			}
		}
		for id := range base.Nodes {
			if _, ok := g.Lookup(id); !ok {
				rep.RemovedNodes = append(rep.RemovedNodes, id)
			}
		}
		slices.Sort(rep.NewNodes)
		slices.Sort(rep.RemovedNodes)
		rep.NewNodes = capList(rep.NewNodes, opt.MaxNodesListed)
		rep.RemovedNodes = capList(rep.RemovedNodes, opt.MaxNodesListed)
	}
	return rep, nil
}

func capList(s []string, n int) []string {
	if len(s) > n {
		return s[:n]
	}
	return s
}
