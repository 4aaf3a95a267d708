package session

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/graph/graphtest"
	"github.com/m1nd-go/m1nd/core/plasticity"
)

// learnedState is everything a save of learned state alone must bring
// back: per-edge state, feedback memory and query memory.
type learnedState struct {
	Edges    []plasticity.SynapticState
	Feedback []plasticity.FeedbackRecord
	Memory   []plasticity.QueryRecord
}

func learnedOf(s *State) learnedState {
	return learnedState{s.Plasticity.ExportState(s.Current().Graph), s.Plasticity.ExportFeedback(), s.Plasticity.ExportQueryMemory()}
}

// learnAsServed is learnOn through the query engine, as the server learns
// and as a restart replays the journal.
func learnAsServed(t *testing.T, s *State, n graph.NodeID, fb plasticity.Feedback) {
	t.Helper()
	b := s.Current()
	eng, err := s.Engine(b)
	if err != nil {
		t.Fatal(err)
	}
	req := plasticity.LearnRequest{Query: "pool handling", Feedback: fb, Nodes: []graph.NodeID{n}, Strength: 1}
	if _, err := s.Learn(b.Graph, "tester", req, eng.Learn); err != nil {
		t.Fatal(err)
	}
}

func remember(t *testing.T, s *State, text string, seed graph.NodeID) {
	t.Helper()
	q := plasticity.Query{Text: text, Seeds: []graph.NodeID{seed}, Activated: []graph.Scored{{Node: seed, Score: 1}, {Node: seed + 1, Score: 0.5}}}
	if _, err := s.Plasticity.Update(s.Current().Graph, q); err != nil {
		t.Fatal(err)
	}
}

// unlearn puts an edge that has learned back to its state at ingest, as an
// import of a plain record does: a state the saved graph does not have.
func unlearn(t *testing.T, s *State) {
	t.Helper()
	g := s.Current().Graph
	e := g.MaybeLearned(nil)[0]
	orig := g.EdgePlasticity().Original[e]
	rec := plasticity.SynapticState{SourceLabel: g.ExternalID(g.Source(e)), TargetLabel: g.ExternalID(g.Target(e)), Relation: g.RelationName(e), OriginalWeight: orig, CurrentWeight: orig}
	if _, err := s.Plasticity.ImportState(g, []plasticity.SynapticState{rec}); err != nil {
		t.Fatal(err)
	}
}

// TestLearnedOnlySave: an auto-persist on the graph already on disk writes
// the learned state alone (the snapshot's bytes unchanged), and a restart
// after a kill brings back exactly the learned state of that save plus the
// learn calls journaled after it — an edge that went back to its state at
// ingest included. Once the graph changes, the save is whole again.
func TestLearnedOnlySave(t *testing.T) {
	dir := t.TempDir()
	graphPath := filepath.Join(dir, DefaultGraphFile)
	s := openAt(t, dir)
	publish(t, s, graphtest.PowerLaw(300, 800, 7))
	learnOn(t, s, 20, plasticity.Correct)
	remember(t, s, "pool", 3)
	if _, err := s.Persist("manual"); err != nil {
		t.Fatal(err)
	}
	saved, _ := os.ReadFile(graphPath)

	learnOn(t, s, 21, plasticity.Wrong)
	remember(t, s, "queue", 40)
	unlearn(t, s)
	res, err := s.PersistLearned("auto")
	if err != nil || !res.LearnedOnly || res.GraphPath != "" {
		t.Fatalf("PersistLearned on the saved graph: %+v, %v; want a learned-only save", res, err)
	}
	if now, _ := os.ReadFile(graphPath); !bytes.Equal(now, saved) {
		t.Fatal("a learned-only save rewrote the graph snapshot")
	}
	if data, _ := os.ReadFile(filepath.Join(dir, JournalFile)); len(data) != 0 {
		t.Errorf("journal not trimmed after a learned-only save: %q", data)
	}
	learnAsServed(t, s, 22, plasticity.Correct) // journaled after the save
	want := learnedOf(s)
	crash(s)

	s2 := openAt(t, dir)
	if diff := cmp.Diff(want, learnedOf(s2)); diff != "" {
		t.Fatalf("learned state after a kill (-before +after):\n%s", diff)
	}
	// The loaded snapshot is the one on disk: the next save is learned-only
	// too, and a change of the graph makes it whole.
	if res, err := s2.PersistLearned("auto"); err != nil || !res.LearnedOnly {
		t.Fatalf("PersistLearned after a restart: %+v, %v", res, err)
	}
	publish(t, s2, graphtest.PowerLaw(300, 800, 8))
	if res, err := s2.PersistLearned("auto"); err != nil || res.LearnedOnly {
		t.Fatalf("PersistLearned after the graph changed: %+v, %v; want the whole graph saved", res, err)
	}
	want = learnedOf(s2)
	crash(s2)
	s3 := openAt(t, dir)
	defer s3.Close()
	if diff := cmp.Diff(want, learnedOf(s3)); diff != "" {
		t.Fatalf("learned state after a whole save and a kill (-before +after):\n%s", diff)
	}
}

// A whole save after learned-only ones, killed after the graph's rename
// but before the plasticity file and the journal trim: the plasticity file
// names the older snapshot as its base, so the new graph's own state wins.
func TestKillBetweenGraphAndLearnedFile(t *testing.T) {
	dir := t.TempDir()
	s := openAt(t, dir)
	publish(t, s, graphtest.PowerLaw(300, 800, 9))
	if _, err := s.Persist("manual"); err != nil {
		t.Fatal(err)
	}
	learnOn(t, s, 20, plasticity.Correct)
	if res, err := s.PersistLearned("auto"); err != nil || !res.LearnedOnly {
		t.Fatalf("%+v, %v", res, err)
	}
	old, _ := os.ReadFile(filepath.Join(dir, DefaultPlasticityFile))
	learnAsServed(t, s, 20, plasticity.Wrong)
	learnAsServed(t, s, 21, plasticity.Wrong)
	remember(t, s, "queue", 40) // query memory is not journaled: only the graph has it
	journal, _ := os.ReadFile(filepath.Join(dir, JournalFile))
	want := learnedOf(s)
	if _, err := s.Persist("manual"); err != nil {
		t.Fatal(err)
	}
	crash(s)
	os.WriteFile(filepath.Join(dir, DefaultPlasticityFile), old, 0o644)
	os.WriteFile(filepath.Join(dir, JournalFile), journal, 0o644)

	s2 := openAt(t, dir)
	defer s2.Close()
	if diff := cmp.Diff(want, learnedOf(s2)); diff != "" {
		t.Fatalf("learned state (-before +after):\n%s", diff)
	}
}

// The learned meta is streamed member by member; it must read back as the
// value it was written from.
func TestLearnedMetaWritten(t *testing.T) {
	at := time.Date(2026, 12, 3, 10, 0, 0, 0, time.UTC)
	full := learnedMeta{
		learnedHead: learnedHead{Format: learnedMetaFormat, Save: 7, Stamp: "save-7-journal-30", SavedAt: at, Base: "save-5-journal-21", JournalSeq: 30},
		Feedback:    []plasticity.FeedbackRecord{{Query: `"quoted" <pool>`, Words: []string{"pool"}, Seeds: []string{"file::a.go"}, Nodes: []plasticity.FeedbackNode{{NodeID: "file::a.go", Evidence: -1}}, Time: at}},
		QueryMemory: []plasticity.QueryRecord{
			{Query: "pool", Seeds: []string{"file::a.go"}, Nodes: []plasticity.ScoredNode{{NodeID: "file::a.go", Score: 1}, {NodeID: "file::b.go::F", Score: 0.25}}, Time: at},
			{Query: "queue\n", Seeds: []string{}, Nodes: []plasticity.ScoredNode{}, Time: at.Add(time.Second)},
		},
	}
	empty := learnedMeta{learnedHead: learnedHead{Format: learnedMetaFormat, Save: 1, Stamp: "save-1-journal-0", SavedAt: at, Base: "save-0-journal-0"}, Feedback: []plasticity.FeedbackRecord{}, QueryMemory: []plasticity.QueryRecord{}}
	for _, m := range []learnedMeta{full, empty} {
		var buf bytes.Buffer
		if err := m.writeTo(&buf); err != nil {
			t.Fatal(err)
		}
		var got learnedMeta
		if err := json.Unmarshal(buf.Bytes(), &got); err != nil {
			t.Fatalf("%s: %v", buf.Bytes(), err)
		}
		if diff := cmp.Diff(m, got, cmp.AllowUnexported(learnedMeta{})); diff != "" {
			t.Fatalf("learned meta (-written +read):\n%s", diff)
		}
	}
}

// A clean stop on the graph already on disk saves the learned state alone
// (a client's SIGKILL follows a few seconds after it closes stdin); on a
// graph changed since the last save, the whole graph.
func TestShutdownSavesWhatChanged(t *testing.T) {
	dir := t.TempDir()
	graphPath := filepath.Join(dir, DefaultGraphFile)
	s := openAt(t, dir)
	publish(t, s, graphtest.PowerLaw(300, 800, 11))
	if _, err := s.Persist("manual"); err != nil {
		t.Fatal(err)
	}
	saved, _ := os.ReadFile(graphPath)
	learnAsServed(t, s, 30, plasticity.Correct)
	remember(t, s, "pool", 5)
	want := learnedOf(s)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if now, _ := os.ReadFile(graphPath); !bytes.Equal(now, saved) {
		t.Fatal("a stop on the saved graph rewrote the graph snapshot")
	}
	s2 := openAt(t, dir)
	if diff := cmp.Diff(want, learnedOf(s2)); diff != "" {
		t.Fatalf("learned state after a stop (-before +after):\n%s", diff)
	}
	publish(t, s2, graphtest.PowerLaw(300, 800, 12))
	nodes := s2.Current().Graph.NumNodes()
	if err := s2.Close(); err != nil {
		t.Fatal(err)
	}
	s3 := openAt(t, dir)
	defer s3.Close()
	if now, _ := os.ReadFile(graphPath); bytes.Equal(now, saved) || s3.Current().Graph.NumNodes() != nodes {
		t.Fatal("a stop after the graph changed did not save the new graph")
	}
}
