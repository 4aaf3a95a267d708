package continuity

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

func TestTrailSaveAndResume(t *testing.T) {
	t.Parallel()
	d, dir := tooltest.IngestedFixture(t)
	save := tooltest.MustCall(t, d, "trail_save", map[string]any{
		"agent_id": "jimi", "label": "session-expiry", "tags": []string{"auth"},
		"hypotheses": []map[string]any{
			{"statement": "Expired sessions are accepted", "confidence": 0.8, "supporting_nodes": []string{"backend/session.py", "file::backend/payments.py"}},
			{"statement": "Login skips expiry", "supporting_nodes": []string{"file::backend/auth.py"}},
		},
		"open_questions":    []string{"Who calls lookup?"},
		"visited_nodes":     []map[string]any{{"node_external_id": "file::backend/middleware.py", "relevance": 0.9, "annotation": "resolves sessions"}},
		"activation_boosts": map[string]any{"file::backend/session.py": 0.8},
	})
	want := map[string]any{"nodes_saved": 4.0, "hypotheses_saved": 2.0, "conclusions_saved": 0.0, "open_questions_saved": 1.0, "activation_boosts_saved": 1.0, "visited_from": "given", "status": "saved"}
	for k, v := range want {
		if save[k] != v {
			t.Errorf("trail_save %s = %v, want %v", k, save[k], v)
		}
	}
	id := save["trail_id"].(string)
	if !strings.HasPrefix(id, "trail_jimi_001_") || !strings.Contains(save["summary"].(string), "Expired sessions are accepted") {
		t.Fatalf("trail_save: %v", save)
	}
	// Resumed right away: nothing missing or changed; boosts in warmup.
	d.Session.Warmup.Clear()
	r := tooltest.MustCall(t, d, "trail_resume", map[string]any{"agent_id": "other", "trail_id": id})
	if r["stale"] != false || len(r["missing_nodes"].([]any)) != 0 || len(r["changed_nodes"].([]any)) != 0 || r["nodes_reactivated"] != 4.0 {
		t.Fatalf("resume: %v", r)
	}
	if r["boosts_restored"] != 2.0 || d.Session.Warmup.Len() != 2 {
		t.Errorf("boosts restored %v, warmup holds %d", r["boosts_restored"], d.Session.Warmup.Len())
	}
	if r["next_focus_node"] != "file::backend/middleware.py" || r["next_open_question"] != "Who calls lookup?" || r["next_suggested_tool"] == "" {
		t.Errorf("resume hints: %v", r)
	}
	if r["trail"].(map[string]any)["status"] != "saved" {
		t.Errorf("another agent's resume changed the status: %v", r["trail"])
	}
	// Edit one file, delete another, re-ingest incrementally.
	data, _ := os.ReadFile(filepath.Join(dir, "backend", "session.py"))
	tooltest.EditFile(t, dir, "backend/session.py", string(data)+"\n# expiry is checked in lookup\n")
	os.Remove(filepath.Join(dir, "backend", "payments.py"))
	tooltest.MustCall(t, d, "ingest", map[string]any{"agent_id": "t", "path": dir, "incremental": true})
	r = tooltest.MustCall(t, d, "trail_resume", map[string]any{"agent_id": "jimi", "trail_id": id})
	if diff := cmp.Diff([]any{"file::backend/payments.py"}, r["missing_nodes"]); diff != "" {
		t.Errorf("missing nodes (-want +got):\n%s", diff)
	}
	// session.py was edited; middleware.py lost its importer payments.py.
	if diff := cmp.Diff([]any{"file::backend/middleware.py", "file::backend/session.py"}, r["changed_nodes"]); diff != "" {
		t.Errorf("changed nodes (-want +got):\n%s", diff)
	}
	down := r["hypotheses_downgraded"].([]any)
	if len(down) != 1 || down[0].(map[string]any)["new_confidence"] != 0.4 || r["generations_behind"] != 1.0 {
		t.Errorf("downgraded %v, generations behind %v", down, r["generations_behind"])
	}
	if r["trail"].(map[string]any)["status"] != "active" {
		t.Errorf("the owner's resume leaves status %v", r["trail"])
	}
}

func TestTrailStaleNeedsForce(t *testing.T) {
	t.Parallel()
	d, dir := tooltest.IngestedFixture(t)
	id := tooltest.SaveTrail(t, d, "jimi", "payments", "file::backend/payments.py", "file::backend/config.py")
	os.Remove(filepath.Join(dir, "backend", "payments.py"))
	os.Remove(filepath.Join(dir, "backend", "config.py"))
	tooltest.MustCall(t, d, "ingest", map[string]any{"agent_id": "t", "path": dir, "incremental": true})
	out, isErr := tooltest.Call(t, d, "trail_resume", map[string]any{"agent_id": "jimi", "trail_id": id})
	if !isErr || !strings.Contains(out["error"].(string), "stale") || !strings.Contains(fmt.Sprint(out["example"]), "force") {
		t.Fatalf("stale trail: %v", out)
	}
	r := tooltest.MustCall(t, d, "trail_resume", map[string]any{"agent_id": "jimi", "trail_id": id, "force": true})
	if r["stale"] != true || r["forced"] != true || r["trail"].(map[string]any)["status"] != "stale" {
		t.Errorf("forced resume: %v", r)
	}
}

func TestTrailTeachingErrors(t *testing.T) {
	t.Parallel()
	d, _ := tooltest.IngestedFixture(t)
	id := tooltest.SaveTrail(t, d, "jimi", "x", "file::backend/auth.py")
	for _, c := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"trail_save", map[string]any{"agent_id": "../../etc", "label": "x"}, "cannot own"},
		{"trail_save", map[string]any{"agent_id": "jimi", "label": "  "}, "label"},
		{"trail_save", map[string]any{"agent_id": "jimi", "label": "x", "hypotheses": []map[string]any{{"statment": "typo"}}}, "statment"},
		{"trail_save", map[string]any{"agent_id": "jimi", "label": "x", "hypotheses": []map[string]any{{"statement": "s", "confidence": 2}}}, "confidence"},
		{"trail_save", map[string]any{"agent_id": "jimi", "label": "x", "hypotheses": []map[string]any{{"statement": "s", "confidence": "high"}}}, "hypotheses: json: cannot unmarshal"},
		{"trail_save", map[string]any{"agent_id": "jimi", "label": "x", "conclusions": []map[string]any{{"statement": "s"}, {"statment": "typo"}}}, "statment"},
		{"trail_save", map[string]any{"agent_id": "jimi", "label": "x", "visited_nodes": []map[string]any{{"node_id": "file::backend/auth.py"}}}, "node_id"},
		{"trail_save", map[string]any{"agent_id": "jimi", "label": "x", "visited_nodes": []map[string]any{{"node_external_id": "file::nope.py"}}}, "not a node"},
		{"trail_save", map[string]any{"agent_id": "jimi", "label": "x", "activation_boosts": map[string]any{"file::backend/auth.py": 3}}, "activation_boosts"},
		{"trail_resume", map[string]any{"agent_id": "jimi", "trail_id": "trail_nobody_001_000000"}, "no trail"},
		{"trail_list", map[string]any{"agent_id": "jimi", "filter_status": "lost"}, "must be one of"},
		{"trail_merge", map[string]any{"agent_id": "jimi", "trail_ids": []string{id, id}}, "two distinct"},
		{"trail_merge", map[string]any{"agent_id": "jimi", "trail_ids": []string{id, "trail_x"}}, "no trail"},
	} {
		out, isErr := tooltest.Call(t, d, c.tool, c.args)
		if !isErr || !strings.Contains(fmt.Sprint(out["error"]), c.want) || out["hint"] == "" {
			t.Errorf("%s(%v): %v, want a teaching error about %q", c.tool, c.args, out, c.want)
		}
	}
	if l := tooltest.MustCall(t, d, "trail_list", map[string]any{"agent_id": "jimi"}); l["total_count"] != 1.0 {
		t.Errorf("a refused call stored a trail: %v", l)
	}
}

func TestTrailListAndMerge(t *testing.T) {
	t.Parallel()
	d, _ := tooltest.IngestedFixture(t)
	a := tooltest.MustCall(t, d, "trail_save", map[string]any{"agent_id": "hacker-auth", "label": "auth", "tags": []string{"security"},
		"hypotheses":    []map[string]any{{"statement": "Session store leaks tokens", "confidence": 0.9, "supporting_nodes": []string{"file::backend/session.py"}}},
		"visited_nodes": []map[string]any{{"node_external_id": "file::backend/auth.py"}}})["trail_id"].(string)
	b := tooltest.MustCall(t, d, "trail_save", map[string]any{"agent_id": "analyst", "label": "sessions", "tags": []string{"perf"},
		"hypotheses":    []map[string]any{{"statement": "Session store tokens are properly scoped", "confidence": 0.5, "supporting_nodes": []string{"file::backend/session.py"}}},
		"visited_nodes": []map[string]any{{"node_external_id": "file::backend/crypto.py"}}})["trail_id"].(string)
	l := tooltest.MustCall(t, d, "trail_list", map[string]any{"agent_id": "jimi", "filter_tags": []string{"security"}})
	if l["total_count"] != 1.0 || l["trails"].([]any)[0].(map[string]any)["trail_id"] != a {
		t.Errorf("list by tag: %v", l)
	}
	if l := tooltest.MustCall(t, d, "trail_list", map[string]any{"agent_id": "jimi", "filter_agent_id": "analyst"}); l["total_count"] != 1.0 {
		t.Errorf("list by agent: %v", l)
	}
	m := tooltest.MustCall(t, d, "trail_merge", map[string]any{"agent_id": "jimi", "trail_ids": []string{a, b}})
	conf := m["conflicts"].([]any)
	if len(conf) != 1 || conf[0].(map[string]any)["resolution"] != "resolved" || conf[0].(map[string]any)["winner"] != "Session store leaks tokens" {
		t.Errorf("conflicts: %v", conf)
	}
	if diff := cmp.Diff([]any{"file::backend/session.py"}, m["shared_nodes"]); diff != "" {
		t.Errorf("shared (-want +got):\n%s", diff)
	}
	// auth.py imports crypto.py: the two trails' separate areas touch.
	found := false
	for _, c := range m["connections_discovered"].([]any) {
		cm := c.(map[string]any)
		found = found || cm["from_node"] == "file::backend/auth.py" && cm["to_node"] == "file::backend/crypto.py"
	}
	if !found {
		t.Errorf("no auth → crypto connection in %v", m["connections_discovered"])
	}
	merged := m["merged_trail_id"].(string)
	if !strings.HasPrefix(merged, "trail_jimi_001_") {
		t.Errorf("merged id %s", merged)
	}
	if l := tooltest.MustCall(t, d, "trail_list", map[string]any{"agent_id": "jimi", "filter_status": "merged"}); l["total_count"] != 2.0 {
		t.Errorf("sources not marked merged: %v", l)
	}
}

// Trails and boot memory survive a restart with the same runtime dir.
func TestTrailsSurviveRestart(t *testing.T) {
	t.Parallel()
	d, cfg := tooltest.PersistedFixture(t)
	id := tooltest.SaveTrail(t, d, "jimi", "before restart", "file::backend/auth.py")
	tooltest.MustCall(t, d, "boot_memory", map[string]any{"agent_id": "jimi", "action": "set", "key": "task", "value": "expiry"})
	d.Session.Close()

	d2 := tooltest.NewDispatcher(t, cfg)
	r := tooltest.MustCall(t, d2, "trail_resume", map[string]any{"agent_id": "jimi", "trail_id": id})
	if r["nodes_reactivated"] != 1.0 || len(r["changed_nodes"].([]any)) != 0 {
		t.Errorf("resume after restart: %v", r)
	}
	if g := tooltest.MustCall(t, d2, "boot_memory", map[string]any{"agent_id": "jimi", "action": "get", "key": "task"}); g["value"] != "expiry" {
		t.Errorf("boot memory after restart: %v", g)
	}
	if id2 := tooltest.SaveTrail(t, d2, "jimi", "after", "file::backend/auth.py"); !strings.HasPrefix(id2, "trail_jimi_002_") {
		t.Errorf("id after restart %s", id2)
	}
}

func TestBootMemory(t *testing.T) {
	t.Parallel()
	d := tooltest.NewDispatcher(t, session.Config{})
	set := tooltest.MustCall(t, d, "boot_memory", map[string]any{"agent_id": "jimi", "action": "set", "key": "doctrine/review", "value": map[string]any{"rules": []int{1, 2}}})
	if set["existed"] != false || set["key_count"] != 1.0 {
		t.Errorf("set: %v", set)
	}
	get := tooltest.MustCall(t, d, "boot_memory", map[string]any{"agent_id": "jimi", "action": "get", "key": "doctrine/review"})
	if diff := cmp.Diff(map[string]any{"rules": []any{1.0, 2.0}}, get["value"]); diff != "" || get["found"] != true {
		t.Errorf("get (-want +got):\n%s", diff)
	}
	if g := tooltest.MustCall(t, d, "boot_memory", map[string]any{"agent_id": "other", "action": "get", "key": "doctrine/review"}); g["found"] != false {
		t.Errorf("another agent sees jimi's key: %v", g)
	}
	if l := tooltest.MustCall(t, d, "boot_memory", map[string]any{"agent_id": "jimi", "action": "list"}); len(l["keys"].([]any)) != 1 {
		t.Errorf("list: %v", l)
	}
	if del := tooltest.MustCall(t, d, "boot_memory", map[string]any{"agent_id": "jimi", "action": "delete", "key": "doctrine/review"}); del["found"] != true || del["key_count"] != 0.0 {
		t.Errorf("delete: %v", del)
	}
	for _, args := range []map[string]any{
		{"agent_id": "jimi", "action": "get"},
		{"agent_id": "jimi", "action": "set", "key": "k"},
		{"agent_id": "jimi", "action": "set", "key": "a b", "value": 1},
		{"agent_id": "jimi", "action": "get", "key": "k", "value": 1},
		{"agent_id": "jimi", "action": "set", "key": "k", "value": strings.Repeat("x", 20000)},
		{"agent_id": "jimi", "action": "drop", "key": "k"},
		{"agent_id": "a/b", "action": "list"},
	} {
		if out, isErr := tooltest.Call(t, d, "boot_memory", args); !isErr || out["hint"] == "" {
			t.Errorf("boot_memory(%v): %v, want a teaching error", args, out)
		}
	}
}
