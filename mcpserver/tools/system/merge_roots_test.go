package system_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/m1nd-go/m1nd/mcpserver/internal/fixture"
	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// TestDocsMergedFromTheCodeRootKeepIt: a repository's docs merged from
// its own directory (as document_drift's hint teaches) add a documents
// root beside the code root at the same path. Before, the merge replaced
// the code root and dropped its file stamps: staleness, the watcher and
// edits stopped seeing the path as code. A second docs merge still
// replaces the first.
func TestDocsMergedFromTheCodeRootKeepIt(t *testing.T) {
	dir := fixture.Write(t)
	d := tooltest.NewDispatcher(t, session.Config{})
	tooltest.MustCall(t, d, "ingest", map[string]any{"agent_id": "t", "path": dir})
	for range 2 {
		tooltest.MustCall(t, d, "ingest", map[string]any{"agent_id": "t", "path": dir, "adapter": "universal", "mode": "merge"})
	}
	b := d.Session.Current()
	kinds := map[string]int{}
	for _, r := range b.Roots {
		if r.Path != dir {
			t.Errorf("root %s, want only %s", r.Path, dir)
		}
		kinds[r.Adapter]++
	}
	if kinds["code"] != 1 || kinds["universal"] != 1 || len(b.Roots) != 2 {
		t.Fatalf("roots after the docs merge: %+v, want one code and one universal root", b.Roots)
	}
	if len(b.Files) != 1 || b.Files[0].Root != dir || b.Files[0].Prefix != "file::" || len(b.Files[0].Files) == 0 {
		t.Fatalf("file stamps after the docs merge: %+v, want the code root's", b.Files)
	}
	// The code root's staleness is still seen.
	p := filepath.Join(dir, "backend", "auth.py")
	if err := os.WriteFile(p, []byte("def login():\n    return 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := tooltest.MustCall(t, d, "audit", map[string]any{"agent_id": "t", "path": "backend/auth.py"})
	roots := out["ingest_state"].(map[string]any)["roots"].([]any)
	modified := 0.0
	for _, r := range roots {
		modified += r.(map[string]any)["files_modified"].(float64)
	}
	if modified != 1 {
		t.Errorf("audit's roots after editing backend/auth.py: %v, want 1 file modified", roots)
	}
	// The daemon watches the path once, and its re-ingest of the code
	// root (a merge, since two roots) keeps the documents root.
	st := tooltest.MustCall(t, d, "daemon_start", map[string]any{"agent_id": "t"})
	defer tooltest.MustCall(t, d, "daemon_stop", map[string]any{"agent_id": "t"})
	if w := st["watch_paths"].([]any); len(w) != 1 {
		t.Errorf("watch_paths %v, want the root once", w)
	}
	tooltest.MustCall(t, d, "ingest", map[string]any{"agent_id": "t", "path": dir, "mode": "merge", "incremental": true})
	if rs := d.Session.Current().Roots; len(rs) != 2 || rs[0].Adapter == rs[1].Adapter {
		t.Errorf("roots after the code root's re-ingest: %+v, want its code and universal roots", rs)
	}
}
