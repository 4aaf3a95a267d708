package change

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/m1nd-go/m1nd/core/testcorpus"
	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// A git revision is a snapshot: the graph of the root's tree at that
// commit, built once and kept in the runtime directory.
func TestDifferentialGitRevision(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := testcorpus.Write(dir, map[string]string{
		"app/store.py": "def load(key):\n    return key\n",
		"app/api.py":   "def handler(req):\n    return req\n",
	}); err != nil {
		t.Fatal(err)
	}
	git := func(args ...string) {
		t.Helper()
		tooltest.Git(t, dir, "2026-01-01T00:00:00Z", args...)
	}
	git("init", "-q")
	git("add", ".")
	git("commit", "-qm", "first")
	api := "from app.store import load\n\n\ndef handler(req):\n    return load(req)\n"
	if err := os.WriteFile(filepath.Join(dir, "app", "api.py"), []byte(api), 0o644); err != nil {
		t.Fatal(err)
	}
	git("commit", "-qam", "api reads the store")
	rt := t.TempDir()
	d := tooltest.NewDispatcher(t, session.Config{RuntimeDir: rt})
	tooltest.MustCall(t, d, "ingest", map[string]any{"agent_id": "t", "path": dir})

	edges := func(out map[string]any) []string {
		var got []string
		for _, e := range out["new_edges"].([]any) {
			m := e.(map[string]any)
			got = append(got, fmt.Sprint(m["source"], " ", m["relation"], " ", m["target"]))
		}
		return got
	}
	want := []string{"file::app/api.py imports file::app/store.py", "file::app/api.py::handler calls file::app/store.py::load"}
	for _, c := range []struct{ a, b string }{{"git:HEAD~1", "current"}, {"git:HEAD~1", "git:HEAD"}} {
		out := tooltest.MustCall(t, d, "differential", map[string]any{"agent_id": "t", "snapshot_a": c.a, "snapshot_b": c.b})
		got := edges(out)
		if !subset(want, got) {
			t.Errorf("%s → %s new edges (want ⊆ got): %v", c.a, c.b, got)
		}
		if n := out["counts"].(map[string]any)["removed_edges"]; n != 0.0 {
			t.Errorf("%s → %s removed %v edges", c.a, c.b, n)
		}
	}
	cached, _ := filepath.Glob(filepath.Join(rt, "snapshots", "git-*.bin"))
	if len(cached) != 2 {
		t.Errorf("revision graphs kept in the runtime directory: %v", cached)
	}
	for _, bad := range []string{"git:no-such-branch", "git:", "git:--output=/tmp/x"} {
		out, isErr := tooltest.Call(t, d, "differential", map[string]any{"agent_id": "t", "snapshot_a": bad, "snapshot_b": "current"})
		if !isErr || !strings.Contains(fmt.Sprint(out["hint"]), "git:<revision>") || out["example"] == nil {
			t.Errorf("%s: want a teaching error, got %v", bad, out)
		}
	}
}

// subset reports whether every string of want is in got.
func subset(want, got []string) bool {
	for _, w := range want {
		found := false
		for _, g := range got {
			found = found || g == w
		}
		if !found {
			return false
		}
	}
	return true
}
