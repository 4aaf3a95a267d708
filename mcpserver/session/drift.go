package session

import (
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"sort"
	"time"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/plasticity"
	"github.com/m1nd-go/m1nd/core/snapshot"
)

// DriftBaselineFile is the sidecar holding the baseline drift compares
// against as "last_session".
const DriftBaselineFile = "drift_baseline.json"

// DriftBaseline is the graph state drift compares against: learned edge
// state, the file-level node IDs, and the counts at the time it was taken.
type DriftBaseline struct {
	Taken     time.Time                  `json:"taken"`
	NodeCount int                        `json:"node_count"`
	EdgeCount int                        `json:"edge_count"`
	Files     []string                   `json:"files"`
	Weights   []plasticity.SynapticState `json:"weights"`
	Source    string                     `json:"source"` // "previous_session" or "session_start"
}

func (s *State) captureBaseline(g *graph.Graph, source string) *DriftBaseline {
	b := &DriftBaseline{
		Taken: time.Now().UTC(), NodeCount: g.NumNodes(), EdgeCount: g.NumEdges(),
		Weights: s.Plasticity.ExportState(g), Source: source,
	}
	for i := 0; i < g.NumNodes(); i++ {
		id := graph.NodeID(i)
		if t := g.Type(id); t == graph.File || t == graph.Directory {
			b.Files = append(b.Files, g.ExternalID(id))
		}
	}
	sort.Strings(b.Files)
	return b
}

// initBaselines runs at start: the saved baseline (if any) becomes
// "last_session", and the loaded state becomes this session's start.
func (s *State) initBaselines() {
	g := s.Current().Graph
	s.startBaseline = s.captureBaseline(g, "session_start")
	path := s.RuntimePath(DriftBaselineFile)
	if path == "" {
		return
	}
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return
	}
	var b DriftBaseline
	if err == nil {
		err = json.Unmarshal(data, &b)
	}
	if err != nil {
		s.logf("ignoring unreadable %s: %v", path, err)
		return
	}
	b.Source = "previous_session"
	s.lastSession = &b
}

// saveBaseline writes this session's start baseline, so the next session's
// drift shows everything that changed from now on. It reports success.
func (s *State) saveBaseline() bool {
	path := s.RuntimePath(DriftBaselineFile)
	if path == "" || s.startBaseline == nil {
		return false
	}
	err := snapshot.WriteFileAtomic(path, 0o644, func(w io.Writer) error {
		return json.NewEncoder(w).Encode(s.startBaseline)
	})
	if err != nil {
		s.logf("could not save %s: %v", path, err)
		return false
	}
	return true
}

// Baseline returns the baseline for drift's since: "last_session" (the
// previous session's start, or this session's when there is none) or
// "session_start". For a timestamp, the newest baseline taken at or before
// it; ok is false when since predates every baseline.
func (s *State) Baseline(since string, at time.Time) (b *DriftBaseline, ok bool) {
	switch since {
	case "session_start":
		return s.startBaseline, true
	case "", "last_session":
		if s.lastSession != nil {
			return s.lastSession, true
		}
		return s.startBaseline, true
	}
	if s.lastSession != nil && !at.Before(s.lastSession.Taken) && at.Before(s.startBaseline.Taken) {
		return s.lastSession, true
	}
	if !at.Before(s.startBaseline.Taken) {
		return s.startBaseline, true
	}
	if s.lastSession != nil {
		return s.lastSession, false
	}
	return s.startBaseline, false
}
