package session

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"time"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/plasticity"
	"github.com/m1nd-go/m1nd/core/snapshot"
)

// A save of learned state alone. Between two changes of the graph, queries
// change only what it learned (edge weights and counters, feedback memory,
// query memory), yet every auto-persist re-encoded the whole snapshot: on
// go-std 43 MB and ≈ 130 ms, on CPython's library 153 MB and 450–670 ms, every
// 50 queries. When the graph on disk is the one served, PersistLearned writes
// the plasticity file alone with learnedMeta inside it; that one file is the
// save's commit point, so states, memories and journal position are
// replaced together or not at all. The graph snapshot keeps its own, older
// learned state: a load takes the plasticity file's instead when it names
// the snapshot as its base (applyLearned), and the next full save folds it
// back in.

// learnedMeta is what a learned-only save keeps beside its states.
type learnedMeta struct {
	learnedHead
	Feedback    []plasticity.FeedbackRecord `json:"feedback"`
	QueryMemory []plasticity.QueryRecord    `json:"query_memory,omitempty"`
}

const learnedMetaFormat = 1

// learnedHead is learnedMeta without its memories, which writeTo streams
// record by record (a full query-memory ring is ≈ 3 MB of JSON on go-std:
// encoded whole, as much garbage every save).
type learnedHead struct {
	Format  int       `json:"m1nd_learned"`
	Save    uint64    `json:"save"`
	Stamp   string    `json:"stamp"`
	SavedAt time.Time `json:"saved_at"`
	// Base is the stamp of the graph snapshot these states belong to.
	Base string `json:"base"`
	// JournalSeq is the last learn call the states and Feedback hold.
	JournalSeq uint64 `json:"journal_seq"`
}

// writeTo writes m as one JSON object, which json.Unmarshal reads back as
// m (TestLearnedMetaWritten).
func (m *learnedMeta) writeTo(w io.Writer) error {
	head, err := json.Marshal(m.learnedHead)
	if err != nil {
		return err
	}
	w.Write(head[:len(head)-1])
	enc := json.NewEncoder(w)
	io.WriteString(w, `,"feedback":[`)
	for i := range m.Feedback {
		if i > 0 {
			io.WriteString(w, ",")
		}
		if err := enc.Encode(&m.Feedback[i]); err != nil {
			return err
		}
	}
	io.WriteString(w, `],"query_memory":[`)
	for i := range m.QueryMemory {
		if i > 0 {
			io.WriteString(w, ",")
		}
		if err := enc.Encode(&m.QueryMemory[i]); err != nil {
			return err
		}
	}
	_, err = io.WriteString(w, "]}")
	return err
}

// diskGraph is the graph snapshot on disk (persistedGen is the generation
// it holds): the stamp and ingest position it was saved with.
type diskGraph struct {
	stamp     string
	ingestSeq uint64
}

// PersistLearned saves the learned state alone when the graph on disk is
// the generation served (and its snapshot has a stamp to name), otherwise
// the whole graph as Persist does.
func (s *State) PersistLearned(reason string) (PersistResult, error) {
	return s.persistLearnedOr(reason, false)
}

// persistLearnedOr is PersistLearned, and Close's final save (closing).
func (s *State) persistLearnedOr(reason string, closing bool) (PersistResult, error) {
	s.persistMu.Lock()
	res, done, err := s.persistLearned(reason, closing)
	s.persistMu.Unlock()
	if done {
		return res, err
	}
	return s.persist(reason, closing)
}

// persistLearned is PersistLearned's save; done is false when the graph
// must be saved whole. persistMu held.
func (s *State) persistLearned(reason string, closing bool) (res PersistResult, done bool, err error) {
	start := time.Now()
	b := s.Current()
	d := s.onDisk.Load()
	if (s.closed.Load() && !closing) || s.cfg.PlasticityState == "" || d == nil || s.persistedGen.Load() != b.Gen {
		return res, false, nil
	}
	baseline := s.baselineBeside()
	j := s.journal
	j.mu.Lock()
	journalSeq, ingestSeq := s.cutPosition(b)
	m := learnedMeta{
		learnedHead: learnedHead{Format: learnedMetaFormat, Save: s.saves.Load() + 1, SavedAt: time.Now().UTC(), Base: d.stamp, JournalSeq: journalSeq},
		Feedback:    s.Plasticity.ExportFeedback(), QueryMemory: s.Plasticity.ExportQueryMemory(),
	}
	states := s.Plasticity.ExportState(b.Graph)
	j.mu.Unlock()
	baseline.Wait()
	if ingestSeq != d.ingestSeq {
		return res, false, nil // an ingest the snapshot lacks was answered
	}
	m.Stamp = fmt.Sprintf("save-%d-journal-%d", m.Save, m.JournalSeq)
	res = PersistResult{
		Reason: reason, PlasticityPath: s.cfg.PlasticityState, LearnedOnly: true,
		Nodes: b.Graph.NumNodes(), Edges: b.Graph.NumEdges(), PlasticityEdges: len(states), SaveStamp: m.Stamp,
	}
	err = snapshot.SavePlasticityWithMeta(s.cfg.PlasticityState, states, m.Stamp, m.writeTo)
	if err != nil {
		return res, true, s.persistFailed(fmt.Errorf("save learned state: %w", err))
	}
	s.saves.Store(m.Save)
	if path := s.RuntimePath(FeedbackFile); path != "" {
		s.saveFeedback(path, m.Stamp, m.Feedback)
	}
	j.mu.Lock()
	err = j.trim(m.JournalSeq)
	j.mu.Unlock()
	if err != nil {
		s.logf("learn journal not trimmed (it is replayed from the saved position, so nothing is applied twice): %v", err)
	}
	s.persistErr.Store(nil)
	s.lastPersist.Store(time.Now().UnixNano())
	res.ElapsedMs = float64(time.Since(start).Microseconds()) / 1000
	return res, true, nil
}

// applyLearned imports the plasticity file onto g, a graph loaded from the
// snapshot whose meta is m, and returns m as the load must continue from:
//
//   - a file saved with the snapshot (the same stamp): its states, which
//     the graph holds already;
//   - a learned-only save made on top of the snapshot (its base is m's
//     stamp): its states replace the graph's learned state, and its
//     feedback, query memory, journal position and save count replace m's;
//   - anything else (a save interrupted after the graph was written, a
//     file from another graph): the graph's own learned state.
func (s *State) applyLearned(g *graph.Graph, m stateMeta) stateMeta {
	if s.cfg.PlasticityState == "" {
		return m
	}
	states, fileStamp, raw, err := snapshot.LoadPlasticityWithMeta(s.cfg.PlasticityState)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return m
	case err != nil:
		s.logf("plasticity state not loaded: %v (learned weights start from the graph's)", err)
		return m
	case fileStamp == m.Stamp:
		s.importStates(g, states, s.Plasticity.ImportState)
		return m
	}
	var lm learnedMeta
	if len(raw) == 0 || json.Unmarshal(raw, &lm) != nil || lm.Format != learnedMetaFormat || lm.Base != m.Stamp || lm.Stamp != fileStamp || lm.JournalSeq < m.JournalSeq {
		s.logf("plasticity state is from %q, the graph from %q: using the graph's own learned weights", fileStamp, m.Stamp)
		return m
	}
	if !s.importStates(g, states, s.Plasticity.ReplaceState) {
		return m
	}
	// m.Stamp stays the snapshot's: the next learned-only save names it.
	m.Save = max(m.Save, lm.Save)
	m.JournalSeq, m.Feedback, m.QueryMemory = lm.JournalSeq, lm.Feedback, lm.QueryMemory
	return m
}

// LoadSaved reads the graph saved at the session's graph source as a
// restart would: the snapshot, with the learned weights saved beside it
// since (a learned-only save on top of it replaces the snapshot's own),
// without the journal's calls after that save. Tools that compare the
// saved graph with the served one (differential's "graph.bin") read it so:
// the snapshot alone lags behind every learned-only save and would show
// saved learning as unsaved.
func (s *State) LoadSaved() (*graph.Graph, error) {
	g, raw, err := snapshot.LoadWithMeta(s.cfg.GraphSource)
	if err != nil {
		return nil, err
	}
	s.withLearned(g, raw)
	return g, nil
}

// withLearned applies to g, a graph loaded from a snapshot whose meta is
// raw, the learned state saved beside it (applyLearned; loadPlasticity for
// a snapshot without meta) and returns the meta as the load continues
// from, and whether there is one.
func (s *State) withLearned(g *graph.Graph, raw []byte) (stateMeta, bool) {
	m, ok := parseStateMeta(raw)
	if !ok {
		s.loadPlasticity(g)
		return m, false
	}
	return s.applyLearned(g, m), true
}

// importStates applies states to g with imp and logs what it did.
func (s *State) importStates(g *graph.Graph, states []plasticity.SynapticState, imp func(*graph.Graph, []plasticity.SynapticState) (plasticity.ImportStats, error)) bool {
	st, err := imp(g, states)
	if err != nil {
		s.logf("plasticity state not applied: %v", err)
		return false
	}
	s.logf("plasticity state: %d records, %d applied, %d unmatched", st.Records, st.Applied, st.Unmatched)
	return true
}
