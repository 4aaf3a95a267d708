package patterns

import (
	"encoding/json"
	"os"
	"testing"
	"time"

	"github.com/m1nd-go/m1nd/core/testcorpus"
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// TestCorpusProbe prints answers on a tree (M1ND_PATTERNS_CORPUS) for a
// person to read: M1ND_PATTERNS_CALLS is a JSON list of
// {"tool": …, "args": {…}}. It checks nothing and is skipped by default.
func TestCorpusProbe(t *testing.T) {
	root := testcorpus.OptIn(t, "M1ND_PATTERNS_CORPUS", "a tree to ingest")
	var calls []struct {
		Tool string         `json:"tool"`
		Args map[string]any `json:"args"`
	}
	if err := json.Unmarshal([]byte(os.Getenv("M1ND_PATTERNS_CALLS")), &calls); err != nil {
		t.Fatalf("M1ND_PATTERNS_CALLS: %v", err)
	}
	cfg := tooltest.TestConfig()
	cfg.AllowRoots = append(cfg.AllowRoots, root)
	d := tooltest.NewDispatcher(t, cfg)
	tooltest.MustCall(t, d, "ingest", map[string]any{"agent_id": "t", "path": root})
	for _, call := range calls {
		call.Args["agent_id"] = "t"
		start := time.Now()
		out, _ := tooltest.Call(t, d, call.Tool, call.Args)
		t.Logf("%s %v in %v:\n%s", call.Tool, call.Args, time.Since(start), tooltest.ToJSON(out))
	}
}
