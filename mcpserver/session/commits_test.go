package session

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/m1nd-go/m1nd/core/graph/graphtest"
	"github.com/m1nd-go/m1nd/core/history"
)

func publishCommits(t *testing.T, s *State, cs []history.Commit) {
	t.Helper()
	g := graphtest.PowerLaw(200, 500, 4)
	if _, err := s.BuildBundle("graph_replaced", func(old *Bundle) (*Bundle, error) {
		return &Bundle{Graph: g, Roots: []Root{{Path: "/repo", Adapter: "code", Mode: "replace"}}, Commits: cs}, nil
	}); err != nil {
		t.Fatal(err)
	}
}

func historyFiles(t *testing.T, dir string) []string {
	t.Helper()
	m, _ := filepath.Glob(filepath.Join(dir, historyPrefix+"*.gob"))
	return m
}

// TestHistoryTravelsWithTheGraph: the git history an ingest read is
// served again after a restart (it was lost, and every history-based
// answer said "no git history" in the next session); a history file left
// by a save cut short is not taken for the graph's, and goes at the next
// save; a damaged one costs the history, never the graph.
func TestHistoryTravelsWithTheGraph(t *testing.T) {
	dir := t.TempDir()
	cs := []history.Commit{
		{Hash: "b2", Time: 1700000100, Author: "ann", Subject: "fix the parser", Files: []string{"n1", "n2"}},
		{Hash: "a1", Time: 1700000000, Author: "bob", Subject: "add the parser", Files: []string{"n1"}},
	}
	s := openAt(t, dir)
	publishCommits(t, s, cs)
	if _, err := s.Persist("manual"); err != nil {
		t.Fatal(err)
	}
	if f := historyFiles(t, dir); len(f) != 1 {
		t.Fatalf("history files %v, want one", f)
	}
	stray := filepath.Join(dir, historyPrefix+"0123456789abcdef01234567.gob")
	os.WriteFile(stray, []byte("a later save's, cut short"), 0o644)
	s.Close()

	s2 := openAt(t, dir)
	if d := cmp.Diff(cs, s2.Current().Commits); d != "" {
		t.Fatalf("history after a restart (-saved +loaded):\n%s", d)
	}
	publishCommits(t, s2, cs[:1])
	if _, err := s2.Persist("manual"); err != nil {
		t.Fatal(err)
	}
	if f := historyFiles(t, dir); len(f) != 1 || f[0] == stray {
		t.Fatalf("history files after a new save %v, want only the new graph's", f)
	}
	s2.Close()

	f := historyFiles(t, dir)[0]
	os.WriteFile(f, []byte("damaged"), 0o644)
	s3 := openAt(t, dir)
	defer s3.Close()
	if n := s3.Current().Graph.NumNodes(); n != 200 {
		t.Fatalf("graph not loaded beside a damaged history: %d nodes", n)
	}
	if c := s3.Current().Commits; c != nil {
		t.Fatalf("a damaged history was served: %v", c)
	}
}
