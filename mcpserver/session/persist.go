package session

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/plasticity"
	"github.com/m1nd-go/m1nd/core/snapshot"
)

// PersistResult reports what a persist did.
type PersistResult struct {
	Reason          string  `json:"reason"`
	GraphPath       string  `json:"graph_path,omitempty"`
	PlasticityPath  string  `json:"plasticity_path,omitempty"`
	Nodes           int     `json:"nodes"`
	Edges           int     `json:"edges"`
	PlasticityEdges int     `json:"plasticity_edges"`
	Skipped         string  `json:"skipped,omitempty"`
	ElapsedMs       float64 `json:"elapsed_ms"`
}

// loadAtStart loads the configured snapshot and plasticity state. A missing
// file is a fresh start; an unreadable one is moved aside (never silently
// overwritten later) and the server starts empty, saying so.
func (s *State) loadAtStart() error {
	if !s.cfg.Persistent() {
		s.logf("no runtime directory or M1ND_GRAPH_SOURCE: the graph lives in memory only (use --runtime-dir to persist)")
		return nil
	}
	g, err := snapshot.Load(s.cfg.GraphSource)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		s.logf("no graph snapshot at %s, starting fresh", s.cfg.GraphSource)
		return nil
	case err != nil:
		aside := fmt.Sprintf("%s.unreadable-%s", s.cfg.GraphSource, time.Now().UTC().Format("20060102T150405Z"))
		if rerr := os.Rename(s.cfg.GraphSource, aside); rerr != nil {
			return fmt.Errorf("graph snapshot %s cannot be loaded (%v) and cannot be moved aside (%v); fix or remove it before starting", s.cfg.GraphSource, err, rerr)
		}
		s.logf("graph snapshot could not be loaded (%v); kept it as %s and starting with an empty graph", err, aside)
		return nil
	}
	s.cur.Store(&Bundle{Graph: g, Gen: 1, Roots: s.loadRoots()})
	s.logf("loaded graph %s: %d nodes, %d edges", s.cfg.GraphSource, g.NumNodes(), g.NumEdges())
	s.loadPlasticity(g)
	s.loadFeedback()
	return nil
}

func (s *State) loadPlasticity(g *graph.Graph) {
	if s.cfg.PlasticityState == "" {
		return
	}
	states, err := snapshot.LoadPlasticity(s.cfg.PlasticityState)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return
	case err != nil:
		s.logf("plasticity state not loaded: %v (learned weights start from the graph's)", err)
		return
	}
	st, err := s.Plasticity.ImportState(g, states)
	if err != nil {
		s.logf("plasticity state not applied: %v", err)
		return
	}
	s.logf("plasticity state: %d records, %d applied, %d unmatched", st.Records, st.Applied, st.Unmatched)
}

// FeedbackFile is the sidecar holding learn's per-query verdicts, so what
// an agent taught in one session still re-ranks answers in the next.
const FeedbackFile = "feedback.json"

func (s *State) loadFeedback() {
	path := s.RuntimePath(FeedbackFile)
	if path == "" || s.feedbackLoaded.Swap(true) {
		return
	}
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return
	}
	var recs []plasticity.FeedbackRecord
	if err == nil {
		err = json.Unmarshal(data, &recs)
	}
	if err == nil {
		err = s.Plasticity.ImportFeedback(recs)
	}
	if err != nil {
		s.logf("feedback memory not loaded: %v (learned verdicts start empty)", err)
		return
	}
	s.logf("feedback memory: %d records", len(recs))
}

func (s *State) saveFeedback() error {
	path := s.RuntimePath(FeedbackFile)
	if path == "" {
		return nil
	}
	recs := s.Plasticity.ExportFeedback()
	if recs == nil {
		recs = []plasticity.FeedbackRecord{}
	}
	return snapshot.WriteFileAtomic(path, 0o644, func(w io.Writer) error {
		return json.NewEncoder(w).Encode(recs)
	})
}

// Persist writes the graph, then the plasticity state (skipped if the graph
// write failed, so the pair stays consistent). An empty graph is never
// written: it cannot replace a saved one.
func (s *State) Persist(reason string) (PersistResult, error) {
	s.persistMu.Lock()
	defer s.persistMu.Unlock()
	start := time.Now()
	res := PersistResult{Reason: reason, GraphPath: s.cfg.GraphSource, PlasticityPath: s.cfg.PlasticityState}
	if !s.cfg.Persistent() {
		res.Skipped = "memory-only session: start the server with --runtime-dir (or M1ND_GRAPH_SOURCE) to persist"
		return res, nil
	}
	// Hold the build lock so an ingest cannot swap the graph mid-write and
	// the plasticity file always matches the graph file.
	s.buildMu.Lock()
	defer s.buildMu.Unlock()
	g := s.Current().Graph
	res.Nodes, res.Edges = g.NumNodes(), g.NumEdges()
	if g.NumNodes() == 0 {
		res.Skipped = "the graph is empty; an existing snapshot is left untouched"
		return res, nil
	}
	if err := snapshot.Save(g, s.cfg.GraphSource); err != nil {
		msg := err.Error()
		s.persistErr.Store(&msg)
		return res, fmt.Errorf("save graph: %w", err)
	}
	if s.cfg.PlasticityState != "" {
		states := s.Plasticity.ExportState(g)
		res.PlasticityEdges = len(states)
		if err := snapshot.SavePlasticity(s.cfg.PlasticityState, states); err != nil {
			msg := err.Error()
			s.persistErr.Store(&msg)
			s.logf("WARNING: plasticity persist failed: %v", err)
			return res, fmt.Errorf("save plasticity (graph was saved): %w", err)
		}
	}
	if err := s.saveFeedback(); err != nil {
		s.logf("WARNING: feedback memory persist failed: %v", err)
	}
	s.saveRoots(s.Current().Roots)
	s.saveBaseline()
	s.persistErr.Store(nil)
	s.lastPersist.Store(time.Now().UnixNano())
	res.ElapsedMs = float64(time.Since(start).Microseconds()) / 1000
	return res, nil
}

// LoadFromDisk replaces the in-memory graph with the saved snapshot (and
// its plasticity state). A missing or unreadable file changes nothing.
func (s *State) LoadFromDisk() (*Bundle, error) {
	if !s.cfg.Persistent() {
		return nil, errors.New("memory-only session: there is no snapshot to load (start with --runtime-dir)")
	}
	return s.Build("loaded", func(old *Bundle) (*graph.Graph, []Root, error) {
		g, err := snapshot.Load(s.cfg.GraphSource)
		if err != nil {
			return nil, nil, fmt.Errorf("load %s: %w (the in-memory graph is unchanged)", s.cfg.GraphSource, err)
		}
		s.loadPlasticity(g)
		return g, old.Roots, nil
	})
}

// RuntimePath returns a path inside the runtime directory for a sidecar,
// or "" for a memory-only session.
func (s *State) RuntimePath(name string) string {
	if s.cfg.RuntimeDir == "" {
		return ""
	}
	return filepath.Join(s.cfg.RuntimeDir, name)
}
