package session

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/plasticity"
	"github.com/m1nd-go/m1nd/core/snapshot"
)

// JournalFile is the learn journal in the runtime directory: one JSON line
// per acknowledged learn call since the last persist. A learn is answered
// only after its line is on disk (fsync), so a kill -9 loses none; a
// persist records in the graph snapshot the sequence number of the last
// call the graph holds and drops those lines; at start the lines after it
// are replayed.
const JournalFile = "learn.journal"

// JournalEntry is one learn call as the journal keeps it: nodes by
// external ID, so it replays on a graph rebuilt after a loss too.
type JournalEntry struct {
	Seq      uint64    `json:"seq"`
	Time     time.Time `json:"time"`
	Agent    string    `json:"agent_id,omitempty"`
	Query    string    `json:"query"`
	Feedback string    `json:"feedback"`
	Nodes    []string  `json:"nodes"`
	Strength float32   `json:"strength"`
	// Ingest is set on an ingest's record instead of a learn call's
	// (ingestjournal.go): the ingest was answered once this line was on
	// disk, and its snapshot is written behind the answer.
	Ingest *IngestRecord `json:"ingest,omitempty"`
}

// journal serialises learn calls against a persist's cut: mu is held while
// a call is journaled and applied, and while a persist takes its copy of
// the learned state, so the copy holds exactly the calls up to seq.
type journal struct {
	mu      sync.Mutex
	path    string // "" for a memory-only session
	f       *os.File
	seq     uint64         // last sequence number handed out
	entries []JournalEntry // on disk, not yet covered by a persist
}

// openJournal reads the journal at path (a torn last line — a crash
// mid-append — is ignored) and opens it for appending.
func openJournal(path string, logf func(string, ...any)) *journal {
	j := &journal{path: path}
	if path == "" {
		return j
	}
	data, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		logf("learn journal %s not read: %v", path, err)
	}
	for i, line := range bytes.Split(data, []byte{'\n'}) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var e JournalEntry
		if err := json.Unmarshal(line, &e); err != nil || e.Seq == 0 {
			logf("learn journal line %d skipped (torn or invalid)", i+1)
			continue
		}
		j.entries = append(j.entries, e)
		j.seq = max(j.seq, e.Seq)
	}
	return j
}

// after returns the entries with a sequence number above seq.
func (j *journal) after(seq uint64) []JournalEntry {
	var out []JournalEntry
	for _, e := range j.entries {
		if e.Seq > seq {
			out = append(out, e)
		}
	}
	return out
}

// append writes e (with the next sequence number) and syncs it. j.mu held.
func (j *journal) append(e JournalEntry) (JournalEntry, error) {
	e.Seq = j.seq + 1
	if j.path == "" {
		j.seq = e.Seq
		return e, nil
	}
	line, err := json.Marshal(e)
	if err != nil {
		return e, err
	}
	if err := j.open(); err != nil {
		return e, err
	}
	if _, err := j.f.Write(append(line, '\n')); err != nil {
		return e, err
	}
	if err := j.f.Sync(); err != nil {
		return e, err
	}
	j.seq = e.Seq
	j.entries = append(j.entries, e)
	return e, nil
}

// open opens the journal for appending (j.mu held, or before the session
// is shared). A journal it creates is made durable with its directory's
// fsync: an appended line is only as durable as the file's name.
func (j *journal) open() error {
	if j.f != nil || j.path == "" {
		return nil
	}
	_, statErr := os.Stat(j.path)
	f, err := os.OpenFile(j.path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	if errors.Is(statErr, fs.ErrNotExist) {
		// As WriteFileAtomic: a filesystem that refuses to fsync a
		// directory is not a reason to refuse the call.
		if d, derr := os.Open(filepath.Dir(j.path)); derr == nil {
			_ = d.Sync()
			d.Close()
		}
	}
	j.f = f
	return nil
}

// trim drops the entries a persist covered (seq and below), rewriting the
// file atomically with the rest. j.mu held.
func (j *journal) trim(seq uint64) error {
	kept := j.after(seq)
	if len(kept) == len(j.entries) || j.path == "" {
		return nil
	}
	if j.f != nil {
		j.f.Close()
		j.f = nil
	}
	err := snapshot.WriteFileAtomic(j.path, 0o644, func(w io.Writer) error {
		bw := bufio.NewWriter(w)
		enc := json.NewEncoder(bw)
		for _, e := range kept {
			if err := enc.Encode(e); err != nil {
				return err
			}
		}
		return bw.Flush()
	})
	if err != nil {
		return err
	}
	j.entries = kept
	return nil
}

func (j *journal) close() {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.f != nil {
		j.f.Close()
		j.f = nil
	}
}

// ErrNotDurable: a learn call could not be journaled, so it was refused.
var ErrNotDurable = errors.New("the learn call could not be made durable")

// Learn makes one learn call durable, then applies it: the call is
// journaled (written and synced) first, so an error there changes nothing
// and a call that was answered survives a kill -9. apply does the
// learning (through the query engine, so it is filed under the query's
// context). Learn calls are serialised with each other and with a
// persist's cut.
func (s *State) Learn(g *graph.Graph, agent string, req plasticity.LearnRequest, apply func(plasticity.LearnRequest) (plasticity.LearnResult, error)) (plasticity.LearnResult, error) {
	if req.Time.IsZero() {
		req.Time = s.Now()
	}
	e := JournalEntry{Time: req.Time, Agent: agent, Query: req.Query, Feedback: string(req.Feedback), Strength: req.Strength}
	for _, n := range req.Nodes {
		e.Nodes = append(e.Nodes, g.ExternalID(n))
	}
	j := s.journal
	j.mu.Lock()
	defer j.mu.Unlock()
	if _, err := j.append(e); err != nil {
		return plasticity.LearnResult{}, fmt.Errorf("%w (%v); nothing was learned", ErrNotDurable, err)
	}
	return apply(req)
}

// Durable reports whether acknowledged learn calls survive a crash (the
// session has a runtime directory to journal them in).
func (s *State) Durable() bool { return s.journal.path != "" }

// Now is the session's clock.
func (s *State) Now() time.Time {
	if s.now != nil {
		return s.now()
	}
	return time.Now()
}

// replay re-applies journal entries on b's graph, in order. Entries naming
// nodes the graph lacks apply to the nodes it has (or are skipped).
func (s *State) replay(b *Bundle, entries []JournalEntry) (applied int) {
	entries = learnsOnly(entries)
	if len(entries) == 0 {
		return 0
	}
	g := b.Graph
	eng, engErr := s.Engine(b)
	for _, e := range entries {
		fb, err := plasticity.ParseFeedback(e.Feedback)
		if err != nil {
			continue
		}
		req := plasticity.LearnRequest{Query: e.Query, Feedback: fb, Strength: e.Strength, Time: e.Time}
		for _, ext := range e.Nodes {
			if id, ok := g.Lookup(ext); ok {
				req.Nodes = append(req.Nodes, id)
			}
		}
		if len(req.Nodes) == 0 {
			continue
		}
		if engErr == nil {
			_, err = eng.Learn(req)
		} else {
			_, err = s.Plasticity.Learn(g, req)
		}
		if err == nil {
			applied++
		}
	}
	if applied > 0 {
		s.plasGen.Add(1)
	}
	s.logf("learn journal: replayed %d of %d acknowledged learn calls made after the last persist", applied, len(entries))
	return applied
}
