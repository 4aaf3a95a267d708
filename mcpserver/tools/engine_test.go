package tools

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/mcpserver/session"
)

// ingestFixture builds the fixture's graph (it has git history) into a
// memory session, with no background builds: what is built after is
// what the caller built.
func ingestFixture(t *testing.T) (*session.State, *session.Bundle) {
	t.Helper()
	s, _, jb := buildFixtureJournaled(t, false)
	if len(jb.Bundle.Commits) == 0 {
		t.Fatal("the fixture's graph has no git history")
	}
	return s, jb.Bundle
}

// seek's co-change matrix is built without the query engine, and holds
// what the engine's does: every file's partners, strengths and observed
// counts alike (both read in the same order: the bootstrap's rows are
// made on first read within a shared budget).
func TestSeekCoChangeIsTheEngines(t *testing.T) {
	s, b := ingestFixture(t)
	co, err := SeekCoChange(s, b)
	if err != nil || co == nil {
		t.Fatalf("SeekCoChange: %v, %v", co, err)
	}
	if session.Built(b, session.EngineKey) {
		t.Fatal("seek's co-change built the query engine")
	}
	eng, err := s.Engine(b)
	if err != nil {
		t.Fatal(err)
	}
	ec := eng.Temporal().CoChange()
	g, observed := b.Graph, 0
	for id := graph.NodeID(0); int(id) < g.NumNodes(); id++ {
		if g.Type(id) != graph.File {
			continue
		}
		got, want := co.Partners(id, 10), ec.Partners(id, 10)
		if d := cmp.Diff(want, got); d != "" {
			t.Fatalf("partners of %s (-engine +seek):\n%s", g.ExternalID(id), d)
		}
		for _, p := range got {
			if p.Observed > 0 {
				observed++
			}
		}
	}
	if observed == 0 {
		t.Fatal("no partner observed in a commit: the history was not applied")
	}
}
