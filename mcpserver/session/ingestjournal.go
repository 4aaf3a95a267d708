package session

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sort"
)

// An ingest is answered once its record is in the learn journal (one
// line, one fsync) rather than once its snapshot is (a file of 1–40 MB,
// its fsync and its directory's): the snapshot is written behind the
// answer (PersistBehind). A crash between the two loses nothing the
// answer claimed: at start the records past the snapshot are found
// (loadAtStart) and their ingests run again with the same arguments
// (RecoverJournal), with the learn calls journaled between them replayed
// in their order.
//
// Which records a snapshot holds: each bundle carries IngestSeq, the
// journal position of the record whose ingest built it (inherited by the
// bundles built from it), and a snapshot saves it (stateMeta.IngestSeq).
// A learn call journaled after a later record was applied to that later
// graph, so a snapshot of an older bundle claims the journal only up to
// that record (takeCut).

// IngestRecord is what the journal keeps of an answered ingest.
type IngestRecord struct {
	// Gen is the generation the ingest published.
	Gen uint64 `json:"gen"`
	// Args are the ingest tool's arguments: a restart runs it again.
	Args json.RawMessage `json:"args"`
	// Root is the directory it read, absolute: a root ingested before,
	// so the restart may read it again (AllowedRoots).
	Root string `json:"root"`
	// Nodes, Edges and Inputs are what the answer claimed: the size of the
	// graph served and a digest of what it was built from (InputsDigest).
	// A rebuild that reads the same inputs builds the same graph.
	Nodes  int    `json:"nodes"`
	Edges  int    `json:"edges"`
	Inputs string `json:"inputs"`
}

// InputsDigest digests what b's graph was built from: each root's path,
// adapter, namespace and git head, and each root's run key and file and
// directory stamps (size, mtime). Times of ingest are left out.
func InputsDigest(b *Bundle) string {
	type rootIn struct{ Path, Adapter, Namespace, Name, Mode, Head string }
	var roots []rootIn
	for _, r := range b.Roots {
		roots = append(roots, rootIn{r.Path, r.Adapter, r.Namespace, r.Name, r.Mode, r.GitHead})
	}
	sort.Slice(roots, func(i, j int) bool { return roots[i].Path < roots[j].Path })
	raw, _ := json.Marshal(struct {
		Roots []rootIn
		Files []RootFiles
	}{roots, b.Files})
	sum := sha256.Sum256(raw)
	return hex.EncodeToString(sum[:12])
}

// JournalIngest records nb's ingest in the journal and stamps nb with
// the record's position. Call it from the build function given to
// BuildBundle (the record is on disk before anyone can read nb), with
// rec.Gen the generation nb will get. It reports false for a session that
// does not persist (nothing to journal), and an error when the record
// could not be made durable: the caller then saves the snapshot itself.
func (s *State) JournalIngest(nb *Bundle, rec IngestRecord) (bool, error) {
	if !s.cfg.Persistent() {
		return false, nil
	}
	j := s.journal
	j.mu.Lock()
	defer j.mu.Unlock()
	e, err := j.append(JournalEntry{Time: s.Now(), Ingest: &rec})
	if err != nil {
		return false, fmt.Errorf("journal the ingest (its snapshot is saved before the answer instead): %w", err)
	}
	nb.IngestSeq = e.Seq
	return true, nil
}

// learnsOnly drops ingest records from entries.
func learnsOnly(entries []JournalEntry) []JournalEntry {
	out := entries[:0:0]
	for _, e := range entries {
		if e.Ingest == nil {
			out = append(out, e)
		}
	}
	return out
}

// cutPosition is the journal position and the ingest record a snapshot
// of b holds (j.mu held): every learn call journaled so far, unless the
// journal holds the record of an ingest newer than b — calls after it
// were applied to that ingest's graph, not to b's.
func (s *State) cutPosition(b *Bundle) (journalSeq, ingestSeq uint64) {
	j := s.journal
	ingestSeq = max(b.IngestSeq, s.ingestFloor.Load())
	journalSeq = j.seq
	for _, e := range j.entries {
		if e.Ingest != nil && e.Seq > ingestSeq {
			return min(journalSeq, e.Seq-1), ingestSeq
		}
	}
	return journalSeq, ingestSeq
}

// splitRecovery replays on b the learn calls journaled after the
// snapshot and before the first ingest record it does not hold, and
// keeps that record and every entry after it for RecoverJournal.
func (s *State) splitRecovery(b *Bundle, m stateMeta) {
	entries := s.journal.after(m.JournalSeq)
	i := 0
	for i < len(entries) && (entries[i].Ingest == nil || entries[i].Seq <= m.IngestSeq) {
		i++
	}
	s.replay(b, entries[:i])
	if i < len(entries) {
		s.recovery = entries[i:]
		s.logf("journal: %d answered ingest(s) past the snapshot (written behind their answers, not saved before a stop): they are built again", countIngests(s.recovery))
	}
}

func countIngests(entries []JournalEntry) int {
	n := 0
	for _, e := range entries {
		if e.Ingest != nil {
			n++
		}
	}
	return n
}

// PendingRecovery reports whether the journal holds answered ingests the
// snapshot does not (RecoverJournal brings them back).
func (s *State) PendingRecovery() bool { return len(s.recovery) > 0 }

// RecoveredIngest says what a restart did with one journaled ingest.
type RecoveredIngest struct {
	Seq    uint64       `json:"seq"`
	Record IngestRecord `json:"record"`
	// Outcome: "restored" (the same inputs and graph size as answered),
	// "rebuilt_changed" (built again from inputs that changed since the
	// answer: the graph is the tree's as it is now), "failed".
	Outcome string `json:"outcome"`
	Nodes   int    `json:"nodes"`
	Edges   int    `json:"edges"`
	Error   string `json:"error,omitempty"`
}

// RecoverJournal builds again the ingests answered but not saved before
// the last stop, in journal order, replaying the learn calls journaled
// between them on the graph each applied to; then it saves. rebuild runs
// one ingest with the record's arguments and publishes it through
// BuildBundle, stamping the new bundle's IngestSeq with seq. Call it once,
// after Open and before serving.
func (s *State) RecoverJournal(rebuild func(seq uint64, rec IngestRecord) (*Bundle, error)) []RecoveredIngest {
	entries := s.recovery
	s.recovery = nil
	s.clientMu.Lock()
	for _, e := range entries {
		if e.Ingest != nil && e.Ingest.Root != "" {
			s.recoveryRoots = append(s.recoveryRoots, e.Ingest.Root)
		}
	}
	s.clientMu.Unlock()
	defer func() {
		s.clientMu.Lock()
		s.recoveryRoots = nil
		s.clientMu.Unlock()
	}()
	var out []RecoveredIngest
	for _, e := range entries {
		if e.Ingest == nil {
			s.journal.mu.Lock()
			s.replay(s.Current(), []JournalEntry{e})
			s.journal.mu.Unlock()
			continue
		}
		out = append(out, s.recoverOne(e, rebuild))
		s.ingestFloor.Store(max(s.ingestFloor.Load(), e.Seq))
	}
	if len(out) > 0 {
		if _, err := s.Persist("recovered journaled ingest"); err != nil {
			s.logf("the recovered graph is served but not saved (the journal keeps its records): %v", err)
		}
	}
	return out
}

// recoverOne runs one journaled ingest again and compares what it built
// with what the answer claimed.
func (s *State) recoverOne(e JournalEntry, rebuild func(uint64, IngestRecord) (*Bundle, error)) RecoveredIngest {
	rec := *e.Ingest
	r := RecoveredIngest{Seq: e.Seq, Record: rec}
	nb, err := rebuild(e.Seq, rec)
	if err != nil {
		r.Outcome, r.Error = "failed", err.Error()
		s.logf("journal: the ingest answered at %s (%s; %d nodes, %d edges) could not be built again: %v — serving the graph before it",
			e.Time.Format("2006-01-02T15:04:05Z07:00"), rec.Args, rec.Nodes, rec.Edges, err)
		return r
	}
	r.Nodes, r.Edges = nb.Graph.NumNodes(), nb.Graph.NumEdges()
	if r.Nodes == rec.Nodes && r.Edges == rec.Edges && InputsDigest(nb) == rec.Inputs {
		r.Outcome = "restored"
		s.logf("journal: restored the ingest answered at %s (%s): %d nodes, %d edges, the same inputs", e.Time.Format("2006-01-02T15:04:05Z07:00"), rec.Args, r.Nodes, r.Edges)
		return r
	}
	r.Outcome = "rebuilt_changed"
	s.logf("journal: the ingest answered at %s (%s; %d nodes, %d edges) was built again from files that changed since: %d nodes, %d edges — the graph describes the tree as it is now",
		e.Time.Format("2006-01-02T15:04:05Z07:00"), rec.Args, rec.Nodes, rec.Edges, r.Nodes, r.Edges)
	return r
}

// PersistBehind saves the current graph in the background, after an
// ingest answered on its journal record: saves coalesce (one runs at a
// time; a request made while it runs makes it run once more, for the
// newest bundle). Close's own save covers one that never began.
func (s *State) PersistBehind(reason string) {
	if !s.cfg.Persistent() {
		return
	}
	s.behindWant.Store(true)
	if !s.behindBusy.CompareAndSwap(false, true) {
		return
	}
	s.Go("persist behind "+reason, func(ctx context.Context) error {
		for {
			s.behindWant.Store(false)
			if ctx.Err() != nil {
				s.behindBusy.Store(false)
				return nil
			}
			_, err := s.Persist(reason)
			s.behindBusy.Store(false)
			if err != nil {
				return fmt.Errorf("failed (the journal keeps the ingest; a restart builds it again): %w", err)
			}
			if !s.behindWant.Load() || !s.behindBusy.CompareAndSwap(false, true) {
				return nil
			}
		}
	})
}
