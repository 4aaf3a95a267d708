package change_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/m1nd-go/m1nd/mcpserver/internal/fixture"
	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// A project that adds a release note with each change (reno, towncrier):
// every commit to auth.py writes a new notes/*.yaml, never an old one.
// validate_plan must not list the old notes as files the plan misses (a
// task about the same feature matched one best, tenacity's jitter note),
// and must propose adding a new note instead.
func TestValidatePlanProposesANewReleaseNote(t *testing.T) {
	t.Parallel()
	dir := fixture.Write(t)
	write := func(rel, text string) {
		t.Helper()
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for i, feature := range []string{"token expiry", "session jitter", "login retry", "password hashing"} {
		date := fmt.Sprintf("2026-03-%02dT10:00:00Z", i+1)
		f, err := os.OpenFile(filepath.Join(dir, "backend", "auth.py"), os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(f, "\n# %s\n", feature)
		f.Close()
		write(fmt.Sprintf("notes/change-%d.yaml", i), "features:\n  - "+feature+" in auth\n")
		tooltest.Git(t, dir, date, "add", ".")
		tooltest.Git(t, dir, date, "commit", "-qm", feature)
	}
	d := tooltest.NewDispatcher(t, session.Config{})
	tooltest.MustCall(t, d, "ingest", map[string]any{"agent_id": "t", "path": dir})
	plan := map[string]any{"agent_id": "t", "task": "add session jitter to auth", "actions": []any{
		map[string]any{"action_type": "modify", "file_path": "backend/auth.py"},
	}}
	out := tooltest.MustCall(t, d, "validate_plan", plan)
	for _, g := range out["gaps"].([]any) {
		if f := g.(map[string]any)["file_path"].(string); strings.HasPrefix(f, "notes/") {
			t.Errorf("an old release note %s is a gap: %v", f, out["gaps"])
		}
	}
	var note map[string]any
	for _, a := range out["suggested_additions"].([]any) {
		if m := a.(map[string]any); m["file_path"] == "notes/" {
			note = m
		}
	}
	if note == nil || note["action_type"] != "create" || !strings.Contains(note["reason"].(string), "4 of the") || !strings.Contains(note["reason"].(string), "notes/change-3.yaml") {
		t.Fatalf("no new release note proposed (or not from the history): %v", out["suggested_additions"])
	}
	plan["actions"] = append(plan["actions"].([]any), map[string]any{"action_type": "create", "file_path": "notes/change-4.yaml"})
	out = tooltest.MustCall(t, d, "validate_plan", plan)
	for _, a := range out["suggested_additions"].([]any) {
		if a.(map[string]any)["file_path"] == "notes/" {
			t.Errorf("a plan that adds its note is still told to add one: %v", a)
		}
	}
}
