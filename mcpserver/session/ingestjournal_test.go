package session

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/graph/graphtest"
	"github.com/m1nd-go/m1nd/core/plasticity"
)

// ingestB is the graph "ingest B" builds: the same every time, as an
// ingest of unchanged files is.
func ingestB() *graph.Graph { return graphtest.PowerLaw(300, 900, 6) }

var repoRoots = []Root{{Path: "/repo", Adapter: "code", Mode: "replace"}}

// journalIngest publishes g as the ingest tool does (BuildJournaled): its
// record is on disk before the bundle is published; no snapshot follows.
func journalIngest(t *testing.T, s *State, g *graph.Graph, args string) *Bundle {
	t.Helper()
	nb, err := s.BuildBundle("graph_replaced", func(old *Bundle) (*Bundle, error) {
		nb := &Bundle{Graph: g, Roots: repoRoots}
		rec := IngestRecord{Gen: old.Gen + 1, Args: json.RawMessage(args), Nodes: g.NumNodes(), Edges: g.NumEdges(), Inputs: InputsDigest(nb)}
		if ok, err := s.JournalIngest(nb, rec); !ok || err != nil {
			t.Fatalf("journal the ingest: %v %v", ok, err)
		}
		return nb, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return nb
}

// rebuildWith is RecoverJournal's rebuild for these tests: it runs "ingest
// B" again (make builds its graph) and checks the record's arguments.
func rebuildWith(t *testing.T, s *State, make func() *graph.Graph) func(uint64, IngestRecord) (*Bundle, error) {
	return func(seq uint64, rec IngestRecord) (*Bundle, error) {
		if string(rec.Args) != `{"path":"/repo"}` {
			t.Errorf("record args %s", rec.Args)
		}
		return s.BuildBundle("graph_replaced", func(old *Bundle) (*Bundle, error) {
			return &Bundle{Graph: make(), Roots: repoRoots, IngestSeq: seq}, nil
		})
	}
}

// A crash after an ingest was answered on its journal record and before
// its snapshot was written: the restart loads the older snapshot, builds
// the ingest again from the record, and replays the learn calls in their
// order — those before the ingest on the old graph (carried over by the
// rebuild as they were live), those after it on the new one — then saves,
// so a second restart loads it with nothing left to do.
func TestJournaledIngestSurvivesCrashBeforeSnapshot(t *testing.T) {
	dir := t.TempDir()
	s := openAt(t, dir)
	publish(t, s, graphtest.PowerLaw(300, 800, 5))
	if _, err := s.Persist("manual"); err != nil {
		t.Fatal(err)
	}
	learnOn(t, s, 10, plasticity.Correct) // on the saved graph A
	journalIngest(t, s, ingestB(), `{"path":"/repo"}`)
	learnOn(t, s, 11, plasticity.Wrong) // on B, which is not saved
	learnOn(t, s, 12, plasticity.Correct)
	want, wantFb := weights(s.Current().Graph), s.Plasticity.FeedbackRecords()
	crash(s)

	s2 := openAt(t, dir)
	if !s2.PendingRecovery() || s2.Current().Graph.NumEdges() == len(want) {
		t.Fatalf("restart: pending recovery %v, %d edges loaded (the snapshot holds A, not B)", s2.PendingRecovery(), s2.Current().Graph.NumEdges())
	}
	got := s2.RecoverJournal(rebuildWith(t, s2, ingestB))
	if len(got) != 1 || got[0].Outcome != "restored" {
		t.Fatalf("recovered %+v, want one restored ingest", got)
	}
	sameWeights(t, "after the recovery", weights(s2.Current().Graph), want)
	if n := s2.Plasticity.FeedbackRecords(); n != wantFb {
		t.Errorf("feedback memory %d records, want %d", n, wantFb)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, JournalFile)); len(data) != 0 {
		t.Errorf("journal not trimmed after the recovery's save: %q", data)
	}
	crash(s2)
	s3 := openAt(t, dir)
	defer s3.Close()
	if s3.PendingRecovery() {
		t.Error("a second restart still has ingests to recover")
	}
	sameWeights(t, "after a second restart", weights(s3.Current().Graph), want)
}

// A rebuild from inputs that changed since the answer is served, and
// said to be a different graph than the one answered.
func TestJournaledIngestRebuiltFromChangedInputs(t *testing.T) {
	dir := t.TempDir()
	s := openAt(t, dir)
	publish(t, s, graphtest.PowerLaw(300, 800, 5))
	if _, err := s.Persist("manual"); err != nil {
		t.Fatal(err)
	}
	journalIngest(t, s, ingestB(), `{"path":"/repo"}`)
	crash(s)
	s2 := openAt(t, dir)
	defer s2.Close()
	changed := func() *graph.Graph { return graphtest.PowerLaw(300, 700, 7) }
	got := s2.RecoverJournal(rebuildWith(t, s2, changed))
	if len(got) != 1 || got[0].Outcome != "rebuilt_changed" || got[0].Record.Edges == got[0].Edges {
		t.Fatalf("recovered %+v, want one rebuilt_changed with the answered and the rebuilt sizes", got)
	}
}

// A save of a bundle older than a journaled ingest (a background save
// that took its bundle before the ingest published) claims the journal
// only up to that ingest's record: the learn calls after it were applied
// to the ingest's graph, not to the one saved, and must stay in the
// journal.
func TestOlderBundleCutStopsAtTheNextIngestRecord(t *testing.T) {
	s := openAt(t, t.TempDir())
	defer s.Close()
	publish(t, s, graphtest.PowerLaw(300, 800, 5))
	older := s.Current()
	learnOn(t, s, 10, plasticity.Correct)
	nb := journalIngest(t, s, ingestB(), `{"path":"/repo"}`)
	learnOn(t, s, 11, plasticity.Wrong)

	c, err := s.takeCut(older)
	if err != nil {
		t.Fatal(err)
	}
	if c.meta.JournalSeq != nb.IngestSeq-1 || c.meta.IngestSeq != older.IngestSeq {
		t.Errorf("cut of the older bundle: journal %d, ingest %d; want %d (before the ingest record) and %d",
			c.meta.JournalSeq, c.meta.IngestSeq, nb.IngestSeq-1, older.IngestSeq)
	}
	c, err = s.takeCut(s.Current())
	if err != nil {
		t.Fatal(err)
	}
	if c.meta.JournalSeq != nb.IngestSeq+1 || c.meta.IngestSeq != nb.IngestSeq {
		t.Errorf("cut of the ingest's bundle: journal %d, ingest %d; want %d and %d", c.meta.JournalSeq, c.meta.IngestSeq, nb.IngestSeq+1, nb.IngestSeq)
	}
}

// A save empties the journal; the next process must not number its calls
// from 1 again, below the position the snapshot claims to hold, or a call
// answered after the restart is taken as saved and lost to a crash.
func TestJournalPositionsGoOnAfterAnEmptyingSave(t *testing.T) {
	dir := t.TempDir()
	s := openAt(t, dir)
	publish(t, s, graphtest.PowerLaw(300, 800, 5))
	learnOn(t, s, 10, plasticity.Correct)
	learnOn(t, s, 11, plasticity.Correct)
	if _, err := s.Persist("manual"); err != nil {
		t.Fatal(err)
	}
	crash(s)
	s2 := openAt(t, dir)
	learnOn(t, s2, 12, plasticity.Wrong) // answered, journaled, never saved
	want := weights(s2.Current().Graph)
	crash(s2)
	s3 := openAt(t, dir)
	defer s3.Close()
	sameWeights(t, "a call after a restart whose journal a save had emptied", weights(s3.Current().Graph), want)
}
