package immune_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/m1nd-go/m1nd/mcpserver/internal/fixture"
	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// requireSessionPattern: the fixture's functions that call
// require_session (payments.py's charge and refund).
var requireSessionPattern = map[string]any{
	"nodes": []any{map[string]any{"id": "h", "type": "function"}, map[string]any{"id": "s", "label": "require_session", "match_mode": "exact"}},
	"edges": []any{map[string]any{"from": "h", "to": "s", "relation": "calls"}},
}

func boundTo(t *testing.T, out map[string]any, v string) []string {
	t.Helper()
	var got []string
	for _, m := range out["matches"].([]any) {
		got = append(got, m.(map[string]any)["bindings"].(map[string]any)[v].(string))
	}
	slices.Sort(got)
	return got
}

func TestAntibodiesOnFixtureAcrossRestart(t *testing.T) {
	rt := t.TempDir()
	cfg := session.Config{RuntimeDir: rt}
	d := tooltest.NewDispatcher(t, cfg)
	tooltest.MustCall(t, d, "ingest", map[string]any{"agent_id": "t", "path": fixture.Write(t)})
	c := tooltest.MustCall(t, d, "antibody_create", map[string]any{"agent_id": "t", "pattern": requireSessionPattern, "severity": "High", "description": "session trusted", "tags": []string{"payments"}})
	ab := c["antibody"].(map[string]any)
	// Specificity: (type 0.3 + exact label 1 + relation 0.3) / 3.
	if ab["id"] != "ab_001" || ab["specificity"] != r3(1.6/3) || c["durable"] != true {
		t.Fatalf("create: %v", c)
	}
	scan := tooltest.MustCall(t, d, "antibody_scan", map[string]any{"agent_id": "t"})
	want := []string{"file::backend/payments.py::charge", "file::backend/payments.py::refund"}
	if got := boundTo(t, scan, "h"); !slices.Equal(got, want) {
		t.Errorf("scan binds h to %v, want %v", got, want)
	}
	for _, m := range scan["matches"].([]any) {
		m := m.(map[string]any)
		// h has no label (0.5), s an exact one (1).
		if m["confidence"] != 0.75 || m["severity"] != "High" || !strings.HasSuffix(m["bindings"].(map[string]any)["s"].(string), "require_session") {
			t.Errorf("match %v", m)
		}
	}
	// A negative edge: callers of lookup that do not reference
	// SessionStore (require_session does; the test only calls it).
	neg := map[string]any{
		"nodes":          []any{map[string]any{"id": "c"}, map[string]any{"id": "l", "label": "lookup", "match_mode": "exact"}, map[string]any{"id": "st", "label": "SessionStore", "match_mode": "exact"}},
		"edges":          []any{map[string]any{"from": "c", "to": "l", "relation": "calls"}},
		"negative_edges": []any{map[string]any{"from": "c", "to": "st", "relation": "references"}},
	}
	n := tooltest.MustCall(t, d, "antibody_create", map[string]any{"agent_id": "t", "pattern": neg, "severity": "Low"})
	if n["antibody"].(map[string]any)["id"] != "ab_002" {
		t.Fatalf("create with a negative edge: %v", n)
	}
	ns := tooltest.MustCall(t, d, "antibody_scan", map[string]any{"agent_id": "t", "antibody_ids": []string{"ab_002"}})
	if got := boundTo(t, ns, "c"); !slices.Equal(got, []string{"file::tests/test_session.py::test_session_expires"}) {
		t.Errorf("negative edge: %v", got)
	}
	// min_severity High leaves the Low one out.
	if hs := tooltest.MustCall(t, d, "antibody_scan", map[string]any{"agent_id": "t", "min_severity": "High"}); hs["antibodies_scanned"] != 1.0 {
		t.Errorf("min_severity: %v", hs)
	}
	// The same shape again is a duplicate; a too broad one is refused.
	if out, isErr := tooltest.Call(t, d, "antibody_create", map[string]any{"agent_id": "t", "pattern": requireSessionPattern}); !isErr || !strings.Contains(out["error"].(string), "ab_001") {
		t.Errorf("duplicate: %v", out)
	}
	broad := map[string]any{"nodes": []any{map[string]any{"id": "a", "label": "x"}}}
	if out, isErr := tooltest.Call(t, d, "antibody_create", map[string]any{"agent_id": "t", "pattern": broad}); !isErr || !strings.Contains(out["error"].(string), "too broad") || out["hint"] == nil {
		t.Errorf("too broad: %v", out)
	}
	// Disabled antibodies are not scanned.
	tooltest.MustCall(t, d, "antibody_create", map[string]any{"agent_id": "t", "action": "disable", "antibody_id": "ab_001"})
	if s := tooltest.MustCall(t, d, "antibody_scan", map[string]any{"agent_id": "t"}); s["antibodies_scanned"] != 1.0 || len(boundTo(t, s, "c")) != 1 {
		t.Errorf("scan after disable: %v", s)
	}
	d.Session.Close()
	if _, err := os.Stat(filepath.Join(rt, "antibodies.json.bak")); err != nil {
		t.Errorf("no backup: %v", err)
	}

	d2 := tooltest.NewDispatcher(t, cfg)
	l := tooltest.MustCall(t, d2, "antibody_list", map[string]any{"agent_id": "t", "detail": "full"})
	first := l["antibodies"].([]any)[0].(map[string]any)
	if first["id"] != "ab_001" || first["enabled"] != false || first["matches"] != 4.0 || first["scans"] != 2.0 || first["pattern"] == nil {
		t.Errorf("after restart: %v", first)
	}
	tooltest.MustCall(t, d2, "antibody_create", map[string]any{"agent_id": "t", "action": "enable", "antibody_id": "ab_001"})
	if got := boundTo(t, tooltest.MustCall(t, d2, "antibody_scan", map[string]any{"agent_id": "t", "antibody_ids": []string{"ab_001"}}), "h"); !slices.Equal(got, want) {
		t.Errorf("scan after restart: %v", got)
	}
	// A damaged file: the backup is read, with a warning.
	d2.Session.Close()
	if err := os.WriteFile(filepath.Join(rt, "antibodies.json"), []byte("{broken"), 0o644); err != nil {
		t.Fatal(err)
	}
	d3 := tooltest.NewDispatcher(t, cfg)
	l3 := tooltest.MustCall(t, d3, "antibody_list", map[string]any{"agent_id": "t"})
	if l3["total"] == 0.0 || l3["warnings"] == nil {
		t.Errorf("damaged file: %v", l3)
	}
}

// learn stores the shape of confirmed linked nodes for a bug query.
func TestLearnExtractsAntibody(t *testing.T) {
	d, _ := tooltest.IngestedFixture(t)
	l := tooltest.MustCall(t, d, "learn", map[string]any{"agent_id": "t", "query": "bug: charge crashes when the session expired", "feedback": "correct",
		"node_ids": []string{"file::backend/payments.py::charge", "file::backend/middleware.py::require_session"}})
	if l["antibody_created"] != "ab_001" {
		t.Fatalf("learn: %v", l)
	}
	// The same verdict again stores nothing new (a duplicate).
	l = tooltest.MustCall(t, d, "learn", map[string]any{"agent_id": "t", "query": "bug: charge crashes again", "feedback": "correct",
		"node_ids": []string{"file::backend/payments.py::charge", "file::backend/middleware.py::require_session"}})
	if _, ok := l["antibody_created"]; ok {
		t.Errorf("a duplicate was stored: %v", l)
	}
	s := tooltest.MustCall(t, d, "antibody_scan", map[string]any{"agent_id": "t"})
	ms := s["matches"].([]any)
	if len(ms) != 1 || ms[0].(map[string]any)["confidence"] != 1.0 || ms[0].(map[string]any)["bindings"].(map[string]any)["n1"] != "file::backend/payments.py::charge" {
		t.Errorf("scan of the learned antibody: %v", s)
	}
	if a := tooltest.MustCall(t, d, "antibody_list", map[string]any{"agent_id": "t"})["antibodies"].([]any)[0].(map[string]any); a["source"] != "learn" || a["severity"] != "Medium" {
		t.Errorf("listed: %v", a)
	}
}
