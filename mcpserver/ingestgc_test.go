package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"testing"
)

// TestIngestHoldsCollections: while the ingest tool runs on a small tree
// the runtime's collections wait (its progress reports see the percent
// off), and its answer leaves the percent as it found it.
func TestIngestHoldsCollections(t *testing.T) {
	for _, env := range []string{"GOGC", "GOMEMLIMIT"} {
		if _, set := os.LookupEnv(env); set {
			t.Skipf("%s is set: the server leaves the collector to it", env)
		}
	}
	tree := t.TempDir()
	for i := range 4 {
		src := fmt.Sprintf("import os\n\n\ndef f%d(x):\n    return os.path.join(x, 'a')\n", i)
		if err := os.WriteFile(filepath.Join(tree, fmt.Sprintf("m%d.py", i)), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ctx := context.Background()
	d, err := Open(ctx, Options{RuntimeDir: t.TempDir(), AllowRoots: []string{tree}}, func(string) string { return "" }, func(string, ...any) {})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Session.Close()
	percent := func() int { p := debug.SetGCPercent(-1); debug.SetGCPercent(p); return p }
	before := percent()
	held, reports := 0, 0
	raw, _ := json.Marshal(map[string]any{"agent_id": "t", "path": tree, "mode": "replace"})
	res := d.Call(ctx, "ingest", raw, func(done, total float64, msg string) {
		reports++
		if percent() == -1 {
			held++
		}
	})
	if res.IsError {
		t.Fatal(res.Text())
	}
	if held == 0 {
		t.Errorf("collections were not held during the ingest (%d progress reports)", reports)
	}
	if got := percent(); got != before {
		t.Errorf("GC percent after the ingest %d, want %d as before", got, before)
	}
}
