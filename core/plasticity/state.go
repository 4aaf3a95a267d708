package plasticity

import (
	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/internal/finite"
)

// SynapticState is one edge's learned state
// (docs/design.md#plasticity-constants). Edges are identified by (source,
// target, relation), never by index, so the state survives a re-ingest that
// renumbers nodes.
//
// ExportState writes each endpoint's external ID into SourceLabel and
// TargetLabel: it is the node's stable identity (display labels such as
// "__init__.py" repeat). ImportState first reads them as external IDs and,
// failing that, as display labels (as files written by the original
// implementation have them), accepting a label triple only when it names
// exactly one edge.
type SynapticState struct {
	SourceLabel     string  `json:"source_label"`
	TargetLabel     string  `json:"target_label"`
	Relation        string  `json:"relation"`
	OriginalWeight  float32 `json:"original_weight"`
	CurrentWeight   float32 `json:"current_weight"`
	StrengthenCount uint16  `json:"strengthen_count"`
	WeakenCount     uint16  `json:"weaken_count"`
	LTPApplied      bool    `json:"ltp_applied"`
	LTDApplied      bool    `json:"ltd_applied"`
}

// ExportState returns the state of every edge that has learned something:
// a weight different from its original, a non-zero counter, or an LTP/LTD
// flag. Untouched edges are left out — importing nothing for them leaves
// them as ingested, which is the same thing. Records are in edge order
// (bidirectional edges contribute each direction separately). A non-finite
// weight is exported as the original weight (NaN firewall).
func (e *Engine) ExportState(g *graph.Graph) []SynapticState {
	if checkGraph(g) != nil {
		return nil
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	// Every re-ingest exports the old graph's state: the graph's own scan
	// lists the few edges that may have learned, at a fraction of a
	// per-edge pass through the accessors, and the test below is exact.
	// With none, the learning arrays are not asked for (EdgePlasticity
	// allocates those a spliced graph left out).
	maybe := g.MaybeLearned(nil)
	if len(maybe) == 0 {
		return nil
	}
	pl := g.EdgePlasticity()
	out := make([]SynapticState, 0, len(maybe))
	for _, edge := range maybe {
		i := int(edge)
		w, orig := g.Weight(edge), pl.Original[i]
		if !graph.IsFinite(orig) {
			orig = graph.Finite(orig)
		}
		if !graph.IsFinite(w) {
			w = orig
		}
		if w == orig && pl.Strengthen[i] == 0 && pl.Weaken[i] == 0 && !pl.LTP[i] && !pl.LTD[i] {
			continue
		}
		out = append(out, SynapticState{
			SourceLabel:     g.ExternalID(g.Source(edge)),
			TargetLabel:     g.ExternalID(g.Target(edge)),
			Relation:        g.RelationName(edge),
			OriginalWeight:  orig,
			CurrentWeight:   w,
			StrengthenCount: pl.Strengthen[i],
			WeakenCount:     pl.Weaken[i],
			LTPApplied:      pl.LTP[i],
			LTDApplied:      pl.LTD[i],
		})
	}
	return out
}

// ImportStats reports what ImportState did with each record.
type ImportStats struct {
	Records int `json:"records"`
	Applied int `json:"applied"`
	// Unmatched records name no edge of the graph (removed code).
	Unmatched int `json:"unmatched"`
	// Ambiguous records matched only by display labels that name several
	// edges; they are skipped rather than spread over all of them.
	Ambiguous int `json:"ambiguous"`
	// Clamped weights were outside [WeightFloor, WeightCap].
	Clamped int `json:"clamped"`
	// NonFinite weights were replaced by the original weight.
	NonFinite int `json:"non_finite"`
	// CASFailures are writes abandoned under contention.
	CASFailures int `json:"cas_failures,omitempty"`
}

// ImportState restores learned state onto g's matching edges. The current
// weight is clamped to [WeightFloor, WeightCap]; a non-finite current weight
// falls back to the original (the record's if finite, else the graph's).
// The record's original weight becomes the edge's baseline when finite and
// positive, so drift keeps measuring against the first ingest. A record
// naming the same edge as an earlier one overrides it. The only error is a
// graph that cannot be written (nil or not finalized); bad records are
// counted, never applied.
func (e *Engine) ImportState(g *graph.Graph, states []SynapticState) (ImportStats, error) {
	st := ImportStats{Records: len(states)}
	if err := checkGraph(g); err != nil {
		return st, err
	}
	if len(states) == 0 { // nothing to write: the arrays are not asked for
		return st, nil
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	pl := g.EdgePlasticity()
	var byLabel map[[3]string][]graph.EdgeIdx
	for _, s := range states {
		edge, found, ambiguous := graph.EdgeIdx(0), false, false
		src, ok1 := g.Lookup(s.SourceLabel)
		dst, ok2 := g.Lookup(s.TargetLabel)
		if ok1 && ok2 {
			edge, found = g.FindEdgeByName(src, dst, s.Relation)
		}
		if !found && !(ok1 && ok2) {
			if byLabel == nil {
				byLabel = labelIndex(g)
			}
			switch list := byLabel[[3]string{s.SourceLabel, s.TargetLabel, s.Relation}]; len(list) {
			case 0:
			case 1:
				edge, found = list[0], true
			default:
				ambiguous = true
			}
		}
		if ambiguous {
			st.Ambiguous++
			continue
		}
		if !found {
			st.Unmatched++
			continue
		}
		orig := pl.Original[edge]
		if graph.IsFinite(s.OriginalWeight) && s.OriginalWeight > 0 {
			orig = s.OriginalWeight
		}
		w := s.CurrentWeight
		if !graph.IsFinite(w) {
			st.NonFinite++
			w = orig
		}
		if c := finite.Clamp(w, e.p.WeightFloor, e.p.WeightCap); c != w {
			st.Clamped++
			w = c
		}
		if err := g.AtomicWriteWeight(edge, w); err != nil {
			st.CASFailures++
			continue
		}
		pl.Original[edge] = orig
		pl.Strengthen[edge] = s.StrengthenCount
		pl.Weaken[edge] = s.WeakenCount
		pl.LTP[edge] = s.LTPApplied
		pl.LTD[edge] = s.LTDApplied
		st.Applied++
	}
	return st, nil
}

// ReplaceState makes states the whole learned state of g: every edge the
// records do not name goes back to its state at ingest (original weight, no
// counts, no LTP/LTD flags), then the records are imported as ImportState
// does. It restores an export taken from the same graph exactly, where
// ImportState alone would keep what g had learned beyond the records: a
// graph saved earlier, with learned state saved after it on its own.
func (e *Engine) ReplaceState(g *graph.Graph, states []SynapticState) (ImportStats, error) {
	if err := checkGraph(g); err != nil {
		return ImportStats{Records: len(states)}, err
	}
	if maybe := g.MaybeLearned(nil); len(maybe) > 0 {
		e.mu.Lock()
		pl := g.EdgePlasticity()
		for _, edge := range maybe {
			if err := g.AtomicWriteWeight(edge, graph.Finite(pl.Original[edge])); err != nil {
				e.mu.Unlock()
				return ImportStats{Records: len(states)}, err
			}
			pl.Strengthen[edge], pl.Weaken[edge] = 0, 0
			pl.LTP[edge], pl.LTD[edge] = false, false
		}
		e.mu.Unlock()
	}
	return e.ImportState(g, states)
}

// labelIndex maps display-label triples to edges.
func labelIndex(g *graph.Graph) map[[3]string][]graph.EdgeIdx {
	idx := make(map[[3]string][]graph.EdgeIdx, g.NumEdges())
	for i := 0; i < g.NumEdges(); i++ {
		edge := graph.EdgeIdx(i)
		k := [3]string{g.Label(g.Source(edge)), g.Label(g.Target(edge)), g.RelationName(edge)}
		idx[k] = append(idx[k], edge)
	}
	return idx
}

// LearnedEdges counts the edges ExportState would export (weight moved,
// counters, LTP/LTD), without building the records: health reports it on
// every call, and graphs can have millions of edges.
func (e *Engine) LearnedEdges(g *graph.Graph) int {
	if checkGraph(g) != nil {
		return 0
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	pl := g.EdgePlasticity()
	n := 0
	for i := 0; i < g.NumEdges(); i++ {
		w, orig := g.Weight(graph.EdgeIdx(i)), pl.Original[i]
		if (w != orig && graph.IsFinite(w)) || pl.Strengthen[i] != 0 || pl.Weaken[i] != 0 || pl.LTP[i] || pl.LTD[i] {
			n++
		}
	}
	return n
}
