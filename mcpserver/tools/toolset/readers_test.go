package toolset

import (
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/m1nd-go/m1nd/mcpserver/internal/fixture"
	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// TestSlowReaderBlocksNoOne: while one read call is held inside its read of
// the graph and an ingest is in flight (held in its progress callback),
// other agents' reads (seek, glob, view, health) answer; the ingest then
// publishes its graph without waiting for the held reader, which keeps
// the snapshot it started with. With a read/write lock, the ingest's swap
// waited for the held reader and every read after it waited for the swap:
// one slow seek froze the server. The waits are on channels; the timeouts
// only turn a hang into a failure.
func TestSlowReaderBlocksNoOne(t *testing.T) {
	t.Parallel()
	dir := fixture.Write(t)
	r := Builtin()
	entered, release := make(chan uint64), make(chan struct{})
	type heldOut struct {
		Gen          uint64 `json:"gen"`
		CurrentAtEnd uint64 `json:"current_at_end"`
	}
	tools.Add(r, tools.Tool{Name: "zz_held_read", Title: "held read", Description: "test: a read held until released", Class: tools.Read, Example: map[string]any{"agent_id": "t"}},
		func(c *tools.Call, _ struct{}) (heldOut, error) {
			var out heldOut
			err := c.Session.Read(c.Ctx, func(b *session.Bundle) error {
				out.Gen = b.Gen
				entered <- b.Gen
				<-release
				out.CurrentAtEnd = c.Session.Current().Gen
				return nil
			})
			return out, err
		})
	d := &tools.Dispatcher{Registry: r, Session: tooltest.NewDispatcher(t, tooltest.TestConfig()).Session}
	tooltest.MustCall(t, d, "ingest", map[string]any{"agent_id": "t", "path": dir})
	gen0 := d.Session.Current().Gen

	// 1. A slow reader holds its read.
	heldDone := make(chan tools.Result, 1)
	go func() { heldDone <- tooltest.HeldCall(d, "zz_held_read", map[string]any{"agent_id": "slow"}, nil) }()
	if g := <-entered; g != gen0 {
		t.Fatalf("held reader saw generation %d, want %d", g, gen0)
	}

	// 2. An ingest of a changed file starts and is held in its progress.
	f := filepath.Join(dir, "backend", "auth.py")
	data, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(f, append(data, []byte("\n\ndef audit_login(user):\n    return user\n")...), 0o644); err != nil {
		t.Fatal(err)
	}
	inIngest, goOn := make(chan struct{}), make(chan struct{})
	var once sync.Once
	progress := func(float64, float64, string) {
		once.Do(func() {
			close(inIngest)
			<-goOn
		})
	}
	ingestDone := make(chan tools.Result, 1)
	go func() {
		ingestDone <- tooltest.HeldCall(d, "ingest", map[string]any{"agent_id": "writer", "path": dir, "incremental": true}, progress)
	}()
	<-inIngest

	// 3. Other agents' reads answer while both are pending.
	reads := []struct {
		tool string
		args map[string]any
	}{
		{"health", map[string]any{"agent_id": "other"}},
		{"seek", map[string]any{"agent_id": "other", "query": "validate user credentials"}},
		{"glob", map[string]any{"agent_id": "other", "pattern": "backend/*.py"}},
		{"view", map[string]any{"agent_id": "other", "file_path": "backend/session.py", "auto_ingest": false}},
	}
	for _, rd := range reads {
		res := tooltest.HeldWithin(t, rd.tool+" while a reader and an ingest are pending", func() tools.Result { return tooltest.HeldCall(d, rd.tool, rd.args, nil) })
		if res.IsError {
			t.Errorf("%s: %s", rd.tool, res.Text())
		}
	}

	// 4. The ingest publishes while the slow reader still holds its read.
	close(goOn)
	res := tooltest.HeldWait(t, ingestDone, "the ingest, while a reader is held")
	if res.IsError {
		t.Fatalf("ingest: %s", res.Text())
	}
	gen1 := d.Session.Current().Gen
	if gen1 <= gen0 {
		t.Fatalf("the ingest published no new generation (%d → %d)", gen0, gen1)
	}
	out := tooltest.HeldDecode(t, tooltest.HeldWithin(t, "health after the ingest", func() tools.Result {
		return tooltest.HeldCall(d, "health", map[string]any{"agent_id": "other"}, nil)
	}))
	if g := out["graph_generation"].(float64); uint64(g) != gen1 {
		t.Errorf("a read after the publish sees generation %v, want %d", g, gen1)
	}

	// 5. The held reader kept its snapshot throughout.
	close(release)
	held := tooltest.HeldDecode(t, tooltest.HeldWait(t, heldDone, "the held reader"))
	if g := held["gen"].(float64); uint64(g) != gen0 {
		t.Errorf("held reader's bundle is generation %v, want %d", g, gen0)
	}
	if g := held["current_at_end"].(float64); uint64(g) != gen1 {
		t.Errorf("current generation at the held reader's end is %v, want %d (published meanwhile)", g, gen1)
	}
}
