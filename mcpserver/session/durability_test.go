package session

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/graph/graphtest"
	"github.com/m1nd-go/m1nd/core/plasticity"
)

// crash drops the session as kill -9 would: no final persist, the lock
// and the journal's file released by the kernel.
func crash(s *State) {
	s.closed.Store(true)
	s.journal.close()
	s.lock.release()
}

// learnOn judges the node n of the current graph through the session's
// durable learn path.
func learnOn(t *testing.T, s *State, n graph.NodeID, fb plasticity.Feedback) {
	t.Helper()
	g := s.Current().Graph
	req := plasticity.LearnRequest{Query: "pool handling", Feedback: fb, Nodes: []graph.NodeID{n}, Strength: 1}
	_, err := s.Learn(g, "tester", req, func(r plasticity.LearnRequest) (plasticity.LearnResult, error) {
		return s.Plasticity.Learn(g, r)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// weights maps every edge (by identity) to its learned weight.
func weights(g *graph.Graph) map[[3]string]float32 {
	out := map[[3]string]float32{}
	for e := 0; e < g.NumEdges(); e++ {
		ei := graph.EdgeIdx(e)
		out[[3]string{g.ExternalID(g.Source(ei)), g.ExternalID(g.Target(ei)), g.RelationName(ei)}] = g.Weight(ei)
	}
	return out
}

func sameWeights(t *testing.T, what string, got, want map[[3]string]float32) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d edges, want %d", what, len(got), len(want))
	}
	for k, w := range want {
		if d := got[k] - w; d > 1e-6 || d < -1e-6 {
			t.Fatalf("%s: edge %v weight %v, want %v", what, k, got[k], w)
		}
	}
}

// Learn calls answered after the last persist survive a kill: they are
// replayed from the journal, once, and a later persist covers them.
func TestAcknowledgedLearnSurvivesCrash(t *testing.T) {
	dir := t.TempDir()
	s := openAt(t, dir)
	publish(t, s, graphtest.PowerLaw(300, 800, 5))
	if _, err := s.Persist("manual"); err != nil {
		t.Fatal(err)
	}
	for i, fb := range []plasticity.Feedback{plasticity.Correct, plasticity.Wrong, plasticity.Correct} {
		learnOn(t, s, graph.NodeID(10+i), fb)
	}
	want, wantFb := weights(s.Current().Graph), s.Plasticity.FeedbackRecords()
	crash(s)

	s2 := openAt(t, dir)
	sameWeights(t, "after a crash", weights(s2.Current().Graph), want)
	if n := s2.Plasticity.FeedbackRecords(); n != wantFb {
		t.Fatalf("feedback memory %d records, want %d", n, wantFb)
	}
	// A persist covers the journal: the next start replays nothing twice.
	if _, err := s2.Persist("manual"); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, JournalFile)); len(data) != 0 {
		t.Errorf("journal not trimmed after a persist: %q", data)
	}
	crash(s2)
	s3 := openAt(t, dir)
	defer s3.Close()
	sameWeights(t, "after persist and a second crash", weights(s3.Current().Graph), want)
	if n := s3.Plasticity.FeedbackRecords(); n != wantFb {
		t.Fatalf("feedback memory %d records after the second start, want %d", n, wantFb)
	}
}

// A crash after the graph was renamed but before the sidecars and the
// journal trim: the graph's own state wins, nothing is applied twice.
func TestCrashBetweenGraphAndSidecars(t *testing.T) {
	dir := t.TempDir()
	s := openAt(t, dir)
	publish(t, s, graphtest.PowerLaw(300, 800, 6))
	learnOn(t, s, 20, plasticity.Correct) // the older sidecar holds this
	if _, err := s.Persist("manual"); err != nil {
		t.Fatal(err)
	}
	old := map[string][]byte{}
	for _, f := range []string{DefaultPlasticityFile, FeedbackFile} {
		old[f], _ = os.ReadFile(filepath.Join(dir, f))
	}
	learnOn(t, s, 20, plasticity.Wrong)
	learnOn(t, s, 21, plasticity.Wrong)
	journal, _ := os.ReadFile(filepath.Join(dir, JournalFile))
	want := weights(s.Current().Graph)
	if _, err := s.Persist("manual"); err != nil {
		t.Fatal(err)
	}
	crash(s)
	// Put the older sidecars and the untrimmed journal back.
	for f, data := range old {
		os.WriteFile(filepath.Join(dir, f), data, 0o644)
	}
	os.WriteFile(filepath.Join(dir, JournalFile), journal, 0o644)

	s2 := openAt(t, dir)
	defer s2.Close()
	sameWeights(t, "graph newer than its sidecars", weights(s2.Current().Graph), want)
}

// Roots come from the snapshot itself: a roots file of another repository
// beside it (a torn save) cannot relabel the graph.
func TestRootsTravelWithTheGraph(t *testing.T) {
	dir := t.TempDir()
	s := openAt(t, dir)
	publish(t, s, graphtest.PowerLaw(50, 100, 2))
	s.Close()
	os.WriteFile(filepath.Join(dir, RootsFile), []byte(`[{"path":"/other/repo","adapter":"code","mode":"replace"}]`), 0o644)
	s2 := openAt(t, dir)
	defer s2.Close()
	if roots := s2.Current().Roots; len(roots) != 1 || roots[0].Path != "/repo" {
		t.Fatalf("roots %+v, want the snapshot's /repo", roots)
	}
}

// A lost graph (corrupt file) does not take the learned weights with it:
// they are kept aside, re-applied by edge identity to the next graph, and
// the journal's calls after them are replayed.
func TestLearningSurvivesALostGraph(t *testing.T) {
	dir := t.TempDir()
	s := openAt(t, dir)
	publish(t, s, graphtest.PowerLaw(300, 800, 7))
	learnOn(t, s, 30, plasticity.Correct)
	if _, err := s.Persist("manual"); err != nil {
		t.Fatal(err)
	}
	learnOn(t, s, 31, plasticity.Correct) // journaled only
	want := weights(s.Current().Graph)
	crash(s)
	os.WriteFile(filepath.Join(dir, DefaultGraphFile), []byte("M1NDGRPH corrupted"), 0o644)
	plasBefore, _ := os.ReadFile(filepath.Join(dir, DefaultPlasticityFile))

	s2 := openAt(t, dir)
	if s2.Current().Graph.NumNodes() != 0 {
		t.Fatal("a corrupt graph loaded")
	}
	kept, _ := filepath.Glob(filepath.Join(dir, DefaultPlasticityFile+".kept-*"))
	if len(kept) != 1 {
		t.Fatalf("plasticity file not kept aside: %v", kept)
	}
	if data, _ := os.ReadFile(kept[0]); string(data) != string(plasBefore) {
		t.Fatal("the kept copy differs from the plasticity file")
	}
	// Re-ingest: the same repository gives the same graph.
	publish(t, s2, graphtest.PowerLaw(300, 800, 7))
	sameWeights(t, "after re-ingest", weights(s2.Current().Graph), want)
	if _, err := s2.Persist("manual"); err != nil {
		t.Fatal(err)
	}
	s2.Close()
	s3 := openAt(t, dir)
	defer s3.Close()
	sameWeights(t, "after the next start", weights(s3.Current().Graph), want)
}

// A learn call that cannot be journaled is refused and changes nothing.
func TestUnjournaledLearnChangesNothing(t *testing.T) {
	dir := t.TempDir()
	s := openAt(t, dir)
	defer s.Close()
	publish(t, s, graphtest.PowerLaw(100, 300, 8))
	before := weights(s.Current().Graph)
	s.journal.mu.Lock()
	s.journal.path = filepath.Join(dir, "missing-dir", JournalFile)
	s.journal.mu.Unlock()
	g := s.Current().Graph
	applied := false
	_, err := s.Learn(g, "a", plasticity.LearnRequest{Query: "q", Feedback: plasticity.Correct, Nodes: []graph.NodeID{3}, Strength: 1},
		func(plasticity.LearnRequest) (plasticity.LearnResult, error) {
			applied = true
			return plasticity.LearnResult{}, nil
		})
	if err == nil || applied {
		t.Fatalf("learn without a journal: err %v, applied %v", err, applied)
	}
	sameWeights(t, "refused learn", weights(g), before)
}

// Query memory (the priming ring) lasts across a restart.
func TestQueryMemorySurvivesRestart(t *testing.T) {
	dir := t.TempDir()
	s := openAt(t, dir)
	publish(t, s, graphtest.PowerLaw(100, 300, 9))
	g := s.Current().Graph
	q := plasticity.Query{Text: "pool", Seeds: []graph.NodeID{1}, Activated: []graph.Scored{{Node: 1, Score: 1}, {Node: 2, Score: 0.5}}}
	if _, err := s.Plasticity.Update(g, q); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s2 := openAt(t, dir)
	defer s2.Close()
	if n := s2.Plasticity.MemoryStats().Records; n != 1 {
		t.Fatalf("query memory after a restart: %d records, want 1", n)
	}
}
