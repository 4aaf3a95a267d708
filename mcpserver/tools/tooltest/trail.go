package tooltest

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

func SaveTrail(t testing.TB, d *tools.Dispatcher, agent, label string, nodes ...string) string {
	t.Helper()
	out := MustCall(t, d, "trail_save", map[string]any{"agent_id": agent, "label": label,
		"hypotheses": []map[string]any{{"statement": label + " matters", "supporting_nodes": nodes}}})
	return out["trail_id"].(string)
}

// editFile rewrites a fixture file with a later mtime.
func EditFile(t testing.TB, dir, rel, content string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	at := time.Now().Add(time.Hour)
	os.Chtimes(p, at, at)
}
