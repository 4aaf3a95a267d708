package change_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/m1nd-go/m1nd/mcpserver/internal/fixture"
	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// A date baseline is what the branch held on that date: the last commit
// of the first-parent chain committed by then (git rev-list -1
// --first-parent --before). A commit authored on 2026-01-20 that landed
// on 2026-02-10 is after a 2026-02-01 baseline, not the baseline itself.
func TestDivergeDateByCommitterDate(t *testing.T) {
	t.Parallel()
	dir := fixture.Write(t)
	commit := func(file, authored, committed string) {
		t.Helper()
		f, err := os.OpenFile(filepath.Join(dir, filepath.FromSlash(file)), os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString("\n# changed on " + authored + "\n")
		f.Close()
		tooltest.GitDates(t, dir, authored, committed, "commit", "-qam", "change "+file)
	}
	commit("backend/auth.py", "2026-01-20T10:00:00Z", "2026-02-10T10:00:00Z")
	commit("backend/crypto.py", "2026-02-11T10:00:00Z", "2026-02-11T10:00:00Z")
	d := tooltest.NewDispatcher(t, session.Config{})
	tooltest.MustCall(t, d, "ingest", map[string]any{"agent_id": "t", "path": dir})
	out := tooltest.MustCall(t, d, "diverge", map[string]any{"agent_id": "t", "baseline": "2026-02-01"})
	tooltest.CheckGolden(t, "diverge_date_committer", out, dir)
	head := tooltest.MustCall(t, d, "diverge", map[string]any{"agent_id": "t", "baseline": "HEAD~2"})
	if out["baseline_commit"] != head["baseline_commit"] || out["commits_since"] != 2.0 {
		t.Errorf("baseline %v (HEAD~2 is %v), %v commits since; want HEAD~2 and 2", out["baseline_commit"], head["baseline_commit"], out["commits_since"])
	}
}
