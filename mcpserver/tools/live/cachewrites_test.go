package live

import (
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
	"github.com/m1nd-go/m1nd/mcpserver/watch"
)

// A tick's extraction blobs and manifest are written once its graph is
// live, not beside its parse: when the new graph is published the root's
// ingest cache still holds the tick's writes; after the tick they run,
// and the changed file's result is read back from its blob.
func TestTickWritesCacheAfterPublish(t *testing.T) {
	t.Parallel()
	d, dir := daemonFixture(t)
	store, ok := session.RootSharedIfAny(d.Session, dir, tools.IngestCacheKey("code"))
	if !ok {
		t.Fatal("no ingest cache for the root")
	}
	// The ingest's own writes are held until its save has started: wait
	// for them, so that a hold seen below is the tick's.
	for store.Holding() {
		time.Sleep(time.Millisecond)
	}
	var mu sync.Mutex
	var held []bool // at each publish
	d.Session.OnEvent(func(ev session.Event) {
		if ev.Kind == "graph_replaced" {
			mu.Lock()
			held = append(held, store.Holding())
			mu.Unlock()
		}
	})
	rel := "backend/auth.py"
	p := filepath.Join(dir, rel)
	src, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	for i, body := range []string{"\n\ndef logout(request):\n    return None\n", "\n\ndef logout(request):\n    return 1\n"} {
		if err := os.WriteFile(p, append(src, body...), 0o644); err != nil {
			t.Fatal(err)
		}
		res := tools.DaemonOf(d).TickChanged(t.Context(), 0, watch.Changes{Paths: []string{p}, Complete: true, Closed: time.Now()})
		if res.FilesReingested != 1 || len(res.Updates) != 1 || !res.Updates[0].Patched {
			t.Fatalf("round %d: watch tick %+v", i, res)
		}
		mu.Lock()
		got := held
		held = nil
		mu.Unlock()
		if len(got) != 1 || !got[0] {
			t.Fatalf("round %d: the cache's writes held at the tick's publish: %v, want [true]", i, got)
		}
		if store.Holding() {
			t.Fatalf("round %d: the cache's writes still held after the tick", i)
		}
		if err := store.Flush(); err != nil {
			t.Fatal(err)
		}
		e, ok := store.Entry(rel)
		if !ok {
			t.Fatalf("round %d: no manifest entry for %s", i, rel)
		}
		r, err := store.Result(rel, e)
		if err != nil {
			t.Fatalf("round %d: the tick's result of %s: %v", i, rel, err)
		}
		if r.Path != rel {
			t.Fatalf("round %d: result of %q, want %q", i, r.Path, rel)
		}
	}
}
