package patterns

import (
	"os"
	"testing"
	"time"

	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// TestCorpusProbe prints answers on a corpus (M1ND_PATTERNS_CORPUS) for a
// person to read; it checks nothing and is skipped by default.
func TestCorpusProbe(t *testing.T) {
	root := os.Getenv("M1ND_PATTERNS_CORPUS")
	if root == "" {
		t.Skip("M1ND_PATTERNS_CORPUS names a tree to ingest")
	}
	cfg := tooltest.TestConfig()
	cfg.AllowRoots = append(cfg.AllowRoots, root)
	d := tooltest.NewDispatcher(t, cfg)
	tooltest.MustCall(t, d, "ingest", map[string]any{"agent_id": "t", "path": root})
	for _, call := range []struct {
		tool string
		args map[string]any
	}{
		{"twins", map[string]any{"top_k": 15}},
		{"twins", map[string]any{"top_k": 15}},
	} {
		call.args["agent_id"] = "t"
		start := time.Now()
		out, _ := tooltest.Call(t, d, call.tool, call.args)
		t.Logf("%s %v in %v:\n%s", call.tool, call.args, time.Since(start), tooltest.ToJSON(out))
	}
}
