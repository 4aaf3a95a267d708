package tooltest

import (
	"testing"

	"github.com/m1nd-go/m1nd/core/testcorpus"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

func FixtureRepo(t *testing.T, files map[string]string) (*tools.Dispatcher, string) {
	t.Helper()
	dir := t.TempDir()
	if err := testcorpus.Write(dir, files); err != nil {
		t.Fatal(err)
	}
	d := NewDispatcher(t, TestConfig())
	MustCall(t, d, "ingest", map[string]any{"agent_id": "t", "path": dir})
	return d, dir
}
