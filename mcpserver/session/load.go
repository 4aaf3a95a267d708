package session

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"time"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/plasticity"
	"github.com/m1nd-go/m1nd/core/snapshot"
)

// stateMeta is what the session stores inside the graph snapshot
// (snapshot.SaveWithMeta): the state that must agree with the graph, so a
// crash can never pair one repository's graph with another's roots, or a
// graph with the learning of another moment.
type stateMeta struct {
	Format  int       `json:"m1nd_state"`
	Save    uint64    `json:"save"`
	Stamp   string    `json:"stamp"`
	SavedAt time.Time `json:"saved_at"`
	Roots   []Root    `json:"roots"`
	// JournalSeq is the last learn call the graph's weights and Feedback
	// hold; the journal's later entries are replayed on load.
	JournalSeq uint64 `json:"journal_seq"`
	// IngestSeq is the journal position of the last answered ingest the
	// graph holds (ingestjournal.go); later ones are built again on load.
	IngestSeq uint64                      `json:"ingest_seq,omitempty"`
	Feedback  []plasticity.FeedbackRecord `json:"feedback"`
	// Files are the roots' file stamps (staleness after a restart).
	Files []RootFiles `json:"files,omitempty"`
	// QueryMemory is the priming ring (recent queries and what they lit).
	QueryMemory []plasticity.QueryRecord `json:"query_memory,omitempty"`
	// Commits is the digest of the git history saved beside the graph
	// (commits.go); "" when the graph has none.
	Commits string `json:"commits,omitempty"`
}

const stateMetaFormat = 1

func parseStateMeta(raw []byte) (stateMeta, bool) {
	var m stateMeta
	if len(raw) == 0 || json.Unmarshal(raw, &m) != nil || m.Format != stateMetaFormat || m.Stamp == "" {
		return stateMeta{}, false
	}
	return m, true
}

// stampSeq returns the journal position a save stamp names.
func stampSeq(stamp string) (uint64, bool) {
	var save, seq uint64
	if _, err := fmt.Sscanf(stamp, "save-%d-journal-%d", &save, &seq); err != nil {
		return 0, false
	}
	return seq, true
}

// FeedbackFile is the sidecar holding learn's per-query verdicts, a copy of
// what the graph snapshot holds that survives the graph's loss.
const FeedbackFile = "feedback.json"

type feedbackFile struct {
	Stamp   string                      `json:"stamp"`
	Records []plasticity.FeedbackRecord `json:"records"`
}

// loadAtStart loads the configured snapshot with the state saved inside it,
// then replays the learn calls journaled after it. A missing graph is a
// fresh start; an unreadable one is moved aside (never silently
// overwritten later) and the server starts empty, saying so. Either way
// learned state found beside it waits for the next graph (recoverLearned).
func (s *State) loadAtStart() error {
	if !s.cfg.Persistent() {
		s.logf("no runtime directory or M1ND_GRAPH_SOURCE: the graph lives in memory only (use --runtime-dir to persist)")
		return nil
	}
	g, raw, err := snapshot.LoadWithMeta(s.cfg.GraphSource)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		s.logf("no graph snapshot at %s, starting fresh", s.cfg.GraphSource)
		s.recoverLearned()
		return nil
	case err != nil:
		aside := fmt.Sprintf("%s.unreadable-%s", s.cfg.GraphSource, time.Now().UTC().Format("20060102T150405Z"))
		if rerr := os.Rename(s.cfg.GraphSource, aside); rerr != nil {
			return fmt.Errorf("graph snapshot %s cannot be loaded (%v) and cannot be moved aside (%v); fix or remove it before starting", s.cfg.GraphSource, err, rerr)
		}
		s.logf("graph snapshot could not be loaded (%v); kept it as %s and starting with an empty graph", err, aside)
		s.recoverLearned()
		return nil
	}
	b := &Bundle{Graph: g, Gen: 1}
	m, hasMeta := parseStateMeta(raw)
	if hasMeta {
		s.onDisk.Store(&diskGraph{stamp: m.Stamp, ingestSeq: m.IngestSeq})
		m = s.applyLearned(g, m)
		// Positions go on from the snapshot's: a journal the last save
		// emptied must not hand out numbers the snapshot claims to hold.
		s.journal.seq = max(s.journal.seq, m.JournalSeq, m.IngestSeq)
		b.IngestSeq = m.IngestSeq
		b.Roots, b.Files = m.Roots, m.Files
		b.Commits = s.loadCommits(m.Commits)
		s.saves.Store(m.Save)
	} else {
		b.Roots = s.loadRoots() // a snapshot from before meta, or written by another tool
	}
	s.cur.Store(b)
	s.persistedGen.Store(b.Gen)
	s.logf("loaded graph %s: %d nodes, %d edges", s.cfg.GraphSource, g.NumNodes(), g.NumEdges())
	if !hasMeta {
		s.loadPlasticity(g)
		s.loadFeedback()
		s.replay(b, s.journal.entries)
		return nil
	}
	s.feedbackLoaded.Store(true)
	if err := s.Plasticity.ImportFeedback(m.Feedback); err != nil {
		s.logf("feedback memory in the snapshot not loaded: %v", err)
	}
	if err := s.Plasticity.ImportQueryMemory(m.QueryMemory); err != nil {
		s.logf("query memory in the snapshot not loaded: %v", err)
	}
	s.splitRecovery(b, m)
	return nil
}

// loadPlasticity imports the plasticity sidecar onto g, a graph whose
// snapshot has no meta to pair it with (applyLearned does for one that has).
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
	s.importStates(g, states, s.Plasticity.ImportState)
}

// loadFeedback imports the feedback sidecar once per process and returns
// its stamp ("" for a file from before stamps, or none).
func (s *State) loadFeedback() string {
	path := s.RuntimePath(FeedbackFile)
	if path == "" || s.feedbackLoaded.Swap(true) {
		return ""
	}
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return ""
	}
	var doc feedbackFile
	if err == nil {
		if len(data) > 0 && data[0] == '[' { // before stamps: a bare array
			err = json.Unmarshal(data, &doc.Records)
		} else {
			err = json.Unmarshal(data, &doc)
		}
	}
	if err == nil {
		err = s.Plasticity.ImportFeedback(doc.Records)
	}
	if err != nil {
		s.logf("feedback memory not loaded: %v (learned verdicts start empty)", err)
		return ""
	}
	s.logf("feedback memory: %d records", len(doc.Records))
	return doc.Stamp
}

// pendingLearned is learned state saved beside a graph that is gone: it
// waits for the next graph built (BuildBundle) and is applied there by
// edge identity, then the journaled calls after it are replayed.
type pendingLearned struct {
	states  []plasticity.SynapticState
	entries []JournalEntry
}

// recoverLearned keeps what was learned when the graph itself is lost
// (deleted, or unreadable and moved aside): feedback memory is loaded now,
// the plasticity records and the journal wait for the next graph, and a
// copy of the plasticity file is kept aside, since the next persist
// rewrites it from that graph.
func (s *State) recoverLearned() {
	fbStamp := s.loadFeedback()
	var states []plasticity.SynapticState
	var stamp string
	if s.cfg.PlasticityState != "" {
		var err error
		states, stamp, err = snapshot.LoadPlasticityStamped(s.cfg.PlasticityState)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			s.logf("plasticity state not loaded: %v", err)
		}
		if err == nil {
			s.keepAside(s.cfg.PlasticityState)
		}
	}
	// Replay from the older of the two copies' positions: a call might
	// strengthen an edge twice, none is lost.
	from := uint64(0)
	if seq, ok := stampSeq(stamp); ok {
		from = seq
		if fseq, ok := stampSeq(fbStamp); ok && fseq < from {
			from = fseq
		}
	}
	entries := s.journal.after(from)
	// Ingests answered on their journal record and never saved are built
	// again (RecoverJournal); the learn calls wait for the first of them.
	for _, e := range s.journal.entries {
		if e.Ingest != nil {
			s.recovery = append(s.recovery, e)
		}
	}
	if len(states) == 0 && len(entries) == 0 {
		return
	}
	s.pending = &pendingLearned{states: states, entries: entries}
	s.logf("learned state kept for the next graph: %d plasticity records, %d journaled learn calls (they are applied after the next ingest)", len(states), len(entries))
}

// keepAside copies path to path.kept-<time>, so learned state that may not
// all match the next graph is never destroyed by the next persist.
func (s *State) keepAside(path string) {
	aside := fmt.Sprintf("%s.kept-%s", path, time.Now().UTC().Format("20060102T150405Z"))
	src, err := os.Open(path)
	if err != nil {
		return
	}
	defer src.Close()
	err = snapshot.WriteFileAtomic(aside, 0o644, func(w io.Writer) error {
		_, err := io.Copy(w, src)
		return err
	})
	if err != nil {
		s.logf("could not keep a copy of %s: %v", path, err)
		return
	}
	s.logf("kept a copy of %s as %s", path, aside)
}

// applyPending applies learned state saved beside a lost graph to the
// first graph built after it (buildMu held). It reports whether there was
// any, so the caller replays the journal once the bundle exists.
func (s *State) applyPending(g *graph.Graph) *pendingLearned {
	p := s.pending
	if p == nil {
		return nil
	}
	s.pending = nil
	if len(p.states) > 0 {
		st, err := s.Plasticity.ImportState(g, p.states)
		if err != nil {
			s.logf("kept plasticity state not applied: %v", err)
		} else {
			s.logf("kept plasticity state applied to the new graph: %d of %d records matched", st.Applied, st.Records)
		}
	}
	return p
}
