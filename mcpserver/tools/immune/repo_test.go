package immune_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// head is the scripted history's newest commit: the day before the tool
// tests' clock (2026-01-20 12:00 UTC).
var head = time.Date(2026, 1, 19, 12, 0, 0, 0, time.UTC)

// step is one commit: days before head, its subject, the files it writes.
type step struct {
	daysBefore float64
	subject    string
	files      []string
}

// riskHistory: b.py is fixed twice (100 and 60 days before head), c.py
// and README.md once (60 days); a.py only changes. a imports b, b
// imports c.
var riskHistory = []step{
	{360, "initial import", []string{"app/a.py", "app/b.py", "app/c.py", "README.md"}},
	{260, "Fix crash in b when the cache is empty", []string{"app/b.py"}},
	{160, "add a feature to a", []string{"app/a.py"}},
	{60, "fix regression in b and c", []string{"app/b.py", "app/c.py", "README.md"}},
	{0, "tune a", []string{"app/a.py"}},
}

var riskFiles = map[string]string{
	"app/a.py":  "from app.b import load\n\n\ndef run():\n    return load()\n",
	"app/b.py":  "from app.c import parse\n\n\ndef load():\n    return parse('x')\n",
	"app/c.py":  "def parse(s):\n    return s.strip()\n",
	"README.md": "# app\n\nLoads and parses.\n",
}

// writeHistory commits steps into a new repository; each commit appends
// a line to its files so that each really changes them, and the last
// writes riskFiles exactly.
func writeHistory(t testing.TB, steps []step, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	repo, err := git.PlainInit(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	wt, err := repo.Worktree()
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range steps {
		for _, p := range s.files {
			body := files[p]
			if i < len(steps)-1 {
				body += "# revision " + s.subject + "\n"
			}
			full := filepath.Join(dir, p)
			if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(full, []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
			if _, err := wt.Add(p); err != nil {
				t.Fatal(err)
			}
		}
		when := head.Add(-time.Duration(s.daysBefore * 24 * float64(time.Hour)))
		sig := &object.Signature{Name: "t", Email: "t@example.com", When: when}
		if _, err := wt.Commit(s.subject, &git.CommitOptions{Author: sig, Committer: sig}); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// riskRepo ingests the scripted history into a server (persistent when rt
// is not "").
func riskRepo(t testing.TB, rt string) (*tools.Dispatcher, string) {
	t.Helper()
	dir := writeHistory(t, riskHistory, riskFiles)
	d := tooltest.NewDispatcher(t, session.Config{RuntimeDir: rt})
	tooltest.MustCall(t, d, "ingest", map[string]any{"agent_id": "t", "path": dir})
	return d, dir
}
