package tooltest

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

func FixtureRepo(t *testing.T, files map[string]string) (*tools.Dispatcher, string) {
	t.Helper()
	dir := t.TempDir()
	for rel, body := range files {
		p := filepath.Join(dir, rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	d := NewDispatcher(t, TestConfig())
	MustCall(t, d, "ingest", map[string]any{"agent_id": "t", "path": dir})
	return d, dir
}
