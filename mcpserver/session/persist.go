package session

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"sync"
	"time"

	"github.com/m1nd-go/m1nd/core/plasticity"
	"github.com/m1nd-go/m1nd/core/snapshot"
)

// PersistResult reports what a persist did.
type PersistResult struct {
	Reason          string `json:"reason"`
	GraphPath       string `json:"graph_path,omitempty"`
	PlasticityPath  string `json:"plasticity_path,omitempty"`
	Nodes           int    `json:"nodes"`
	Edges           int    `json:"edges"`
	PlasticityEdges int    `json:"plasticity_edges"`
	// SaveStamp names this save; the plasticity sidecar carries it too.
	SaveStamp string `json:"save_stamp,omitempty"`
	// LearnedOnly: the graph on disk was the one served, so only its
	// learned state was written (PersistLearned).
	LearnedOnly bool    `json:"learned_only,omitempty"`
	Skipped     string  `json:"skipped,omitempty"`
	ElapsedMs   float64 `json:"elapsed_ms"`
}

// Persist makes the served state durable as one generation, in this
// order:
//
//  1. the drift baseline of this session, once (it is the state the session
//     started from, so it agrees with any graph written after it);
//  2. the git history, in a file named by its digest (commits.go);
//  3. the graph snapshot with the state that must agree with it inside
//     (stateMeta: roots, feedback memory, journal position, save stamp) —
//     the commit point: a crash before its rename leaves the previous
//     generation whole, a crash after it leaves this one;
//  4. the sidecars that outlive a lost graph and that people read:
//     plasticity (stamped with the save), feedback memory, roots;
//  5. the learn journal, trimmed of the calls the graph now holds.
//
// An empty graph is never written: it cannot replace a saved one.
//
// Once the session is closed, only Close's own save runs: a background
// save (the daemon's quiet save, an auto-persist) firing after it would
// write into a runtime directory whose lock is released.
func (s *State) Persist(reason string) (PersistResult, error) {
	return s.persist(reason, false)
}

func (s *State) persist(reason string, closing bool) (PersistResult, error) {
	s.persistMu.Lock()
	defer s.persistMu.Unlock()
	start := time.Now()
	res := PersistResult{Reason: reason, GraphPath: s.cfg.GraphSource, PlasticityPath: s.cfg.PlasticityState}
	if s.closed.Load() && !closing {
		res.Skipped = "the session is closed (its shutdown saved the graph)"
		return res, nil
	}
	if !s.cfg.Persistent() {
		res.Skipped = "memory-only session: start the server with --runtime-dir (or M1ND_GRAPH_SOURCE) to persist"
		return res, nil
	}
	// The bundle is an immutable cut of the graph: a build (a daemon tick,
	// an apply_batch's reingest) may publish the next one while this one
	// is encoded and written, rather than wait seconds for a large graph's
	// save. takeCut pairs the weights with the learn journal's position;
	// persistedGen says which generation is on disk, so a later persist
	// saves the newer bundle.
	b := s.Current()
	res.Nodes, res.Edges = b.Graph.NumNodes(), b.Graph.NumEdges()
	if b.Graph.NumNodes() == 0 {
		res.Skipped = "the graph is empty; an existing snapshot is left untouched"
		return res, nil
	}
	// The session's drift baseline is written while the cut is encoded
	// (its fsyncs beside the CPU work), and is on disk before the graph.
	baseline := s.baselineBeside()
	c, err := s.takeCut(b)
	baseline.Wait()
	if err == nil {
		err = s.saveCommits(c.commits)
	}
	if err == nil {
		err = snapshot.WriteFileAtomic(s.cfg.GraphSource, 0o644, func(w io.Writer) error {
			_, err := c.graph.WriteTo(w)
			return err
		})
	}
	// The cut's copy of the learned state and the meta it encodes are
	// released before the sidecars allocate theirs: the save, not the
	// queries, sets the server's peak (activate-speed9.md).
	c.graph = nil
	if err != nil {
		return res, s.persistFailed(fmt.Errorf("save graph: %w", err))
	}
	s.saves.Store(c.meta.Save)
	s.persistedGen.Store(b.Gen)
	s.onDisk.Store(&diskGraph{stamp: c.meta.Stamp, ingestSeq: c.meta.IngestSeq})
	s.dropOtherCommits(c.meta.Commits)
	res.SaveStamp, res.PlasticityEdges = c.meta.Stamp, len(c.states)
	if err := s.writeSidecars(c); err != nil {
		return res, s.persistFailed(err)
	}
	s.journal.mu.Lock()
	err = s.journal.trim(c.meta.JournalSeq)
	s.journal.mu.Unlock()
	if err != nil {
		s.logf("learn journal not trimmed (it is replayed from the graph's position, so nothing is applied twice): %v", err)
	}
	s.persistErr.Store(nil)
	s.lastPersist.Store(time.Now().UnixNano())
	res.ElapsedMs = float64(time.Since(start).Microseconds()) / 1000
	return res, nil
}

// baselineBeside writes the session's drift baseline beside a save, once;
// the save waits for it before its commit point.
func (s *State) baselineBeside() *sync.WaitGroup {
	var wg sync.WaitGroup
	if !s.baselineSaved.Load() {
		wg.Go(func() {
			if s.saveBaseline() {
				s.baselineSaved.Store(true)
			}
		})
	}
	return &wg
}

func (s *State) persistFailed(err error) error {
	msg := err.Error()
	s.persistErr.Store(&msg)
	s.logf("WARNING: persist failed: %v", err)
	return err
}

// cut is the learned state at one instant, with the graph's snapshot
// taken at the same instant: no learn call runs between the journal
// position it records and the weights it holds. A binary snapshot is
// streamed to the file from the graph's arrays (only the learned per-edge
// state is copied here), so a large graph's save holds no copy of it.
type cut struct {
	meta    stateMeta
	graph   io.WriterTo
	states  []plasticity.SynapticState
	commits commitsBlob
}

func (s *State) takeCut(b *Bundle) (cut, error) {
	commits, err := s.encodedCommits(b)
	if err != nil {
		return cut{}, fmt.Errorf("encode git history: %w", err)
	}
	j := s.journal
	j.mu.Lock()
	defer j.mu.Unlock()
	journalSeq, ingestSeq := s.cutPosition(b)
	m := stateMeta{
		Format: stateMetaFormat, Save: s.saves.Load() + 1, SavedAt: time.Now().UTC(),
		Roots: b.Roots, JournalSeq: journalSeq, IngestSeq: ingestSeq, Feedback: s.Plasticity.ExportFeedback(), Files: b.Files,
		QueryMemory: s.Plasticity.ExportQueryMemory(), Commits: commits.digest,
	}
	if m.Roots == nil {
		m.Roots = []Root{}
	}
	m.Stamp = fmt.Sprintf("save-%d-journal-%d", m.Save, m.JournalSeq)
	raw, err := encodeMeta(b, m)
	if err != nil {
		return cut{}, err
	}
	// Under the plasticity lock: an activation's learning writes the
	// per-edge counters the snapshot copies (the weights are atomic, the
	// counters are not).
	var data io.WriterTo
	s.Plasticity.Locked(func() { data, err = snapshot.CutFor(b.Graph, raw, s.cfg.GraphSource) })
	if err != nil {
		return cut{}, err
	}
	return cut{meta: m, graph: data, states: s.Plasticity.ExportState(b.Graph), commits: commits}, nil
}

// writeSidecars writes the copies of learned state that outlive a lost
// graph (plasticity, feedback memory) and the roots file people read. The
// three are independent files written after the commit point, so they are
// written at once: their fsyncs overlap instead of queueing (six in a row
// were most of a small repository's durable ingest).
func (s *State) writeSidecars(c cut) error {
	var wg sync.WaitGroup
	var plastErr error
	if s.cfg.PlasticityState != "" {
		wg.Go(func() {
			if err := snapshot.SavePlasticityStamped(s.cfg.PlasticityState, c.states, c.meta.Stamp); err != nil {
				plastErr = fmt.Errorf("save plasticity (the graph was saved and holds the learned weights): %w", err)
			}
		})
	}
	if path := s.RuntimePath(FeedbackFile); path != "" {
		wg.Go(func() { s.saveFeedback(path, c.meta.Stamp, c.meta.Feedback) })
	}
	wg.Go(func() { s.saveRoots(c.meta.Roots) })
	wg.Wait()
	return plastErr
}

// saveFeedback writes the feedback memory sidecar; a failure is logged
// (the graph's meta holds the same records).
func (s *State) saveFeedback(path, stamp string, records []plasticity.FeedbackRecord) {
	doc := feedbackFile{Stamp: stamp, Records: records}
	if doc.Records == nil {
		doc.Records = []plasticity.FeedbackRecord{}
	}
	err := snapshot.WriteFileAtomic(path, 0o644, func(w io.Writer) error { return json.NewEncoder(w).Encode(doc) })
	if err != nil {
		s.logf("WARNING: feedback memory sidecar not written (the graph holds it): %v", err)
	}
}

// PersistedGen is the graph generation the last successful persist wrote
// (the loaded one after a start; 0 when none).
func (s *State) PersistedGen() uint64 { return s.persistedGen.Load() }

// LoadFromDisk replaces the in-memory graph with the saved snapshot (its
// roots and learned weights): an explicit return to the last persisted
// state. A missing or unreadable file changes nothing.
func (s *State) LoadFromDisk() (*Bundle, error) {
	if !s.cfg.Persistent() {
		return nil, errors.New("memory-only session: there is no snapshot to load (start with --runtime-dir)")
	}
	var disk *diskGraph
	b, err := s.BuildBundle("loaded", func(old *Bundle) (*Bundle, error) {
		g, raw, err := snapshot.LoadWithMeta(s.cfg.GraphSource)
		if err != nil {
			return nil, fmt.Errorf("load %s: %w (the in-memory graph is unchanged)", s.cfg.GraphSource, err)
		}
		nb := &Bundle{Graph: g, Roots: old.Roots}
		if m, ok := s.withLearned(g, raw); ok {
			nb.Roots, nb.Files = m.Roots, m.Files
			nb.Commits = s.loadCommits(m.Commits)
			disk = &diskGraph{stamp: m.Stamp, ingestSeq: m.IngestSeq}
		}
		return nb, nil
	})
	if err == nil {
		s.persistedGen.Store(b.Gen)
		s.onDisk.Store(disk)
	}
	return b, err
}

// RuntimePath returns a path inside the runtime directory for a sidecar,
// or "" for a memory-only session.
func (s *State) RuntimePath(name string) string {
	if s.cfg.RuntimeDir == "" {
		return ""
	}
	return filepath.Join(s.cfg.RuntimeDir, name)
}
