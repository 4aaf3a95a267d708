package snapshot

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"

	"github.com/m1nd-go/m1nd/core/graph"
)

// PlasticityVersion is the version of the plasticity state file.
const PlasticityVersion = 1

// EdgeState is one edge's learned state (the spec's SynapticState). Edges
// are identified by (source, target, relation) so the state survives a
// re-ingest that renumbers nodes. SourceID/TargetID (external IDs) make the
// match exact; files without them are matched by labels.
type EdgeState struct {
	SourceLabel     string  `json:"source_label"`
	TargetLabel     string  `json:"target_label"`
	Relation        string  `json:"relation"`
	SourceID        string  `json:"source_id,omitempty"`
	TargetID        string  `json:"target_id,omitempty"`
	OriginalWeight  float64 `json:"original_weight"`
	CurrentWeight   float64 `json:"current_weight"`
	StrengthenCount uint16  `json:"strengthen_count"`
	WeakenCount     uint16  `json:"weaken_count"`
	LTPApplied      bool    `json:"ltp_applied"`
	LTDApplied      bool    `json:"ltd_applied"`
}

// PlasticityFile is the on-disk document.
type PlasticityFile struct {
	Version int         `json:"version"`
	Edges   []EdgeState `json:"edges"`
}

// ExportPlasticity returns the state of every edge that has learned
// something (weight moved from its original, counters, LTP/LTD). Untouched
// edges are omitted: importing nothing for them leaves them as ingested.
// The caller must hold whatever lock guards plasticity counters.
func ExportPlasticity(g *graph.Graph) []EdgeState {
	p := g.EdgePlasticity()
	var out []EdgeState
	for e := 0; e < g.NumEdges(); e++ {
		ei := graph.EdgeIdx(e)
		w := g.Weight(ei)
		orig := p.Original[e]
		if !graph.IsFinite(w) {
			w = orig // NaN firewall: never persist a non-finite weight
		}
		if w == orig && p.Strengthen[e] == 0 && p.Weaken[e] == 0 && !p.LTP[e] && !p.LTD[e] {
			continue
		}
		s, t := g.Source(ei), g.Target(ei)
		out = append(out, EdgeState{
			SourceLabel: g.Label(s), TargetLabel: g.Label(t), Relation: g.RelationName(ei),
			SourceID: g.ExternalID(s), TargetID: g.ExternalID(t),
			OriginalWeight: float64(orig), CurrentWeight: float64(w),
			StrengthenCount: p.Strengthen[e], WeakenCount: p.Weaken[e],
			LTPApplied: p.LTP[e], LTDApplied: p.LTD[e],
		})
	}
	return out
}

// ImportStats reports what ImportPlasticity did.
type ImportStats struct {
	Records   int `json:"records"`
	Applied   int `json:"applied"`
	Unmatched int `json:"unmatched"`
	Ambiguous int `json:"ambiguous"`
	Clamped   int `json:"clamped"`
	NonFinite int `json:"non_finite"`
}

// ImportPlasticity applies saved states to g's matching edges: weights are
// clamped to [WeightFloor, WeightCap] and a non-finite weight falls back to
// the original. Records whose label triple matches several edges are
// skipped (counted as ambiguous) rather than spread over all of them.
// The caller must hold whatever lock guards plasticity counters.
func ImportPlasticity(g *graph.Graph, states []EdgeState) ImportStats {
	st := ImportStats{Records: len(states)}
	p := g.EdgePlasticity()
	var byLabel map[[3]string][]graph.EdgeIdx
	for _, s := range states {
		var edges []graph.EdgeIdx
		if s.SourceID != "" && s.TargetID != "" {
			src, ok1 := g.Lookup(s.SourceID)
			dst, ok2 := g.Lookup(s.TargetID)
			if ok1 && ok2 {
				if e, ok := g.FindEdgeByName(src, dst, s.Relation); ok {
					edges = []graph.EdgeIdx{e}
				}
			}
		} else {
			if byLabel == nil {
				byLabel = make(map[[3]string][]graph.EdgeIdx, g.NumEdges())
				for e := 0; e < g.NumEdges(); e++ {
					ei := graph.EdgeIdx(e)
					k := [3]string{g.Label(g.Source(ei)), g.Label(g.Target(ei)), g.RelationName(ei)}
					byLabel[k] = append(byLabel[k], ei)
				}
			}
			edges = byLabel[[3]string{s.SourceLabel, s.TargetLabel, s.Relation}]
		}
		switch {
		case len(edges) == 0:
			st.Unmatched++
			continue
		case len(edges) > 1:
			st.Ambiguous++
			continue
		}
		e := edges[0]
		orig := float32(s.OriginalWeight)
		if !graph.IsFinite(orig) {
			orig = p.Original[e]
		}
		w := float32(s.CurrentWeight)
		if !graph.IsFinite(w) || math.IsNaN(s.CurrentWeight) {
			st.NonFinite++
			w = orig
		}
		if c := graph.Clamp(w, graph.WeightFloor, graph.WeightCap); c != w {
			st.Clamped++
			w = c
		}
		if err := g.AtomicWriteWeight(e, w); err != nil {
			st.Unmatched++
			continue
		}
		p.Original[e] = orig
		p.Strengthen[e] = s.StrengthenCount
		p.Weaken[e] = s.WeakenCount
		p.LTP[e] = s.LTPApplied
		p.LTD[e] = s.LTDApplied
		st.Applied++
	}
	return st
}

// WritePlasticity writes states as a plasticity document.
func WritePlasticity(w io.Writer, states []EdgeState) error {
	if states == nil {
		states = []EdgeState{}
	}
	return json.NewEncoder(w).Encode(PlasticityFile{Version: PlasticityVersion, Edges: states})
}

// ReadPlasticity parses a plasticity document: the versioned object or, as
// older files have it, a bare array of states. Invalid JSON or a record
// without its triple is a schema error.
func ReadPlasticity(r io.Reader) ([]EdgeState, error) {
	data, err := io.ReadAll(bufio.NewReader(r))
	if err != nil {
		return nil, err
	}
	data = bytes.TrimSpace(data)
	var states []EdgeState
	switch {
	case len(data) > 0 && data[0] == '[':
		if err := strictUnmarshal(data, &states); err != nil {
			return nil, formatErr("plasticity state is not valid: %v", err)
		}
	case len(data) > 0 && data[0] == '{':
		var f PlasticityFile
		if err := strictUnmarshal(data, &f); err != nil {
			return nil, formatErr("plasticity state is not valid: %v", err)
		}
		if f.Version != PlasticityVersion {
			return nil, formatErr("plasticity state version %d is not supported (this build reads version %d)", f.Version, PlasticityVersion)
		}
		states = f.Edges
	default:
		return nil, formatErr("plasticity state must be a JSON object {\"version\":1,\"edges\":[...]} or an array")
	}
	for i, s := range states {
		if s.Relation == "" || ((s.SourceLabel == "" || s.TargetLabel == "") && (s.SourceID == "" || s.TargetID == "")) {
			return nil, formatErr("plasticity record %d lacks its (source, target, relation) identity", i)
		}
	}
	return states, nil
}

func strictUnmarshal(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return fmt.Errorf("trailing data after the JSON document")
	}
	return nil
}

// SavePlasticity writes states atomically to path.
func SavePlasticity(path string, states []EdgeState) error {
	return WriteFileAtomic(path, 0o644, func(w io.Writer) error { return WritePlasticity(w, states) })
}

// LoadPlasticity reads a plasticity state file.
func LoadPlasticity(path string) ([]EdgeState, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := ReadPlasticity(f)
	if err != nil {
		return nil, fmtPath(path, err)
	}
	return st, nil
}
