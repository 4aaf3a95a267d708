package system

import (
	"context"
	"encoding/json"
	"os"
	"runtime/debug"
	"testing"
	"time"

	"github.com/m1nd-go/m1nd/mcpserver/internal/fixture"
	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// TestIngestHoldsTheGCRoom: a durable ingest runs with the full ingest's
// room for garbage (GOGC raised over a small live heap, seen from its
// progress), and gives GOGC back once the builds behind its answer are
// over (here: once the session has closed, which waits for them).
func TestIngestHoldsTheGCRoom(t *testing.T) {
	if _, set := os.LookupEnv("GOMEMLIMIT"); set {
		t.Skip("GOMEMLIMIT is set: the memory policy is off")
	}
	if _, set := os.LookupEnv("GOGC"); set {
		t.Skip("GOGC is set")
	}
	d := tooltest.NewDispatcher(t, session.Config{RuntimeDir: t.TempDir()})
	raw, _ := json.Marshal(map[string]any{"agent_id": "t", "path": fixture.Write(t), "mode": "replace"})
	during := 0
	res := d.Call(context.Background(), "ingest", raw, func(float64, float64, string) { during = max(during, gcPercent()) })
	if res.IsError {
		t.Fatal(res.Text())
	}
	if during <= 100 {
		t.Errorf("GOGC during the ingest was at most %d, want the ingest's room (more than 100)", during)
	}
	d.Session.Close()
	after := gcPercent()
	for i := 0; i < 200 && after != 100; i++ { // (given back on its own goroutine)
		time.Sleep(5 * time.Millisecond)
		after = gcPercent()
	}
	if after != 100 {
		t.Errorf("after the ingest and the builds behind it GOGC is %d, want 100 back", after)
	}
}

// gcPercent reads GOGC (setting it back at once).
func gcPercent() int {
	p := debug.SetGCPercent(100)
	debug.SetGCPercent(p)
	return p
}
