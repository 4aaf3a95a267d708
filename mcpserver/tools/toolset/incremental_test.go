package toolset

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// learnedEdges lists the edges of the served graph whose weight learning
// moved, keyed by (source, target, relation).
func learnedEdges(d *tools.Dispatcher) map[[3]string]float32 {
	g := d.Session.Current().Graph
	out := map[[3]string]float32{}
	d.Session.Plasticity.Locked(func() {
		pl := g.EdgePlasticity()
		for e := 0; e < g.NumEdges(); e++ {
			ei := graph.EdgeIdx(e)
			if w := g.Weight(ei); w != pl.Original[e] {
				out[[3]string{g.ExternalID(g.Source(ei)), g.ExternalID(g.Target(ei)), g.RelationName(ei)}] = w
			}
		}
	})
	return out
}

// TestIncrementalIngestPatches edits one file's contents and re-ingests
// incrementally while agents keep learning: the served graph is patched
// (the response says so), shows the edit, and keeps what was learned on
// edges the edit did not touch.
func TestIncrementalIngestPatches(t *testing.T) {
	t.Parallel()
	d, dir := tooltest.IngestedFixture(t)
	// The first incremental run fills the cache from the full one.
	tooltest.MustCall(t, d, "ingest", map[string]any{"agent_id": "t", "path": dir, "incremental": true})
	tooltest.MustCall(t, d, "learn", map[string]any{"agent_id": "t", "query": "authentication", "feedback": "correct", "node_ids": []string{"file::backend/auth.py"}})
	before := learnedEdges(d)
	if len(before) == 0 {
		t.Fatal("learn moved no weight")
	}

	p := filepath.Join(dir, "backend", "payments.py")
	at := time.Now().Add(time.Hour)
	edit := func(extra string) {
		t.Helper()
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, append(data, extra...), 0o644); err != nil {
			t.Fatal(err)
		}
		at = at.Add(time.Minute)
		os.Chtimes(p, at, at)
	}
	patched := func(out map[string]any) {
		t.Helper()
		inc, _ := out["stats"].(map[string]any)["incremental"].(map[string]any)
		if inc["patched"] != true || inc["changed"] != float64(1) {
			t.Fatalf("incremental stats %v, want a patch of one changed file", inc)
		}
	}

	edit("\n\ndef refund_all():\n    return None\n")
	patched(tooltest.MustCall(t, d, "ingest", map[string]any{"agent_id": "t", "path": dir, "incremental": true}))
	if _, ok := d.Session.Current().Graph.Lookup("file::backend/payments.py::refund_all"); !ok {
		t.Fatal("the new function is not in the served graph")
	}
	after := learnedEdges(d)
	const edited = "file::backend/payments.py"
	for k, w := range before {
		if strings.HasPrefix(k[0], edited) {
			continue // the edited file's own edges are rebuilt
		}
		if got, ok := after[k]; !ok || got != w {
			t.Errorf("learned weight of %v: %v before the patch, %v (learned %v) after", k, w, got, ok)
		}
	}

	// Again while agents keep learning (run with -race).
	edit("\n\ndef refund_none():\n    return None\n")
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-stop:
				return
			default:
			}
			tooltest.Call(t, d, "learn", map[string]any{"agent_id": "u", "query": "session expiry", "feedback": "correct", "node_ids": []string{"file::backend/session.py"}})
		}
	}()
	out := tooltest.MustCall(t, d, "ingest", map[string]any{"agent_id": "t", "path": dir, "incremental": true})
	close(stop)
	wg.Wait()
	patched(out)
}
