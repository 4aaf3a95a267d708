package query_test

import (
	"os"
	"testing"
	"time"

	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// TestProfFirstCalls is a harness, not a check (run by hand, skipped
// unless $M1ND_FIRST_CALLS_CORPUS names a tree): it ingests the tree
// through the server with a runtime directory, waits
// $M1ND_FIRST_CALLS_DELAY (a duration, default none) after the answer,
// then calls seek, activate and impact twice each and logs every call's
// wall time. With $M1ND_SEEK_CALL_PROFILE (or _TRACE) each call writes a
// 2 kHz CPU profile (or a trace) named by tool and call: what the first
// call of a tool does that its second does not.
func TestProfFirstCalls(t *testing.T) {
	dir := os.Getenv("M1ND_FIRST_CALLS_CORPUS")
	if dir == "" {
		t.Skip("set M1ND_FIRST_CALLS_CORPUS to a tree to ingest")
	}
	var delay time.Duration
	if v := os.Getenv("M1ND_FIRST_CALLS_DELAY"); v != "" {
		var err error
		if delay, err = time.ParseDuration(v); err != nil {
			t.Fatalf("M1ND_FIRST_CALLS_DELAY is a duration, e.g. 3s: %v", err)
		}
	}
	d := tooltest.NewDispatcher(t, session.Config{RuntimeDir: t.TempDir()})
	start := time.Now()
	tooltest.MustCall(t, d, "ingest", map[string]any{"agent_id": "bench", "path": dir})
	t.Logf("FIRSTCALL ingest %v", time.Since(start))
	time.Sleep(delay)
	target := ""
	call := func(tool, name string, args map[string]any) map[string]any {
		stop := profileCall(t, tool+"."+name)
		s := time.Now()
		out := tooltest.MustCall(t, d, tool, args)
		w := time.Since(s)
		stop()
		t.Logf("FIRSTCALL %s %s %.1f ms (handler elapsed_ms %v)", tool, name, float64(w.Microseconds())/1000, out["elapsed_ms"])
		return out
	}
	for _, name := range []string{"first", "second"} {
		out := call("seek", name, map[string]any{"agent_id": "bench", "query": "parse an HTTP request header", "top_k": 10})
		if rs, ok := out["results"].([]any); ok && len(rs) > 0 && target == "" {
			target, _ = rs[0].(map[string]any)["node_id"].(string)
		}
	}
	for _, name := range []string{"first", "second"} {
		call("activate", name, map[string]any{"agent_id": "bench", "query": "encode json"})
	}
	if target == "" {
		t.Fatal("seek found nothing to ask impact about")
	}
	for _, name := range []string{"first", "second"} {
		call("impact", name, map[string]any{"agent_id": "bench", "node_id": target})
	}
}
