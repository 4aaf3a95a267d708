package query

import (
	"context"
	"fmt"
	"strings"

	"github.com/google/go-cmp/cmp"
	"testing"

	"github.com/m1nd-go/m1nd/mcpserver/internal/fixture"
	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// The first seek after an ingest of a tree with git history reranks by
// co-change without building the query engine (it built the engine, ≈ 1.9
// s on a go-std history, for the co-change matrix alone), and answers
// what it answers once the engine is built.
func TestSeekWithHistoryBuildsNoEngine(t *testing.T) {
	args := map[string]any{"agent_id": "t", "query": "validate the user's password", "detail": "full"}
	_, b, d := historySession(t)
	first := tooltest.MustCall(t, d, "seek", args)
	if session.Built(b, session.EngineKey) {
		t.Fatal("seek built the query engine for its co-change rerank")
	}
	// The same ingest in a session whose engine is built first.
	s2, b2, d2 := historySession(t)
	if _, err := s2.Engine(b2); err != nil {
		t.Fatal(err)
	}
	second := tooltest.MustCall(t, d2, "seek", args)
	for _, out := range []map[string]any{first, second} {
		delete(out, "elapsed_ms")
		delete(out["index"].(map[string]any), "build_ms")
	}
	if d := cmp.Diff(second, first); d != "" {
		t.Errorf("the answer depends on whether the engine was built (-built +not):\n%s", d)
	}
	if !strings.Contains(fmt.Sprint(first), "co_change:0.") {
		t.Errorf("no result reranked by co-change: %v", first["results"])
	}
}

// historySession is a session holding the fixture's graph (with git
// history), built without the work behind an ingest's answer.
func historySession(t *testing.T) (*session.State, *session.Bundle, *tools.Dispatcher) {
	t.Helper()
	dir := fixture.Write(t)
	cfg := tooltest.TestConfig()
	cfg.AllowRoots = append(cfg.AllowRoots, dir)
	s, err := session.Open(cfg, t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	c := &tools.Call{Ctx: context.Background(), Session: s, AgentID: "t", Progress: func(float64, float64, string) {}}
	r := &tools.IngestRun{C: c, Path: dir, Adapter: "code", Mode: "replace"}
	if err := r.Target(); err != nil {
		t.Fatal(err)
	}
	jb, err := r.BuildJournaled()
	if err != nil {
		t.Fatal(err)
	}
	if len(jb.Bundle.Commits) == 0 {
		t.Fatal("the fixture's graph has no git history")
	}
	return s, jb.Bundle, &tools.Dispatcher{Registry: tooltest.Builtin(), Session: s}
}
