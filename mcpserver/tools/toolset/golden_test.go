package toolset

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/m1nd-go/m1nd/mcpserver/internal/fixture"
	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// TestGolden pins each tool's response on the fixture repository. Graph
// answers are deterministic (ties by node id, seeded walks, fixed clock),
// so any change here is a behaviour change to look at.
func TestGolden(t *testing.T) {
	t.Parallel()
	d, root := tooltest.IngestedFixture(t)
	a := func(extra map[string]any) map[string]any {
		m := map[string]any{"agent_id": "golden"}
		for k, v := range extra {
			m[k] = v
		}
		return m
	}
	steps := []struct {
		name string
		tool string
		args map[string]any
	}{
		{"activate", "activate", a(map[string]any{"query": "authentication credentials", "top_k": 5, "include_structural_holes": true})},
		{"impact_dependents", "impact", a(map[string]any{"node_id": "file::backend/session.py", "top_k": 8})},
		{"impact_dependencies", "impact", a(map[string]any{"node_id": "backend/payments.py", "direction": "dependencies", "top_k": 8})},
		{"impact_entity", "impact", a(map[string]any{"node_id": "SessionStore.lookup", "max_hops": 2})},
		{"why", "why", a(map[string]any{"source": "file::backend/payments.py", "target": "file::backend/session.py", "max_hops": 4, "top_k": 3})},
		{"missing", "missing", a(map[string]any{"query": "session login and card payments", "min_sibling_activation": 0.6, "top_k": 5})},
		{"warmup", "warmup", a(map[string]any{"task_description": "harden session expiry", "boost_strength": 0.2})},
		{"resonate", "resonate", a(map[string]any{"node_id": "file::backend/auth.py", "top_k": 5})},
		{"learn", "learn", a(map[string]any{"query": "authentication credentials", "feedback": "correct", "node_ids": []string{"file::backend/auth.py::AuthService::validate_credentials"}})},
		{"drift", "drift", a(map[string]any{"since": "session_start", "top_n": 3})},
		{"help_index", "help", a(nil)},
		{"help_activate", "help", a(map[string]any{"tool_name": "m1nd.activate"})},
	}
	for _, s := range steps {
		out := tooltest.MustCall(t, d, s.tool, s.args)
		tooltest.CheckGolden(t, s.name, out, root)
	}
	h := tooltest.MustCall(t, d, "health", a(nil))
	// Health's query counter and generations depend on the steps above;
	// pin the fields that describe the graph and its repository.
	pinned := map[string]any{}
	for _, k := range []string{"status", "node_count", "edge_count", "node_types", "ingest_roots", "persistence", "warnings", "next_suggested_tool"} {
		pinned[k] = h[k]
	}
	tooltest.CheckGolden(t, "health", pinned, root)
}

// TestLearnScenario: activate, learn(correct) raises the confirmed node on
// the next activation, learn(wrong) lowers it.
func TestLearnScenario(t *testing.T) {
	t.Parallel()
	d, _ := tooltest.IngestedFixture(t)
	q := map[string]any{"agent_id": "tutor", "query": "session", "top_k": 30, "xlr": false}
	// A node the query reaches but does not seed.
	target := "file::backend/payments.py::charge"
	score := func() (float64, int) {
		out := tooltest.MustCall(t, d, "activate", q)
		for i, n := range out["activated"].([]any) {
			m := n.(map[string]any)
			if m["node_id"] == target {
				return m["activation"].(float64), i
			}
		}
		t.Fatalf("%s not activated by %q", target, q["query"])
		return 0, 0
	}
	before, rankBefore := score()
	for i := 0; i < 3; i++ {
		tooltest.MustCall(t, d, "learn", map[string]any{"agent_id": "tutor", "query": "session", "feedback": "correct", "node_ids": []string{target}, "strength": 0.5})
	}
	after, rankAfter := score()
	if !(after > before) || rankAfter > rankBefore {
		t.Errorf("learn correct: activation %.3f -> %.3f, rank %d -> %d; want higher", before, after, rankBefore, rankAfter)
	}
	for i := 0; i < 6; i++ {
		tooltest.MustCall(t, d, "learn", map[string]any{"agent_id": "tutor", "query": "session", "feedback": "wrong", "node_ids": []string{target}, "strength": 0.5})
	}
	wrong, rankWrong := score()
	if !(wrong < after) || rankWrong < rankAfter {
		t.Errorf("learn wrong: activation %.3f -> %.3f, rank %d -> %d; want lower", after, wrong, rankAfter, rankWrong)
	}
	drift := tooltest.MustCall(t, d, "drift", map[string]any{"agent_id": "tutor", "since": "session_start"})
	if drift["edges_changed"].(float64) == 0 {
		t.Error("drift sees no learned change")
	}
}

// TestLearningSurvivesRestart: what learn taught re-ranks activate and seek
// in the next session too (feedback memory is persisted beside the graph).
func TestLearningSurvivesRestart(t *testing.T) {
	t.Parallel()
	dir := fixture.Write(t)
	rt := t.TempDir()
	cfg := session.Config{RuntimeDir: rt}
	d := tooltest.NewDispatcher(t, cfg)
	tooltest.MustCall(t, d, "ingest", map[string]any{"agent_id": "a", "path": dir})
	q := "session expiry"
	rank := func(d *tools.Dispatcher, tool, key, id string) int {
		out := tooltest.MustCall(t, d, tool, map[string]any{"agent_id": "a", "query": q, "top_k": 20})
		for i, n := range out[key].([]any) {
			if n.(map[string]any)["node_id"] == id {
				return i
			}
		}
		return -1
	}
	first := tooltest.MustCall(t, d, "activate", map[string]any{"agent_id": "a", "query": q, "top_k": 20})["activated"].([]any)
	top := first[0].(map[string]any)["node_id"].(string)
	seekBefore := rank(d, "seek", "results", top)
	for range 3 {
		tooltest.MustCall(t, d, "learn", map[string]any{"agent_id": "a", "query": q, "feedback": "wrong", "node_ids": []string{top}, "strength": 1})
	}
	if r := rank(d, "activate", "activated", top); r >= 0 && r < 3 {
		t.Fatalf("after learn wrong, %s is still #%d", top, r+1)
	}
	if seekBefore >= 0 {
		if r := rank(d, "seek", "results", top); r >= 0 && r <= seekBefore {
			t.Errorf("seek: %s was #%d before learning and is #%d after", top, seekBefore+1, r+1)
		}
	}
	tooltest.MustCall(t, d, "persist", map[string]any{"agent_id": "a", "action": "save"})
	if _, err := os.Stat(filepath.Join(rt, session.FeedbackFile)); err != nil {
		t.Fatalf("no feedback sidecar: %v", err)
	}
	d.Session.Close() // the next server takes the runtime directory
	d2 := tooltest.NewDispatcher(t, cfg)
	if r := rank(d2, "activate", "activated", top); r >= 0 && r < 3 {
		t.Errorf("after a restart, %s is #%d again: the verdict was lost", top, r+1)
	}
}
