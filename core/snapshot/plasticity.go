package snapshot

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/m1nd-go/m1nd/core/plasticity"
)

// PlasticityVersion is the version of the plasticity state file.
const PlasticityVersion = 1

// The plasticity file holds the per-edge learned state the plasticity
// engine exports (plasticity.Engine.ExportState) and re-imports by
// (source, target, relation) after a restart or re-ingest:
//
//	{"version": 1, "edges": [{"source_label": ..., "target_label": ...,
//	  "relation": ..., "original_weight": ..., "current_weight": ...,
//	  "strengthen_count": ..., "weaken_count": ..., "ltp_applied": ...,
//	  "ltd_applied": ...}, ...]}
//
// A bare array of records (older files) is accepted too.

// stateRecord mirrors plasticity.SynapticState with float64 weights, so a
// number too large for float32 decodes (to ±Inf, which the engine's import
// replaces by the original weight) instead of failing the whole file.
type stateRecord struct {
	SourceLabel     string  `json:"source_label"`
	TargetLabel     string  `json:"target_label"`
	Relation        string  `json:"relation"`
	OriginalWeight  float64 `json:"original_weight"`
	CurrentWeight   float64 `json:"current_weight"`
	StrengthenCount uint16  `json:"strengthen_count"`
	WeakenCount     uint16  `json:"weaken_count"`
	LTPApplied      bool    `json:"ltp_applied"`
	LTDApplied      bool    `json:"ltd_applied"`
}

type plasticityFile struct {
	Version int `json:"version"`
	// Stamp names the graph snapshot these states were saved with (see
	// SavePlasticityStamped); absent in files that predate it.
	Stamp string `json:"stamp,omitempty"`
	// Meta is the saver's own document kept with the states (see
	// SavePlasticityWithMeta); absent when none.
	Meta  json.RawMessage `json:"meta,omitempty"`
	Edges []stateRecord   `json:"edges"`
}

// WritePlasticity writes states as a plasticity document.
func WritePlasticity(w io.Writer, states []plasticity.SynapticState) error {
	return writePlasticity(w, states, "", nil)
}

// writePlasticity streams the document record by record: encoded whole,
// go-std's 18 K learned edges made a 5 MB buffer (and as much garbage)
// every save, and an auto-persist runs every 50 queries.
func writePlasticity(w io.Writer, states []plasticity.SynapticState, stamp string, meta func(io.Writer) error) error {
	head, err := json.Marshal(plasticityFile{Version: PlasticityVersion, Stamp: stamp})
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	bw.Write(head[:bytes.LastIndex(head, []byte(`,"edges"`))])
	if meta != nil {
		bw.WriteString(`,"meta":`)
		if err := meta(bw); err != nil {
			return err
		}
	}
	bw.WriteString(`,"edges":[`)
	enc := json.NewEncoder(bw)
	rec := new(stateRecord) // one for all: a record passed by value escaped each time
	for i, s := range states {
		if i > 0 {
			bw.WriteByte(',')
		}
		*rec = stateRecord{
			SourceLabel: s.SourceLabel, TargetLabel: s.TargetLabel, Relation: s.Relation,
			OriginalWeight: float64(s.OriginalWeight), CurrentWeight: float64(s.CurrentWeight),
			StrengthenCount: s.StrengthenCount, WeakenCount: s.WeakenCount,
			LTPApplied: s.LTPApplied, LTDApplied: s.LTDApplied,
		}
		if err := enc.Encode(rec); err != nil {
			return err
		}
	}
	bw.WriteString("]}\n")
	return bw.Flush()
}

// ReadPlasticity parses a plasticity document. Invalid JSON, an unknown
// version or a record without its (source, target, relation) identity is a
// schema error (ErrFormat); nothing is applied.
func ReadPlasticity(r io.Reader) ([]plasticity.SynapticState, error) {
	st, _, _, err := readPlasticity(r)
	return st, err
}

func readPlasticity(r io.Reader) ([]plasticity.SynapticState, string, json.RawMessage, error) {
	data, err := io.ReadAll(bufio.NewReader(r))
	if err != nil {
		return nil, "", nil, err
	}
	var stamp string
	var meta json.RawMessage
	data = bytes.TrimSpace(data)
	var recs []stateRecord
	switch {
	case len(data) > 0 && data[0] == '[':
		if err := strictUnmarshal(data, &recs); err != nil {
			return nil, "", nil, formatErr("plasticity state is not valid: %v", err)
		}
	case len(data) > 0 && data[0] == '{':
		var f plasticityFile
		if err := strictUnmarshal(data, &f); err != nil {
			return nil, "", nil, formatErr("plasticity state is not valid: %v", err)
		}
		if f.Version != PlasticityVersion {
			return nil, "", nil, formatErr("plasticity state version %d is not supported (this build reads version %d)", f.Version, PlasticityVersion)
		}
		recs, stamp, meta = f.Edges, f.Stamp, f.Meta
	default:
		return nil, "", nil, formatErr(`plasticity state must be a JSON object {"version":1,"edges":[...]} or an array of records`)
	}
	out := make([]plasticity.SynapticState, len(recs))
	for i, s := range recs {
		if s.Relation == "" || s.SourceLabel == "" || s.TargetLabel == "" {
			return nil, "", nil, formatErr("plasticity record %d lacks its (source_label, target_label, relation) identity", i)
		}
		out[i] = plasticity.SynapticState{
			SourceLabel: s.SourceLabel, TargetLabel: s.TargetLabel, Relation: s.Relation,
			OriginalWeight: float32(s.OriginalWeight), CurrentWeight: float32(s.CurrentWeight),
			StrengthenCount: s.StrengthenCount, WeakenCount: s.WeakenCount,
			LTPApplied: s.LTPApplied, LTDApplied: s.LTDApplied,
		}
	}
	return out, stamp, meta, nil
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
func SavePlasticity(path string, states []plasticity.SynapticState) error {
	return SavePlasticityStamped(path, states, "")
}

// SavePlasticityStamped writes states atomically to path with a stamp
// naming the graph snapshot they belong to, so a loader can tell a file
// left behind by an interrupted save from one that matches its graph.
func SavePlasticityStamped(path string, states []plasticity.SynapticState, stamp string) error {
	return SavePlasticityWithMeta(path, states, stamp, nil)
}

// SavePlasticityWithMeta is SavePlasticityStamped with meta, which writes
// one JSON value of the saver's kept in the same file, so states and meta
// are written (and survive a crash) together: a server's save of learned
// state alone keeps its journal position and memories there.
func SavePlasticityWithMeta(path string, states []plasticity.SynapticState, stamp string, meta func(io.Writer) error) error {
	return WriteFileAtomic(path, 0o644, func(w io.Writer) error { return writePlasticity(w, states, stamp, meta) })
}

// LoadPlasticity reads a plasticity state file.
func LoadPlasticity(path string) ([]plasticity.SynapticState, error) {
	st, _, err := LoadPlasticityStamped(path)
	return st, err
}

// LoadPlasticityStamped reads a plasticity state file and the stamp it was
// saved with ("" when none).
func LoadPlasticityStamped(path string) ([]plasticity.SynapticState, string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, "", err
	}
	defer f.Close()
	st, stamp, _, err := readPlasticity(f)
	if err != nil {
		return nil, "", fmtPath(path, err)
	}
	return st, stamp, nil
}

// LoadPlasticityWithMeta reads a plasticity state file, its stamp and the
// meta it was saved with (nil when none).
func LoadPlasticityWithMeta(path string) ([]plasticity.SynapticState, string, json.RawMessage, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, "", nil, err
	}
	defer f.Close()
	st, stamp, meta, err := readPlasticity(f)
	if err != nil {
		return nil, "", nil, fmtPath(path, err)
	}
	return st, stamp, meta, nil
}
