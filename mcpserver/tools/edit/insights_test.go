package edit_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// A write answers with what the immune engines know of the file: trust
// in the HighRisk tier (from its fix commits), and a stored bug shape
// that matches it after the write — and says nothing of a calm file.
func TestApplyTrustAndAntibodyInsights(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	git := func(args ...string) {
		t.Helper()
		tooltest.Git(t, dir, "2026-06-01T10:00:00Z", args...)
	}
	put := func(rel, body string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, rel), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git("init", "-q")
	put("auth.py", "def require_session():\n    return 0\n")
	put("calm.py", "def calm():\n    return 0\n")
	git("add", ".")
	git("commit", "-q", "-m", "start")
	for i, msg := range []string{"fix session leak", "fix crash on expiry", "fix wrong token check", "fix regression in login"} {
		put("auth.py", "def require_session():\n    return "+string(rune('1'+i))+"\n")
		git("commit", "-q", "-am", msg)
	}
	cfg := tooltest.TestConfig()
	cfg.RuntimeDir = t.TempDir()
	d := tooltest.NewDispatcher(t, cfg)
	tooltest.MustCall(t, d, "ingest", map[string]any{"agent_id": "t", "path": dir})
	pattern := map[string]any{
		"nodes": []any{map[string]any{"id": "h", "type": "function"}, map[string]any{"id": "s", "label": "require_session", "match_mode": "exact"}},
		"edges": []any{map[string]any{"from": "h", "to": "s", "relation": "calls"}},
	}
	tooltest.MustCall(t, d, "antibody_create", map[string]any{"agent_id": "t", "pattern": pattern, "severity": "High", "description": "handler trusts the session"})

	insights := func(out map[string]any) map[string]string {
		got := map[string]string{}
		for _, in := range out["proactive_insights"].([]any) {
			m := in.(map[string]any)
			got[m["kind"].(string)+" "+m["file"].(string)] = m["detail"].(string)
		}
		return got
	}
	out := tooltest.MustCall(t, d, "apply", map[string]any{"agent_id": "t", "file_path": "auth.py",
		"new_content": "def require_session():\n    return 9\n\ndef handler():\n    return require_session()\n"})
	got := insights(out)
	if d := got["trust_drop auth.py"]; !strings.Contains(d, "HighRisk") || !strings.Contains(d, "4 fixes") {
		t.Errorf("trust_drop: %q in %v", d, got)
	}
	if d := got["antibody_recurrence auth.py"]; !strings.Contains(d, "ab_001") || !strings.Contains(d, "handler trusts the session") {
		t.Errorf("antibody_recurrence: %q in %v", d, got)
	}
	out = tooltest.MustCall(t, d, "apply", map[string]any{"agent_id": "t", "file_path": "calm.py", "new_content": "def calm():\n    return 9\n"})
	for k := range insights(out) {
		if slices.Contains([]string{"trust_drop calm.py", "antibody_recurrence calm.py"}, k) {
			t.Errorf("calm.py: %s", k)
		}
	}
}
