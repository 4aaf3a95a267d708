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

// Files the ingest leaves out (a hidden CI directory, a vendored copy)
// are no nodes: diverge does not list them as modified or new with a
// node id no tool knows and commits_since 0 where git counts their
// commits.
func TestDivergeListsOnlyWhatTheGraphHolds(t *testing.T) {
	t.Parallel()
	dir := fixture.Write(t)
	tooltest.Git(t, dir, "2026-03-01T10:00:00Z", "tag", "base")
	for _, f := range []string{".github/workflows/ci.yml", "node_modules/dep/index.js", "backend/extra.py"} {
		p := filepath.Join(dir, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x = 1\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tooltest.Git(t, dir, "2026-03-02T10:00:00Z", "add", "-f", ".")
	tooltest.Git(t, dir, "2026-03-02T10:00:00Z", "commit", "-qm", "ci, a vendored dep and a module")
	d := tooltest.NewDispatcher(t, session.Config{})
	tooltest.MustCall(t, d, "ingest", map[string]any{"agent_id": "t", "path": dir})
	out := tooltest.MustCall(t, d, "diverge", map[string]any{"agent_id": "t", "baseline": "base"})
	got := tooltest.ToStrings(out["new_nodes"])
	if len(got) != 1 || got[0] != "file::backend/extra.py" {
		t.Errorf("new_nodes %v, want only file::backend/extra.py", got)
	}
}
