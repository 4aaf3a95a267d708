package change_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// A year of a mid-size repository modifies hundreds of files (grpc-go:
// 329 since 2023). Every one's lines are counted as `git diff --numstat`
// counts them, so the largest change is listed first wherever its path
// sorts: zz.py, last of 320, once counted 0 past a cap of 300.
func TestDivergeCountsEveryModifiedFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	git := func(args ...string) {
		t.Helper()
		tooltest.Git(t, dir, "2026-02-01T10:00:00Z", args...)
	}
	write := func(name, text string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git("init", "-q", "-b", "main")
	names := make([]string, 0, 320)
	for i := range 319 {
		names = append(names, fmt.Sprintf("m%03d.py", i))
	}
	names = append(names, "zz.py")
	for _, n := range names {
		write(n, "def f():\n    return 1\n")
	}
	git("add", ".")
	git("commit", "-qm", "base")
	for _, n := range names[:319] {
		write(n, "def f():\n    return 2\n")
	}
	write("zz.py", "def f():\n    return 1\n"+strings.Repeat("x = 1\n", 40))
	git("commit", "-qam", "change every file")
	d := tooltest.NewDispatcher(t, session.Config{})
	tooltest.MustCall(t, d, "ingest", map[string]any{"agent_id": "t", "path": dir})
	out := tooltest.MustCall(t, d, "diverge", map[string]any{"agent_id": "t", "baseline": "HEAD~1"})
	m := out["modified_nodes"].([]any)[0].(map[string]any)
	if m["file"] != "zz.py" || m["lines_added"] != 40.0 || m["lines_deleted"] != 0.0 || m["growth_ratio"] != 21.0 {
		t.Errorf("largest change %v, want zz.py +40/-0, growth 21", m)
	}
	if note, _ := out["note"].(string); strings.Contains(note, "Line changes counted") {
		t.Errorf("note %q: every file's lines are counted", note)
	}
}
