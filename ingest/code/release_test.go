package code

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
	"weak"

	"github.com/google/go-cmp/cmp"

	"github.com/m1nd-go/m1nd/ingest/adapter"
	"github.com/m1nd-go/m1nd/ingest/cache"
	"github.com/m1nd-go/m1nd/ingest/extract"
	"github.com/m1nd-go/m1nd/ingest/internal/graphdump"
)

// TestReleaseLeavesTheCacheWhole: finalize lets go of the run's
// extractions before the CSR build, but the store shares those objects
// with the next incremental run (and encodes queued blobs from them), so
// a patch, a rebuild from the cache and a cold start after a full ingest
// must still give the graph a fresh full ingest gives, edge for edge.
// Clearing the results' edges in place instead (an earlier experiment)
// fails it with a store that keeps results in memory.
func TestReleaseLeavesTheCacheWhole(t *testing.T) {
	forEachStore(t, testReleaseLeavesTheCacheWhole)
}

func testReleaseLeavesTheCacheWhole(t *testing.T, open func(string) *cache.Store) {
	r := newFixtureRepo(t)
	cacheDir := t.TempDir()
	store := open(cacheDir)
	run := func(s *cache.Store) *adapter.Output {
		t.Helper()
		return ingest(t, adapter.Request{Root: r.Dir, Incremental: true, Cache: s})
	}
	first := run(store)
	sameEdges(t, r.Dir, first, "full")
	if store.Spills() {
		blobsMatchFiles(t, store, r.Dir)
	}

	// A patch after the full ingest (the graph is held, as a server does).
	at := time.Now().Add(time.Hour)
	writeFiles(t, r.Dir, map[string]string{"app/extra.py": "from .models import User\n\n\ndef make():\n    return User().save()\n"})
	touch(t, filepath.Join(r.Dir, "app/extra.py"), at)
	patched := run(store)
	if !patched.Stats.Incremental.Patched {
		t.Fatalf("not patched: %+v", patched.Stats.Incremental)
	}
	sameEdges(t, r.Dir, patched, "patch")
	runtime.KeepAlive(first)

	// A rebuild from the cached extractions (the previous graph let go).
	first, patched = nil, nil
	runtime.GC()
	writeFiles(t, r.Dir, map[string]string{"app/extra.py": "from .models import User\n\n\ndef make():\n    return User()\n"})
	touch(t, filepath.Join(r.Dir, "app/extra.py"), at.Add(time.Minute))
	rebuilt := run(store)
	if inc := rebuilt.Stats.Incremental; inc.Full || inc.Patched || inc.Reused == 0 {
		t.Fatalf("want a rebuild reusing the cache: %+v", inc)
	}
	sameEdges(t, r.Dir, rebuilt, "rebuild")

	// A new process reads every result from disk.
	if err := store.Flush(); err != nil {
		t.Fatal(err)
	}
	cold := run(open(cacheDir))
	if inc := cold.Stats.Incremental; inc.Full || inc.Changed+inc.Added != 0 {
		t.Fatalf("cold run: %+v", inc)
	}
	sameEdges(t, r.Dir, cold, "cold start")
}

// sameEdges compares got's edge list with a fresh full ingest's, byte for
// byte, then the whole graph (equalToFull).
func sameEdges(t *testing.T, root string, got *adapter.Output, what string) {
	t.Helper()
	full := ingest(t, adapter.Request{Root: root})
	want := edgeList(graphdump.Of(full.Graph))
	if have := edgeList(graphdump.Of(got.Graph)); have != want {
		t.Fatalf("%s: edges differ from a full ingest (-full +got):\n%s", what, cmp.Diff(strings.Split(want, "\n"), strings.Split(have, "\n")))
	}
	equalToFull(t, root, got)
}

// edgeList renders every field of every edge, one line each.
func edgeList(d graphdump.Dump) string {
	var b strings.Builder
	for _, e := range d.Edges {
		fmt.Fprintf(&b, "%s\t%s\t%s\t%g\t%g\t%s\t%v\n", e.Source, e.Relation, e.Target, e.Weight, e.Causal, e.Direction, e.Inhibitory)
	}
	return b.String()
}

// blobsMatchFiles checks that every result a store wrote behind is the
// extraction of its file: a result modified after Put but before its blob
// was written would be on disk as modified.
func blobsMatchFiles(t *testing.T, store *cache.Store, root string) {
	t.Helper()
	if err := store.Flush(); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, rel := range store.Paths() {
		e, _ := store.Entry(rel)
		if e.Kind != cache.Text {
			continue
		}
		got, err := store.Result(rel, e)
		if err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(filepath.Join(root, rel))
		if err != nil {
			t.Fatal(err)
		}
		want, _ := extract.ExtractFile(rel, data)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("blob of %s differs from its extraction (-want +got):\n%s", rel, diff)
		}
		n++
	}
	if n == 0 {
		t.Fatal("no blob checked")
	}
}

// TestResolveReleasesEachExtraction: with a store that spills (a
// server's), once its blobs are written nothing but the run holds the
// extractions, and resolve's parallel pass lets go of each file's as soon
// as it is resolved: by bind none is reachable — on go-std they were
// ≈ 140 MB of the ≈ 300 MB live heap at the end of resolve, the ingest's
// peak (issue 29). Nothing reads one back afterwards (a read would leave
// the file's result in hand again), and the graph stays a full ingest's.
func TestResolveReleasesEachExtraction(t *testing.T) {
	r := newFixtureRepo(t)
	store := cache.Open(t.TempDir())
	store.SetWriteBehind(true)
	defer store.Close()
	rn := newRun(context.Background(), adapter.Request{Root: r.Dir, Cache: store})
	if err := rn.walk(); err != nil {
		t.Fatal(err)
	}
	defer rn.unlock()
	rn.history()
	if err := rn.extract(); err != nil {
		t.Fatal(err)
	}
	rn.build()
	var held []weak.Pointer[extract.Result]
	for i := range rn.results {
		if res := rn.results[i].res; res != nil {
			held = append(held, weak.Make(res))
		}
	}
	if len(held) == 0 {
		t.Fatal("no extraction to watch")
	}
	restore := beforeBind
	defer func() { beforeBind = restore }()
	checked := false
	beforeBind = func(*run) func() {
		checked = true
		if err := store.Flush(); err != nil { // every blob written: the store spilled its copies
			t.Fatal(err)
		}
		runtime.GC()
		for i, w := range held {
			if w.Value() != nil {
				t.Errorf("extraction %d of %d still reachable at bind", i, len(held))
			}
		}
		return func() {}
	}
	if err := rn.resolve(); err != nil {
		t.Fatal(err)
	}
	if !checked {
		t.Fatal("the bind seam did not run")
	}
	rn.enrich()
	out := rn.finalize()
	for i := range rn.results {
		if fr := &rn.results[i]; fr.res != nil {
			t.Fatalf("%s: its extraction was read back after its release", fr.file.Rel)
		}
	}
	// The run can still read them back, from the store.
	for i := range rn.results {
		if fr := &rn.results[i]; fr.hasResult() && fr.result() == nil {
			t.Fatalf("%s: no result read back", fr.file.Rel)
		}
	}
	sameEdges(t, r.Dir, out, "finalized")
}

// TestReleaseCollectsLargeRunsOnly: the collection after resolve is
// forced only for a run whose extractions reach collectMinElements (with
// a store that spills, or none); a small tree's answer does not wait for
// one (py-335: ≈ 90 ms of wall). The graph is the same either way.
func TestReleaseCollectsLargeRunsOnly(t *testing.T) {
	r := newFixtureRepo(t)
	want := graphdump.Of(ingest(t, adapter.Request{Root: r.Dir}).Graph).Edges
	spilling := func() *cache.Store {
		s := cache.Open(t.TempDir())
		s.SetWriteBehind(true)
		t.Cleanup(func() { s.Close() })
		return s
	}
	cases := []struct {
		name       string
		store      func() *cache.Store
		bound      int
		wantForced bool
	}{
		{"small, spilling store", spilling, collectMinElements, false},
		{"small, no store", func() *cache.Store { return nil }, collectMinElements, false},
		{"at the bound, spilling store", spilling, 1, true},
		{"at the bound, no store", func() *cache.Store { return nil }, 1, true},
		{"at the bound, store kept in memory", func() *cache.Store { return cache.Open("") }, 1, false},
	}
	defer func(b int) { collectMinElements = b }(collectMinElements)
	for _, c := range cases {
		collectMinElements = c.bound
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		out := ingest(t, adapter.Request{Root: r.Dir, Cache: c.store()})
		runtime.ReadMemStats(&after)
		if forced := after.NumForcedGC > before.NumForcedGC; forced != c.wantForced {
			t.Errorf("%s: forced collection %v, want %v", c.name, forced, c.wantForced)
		}
		if d := cmp.Diff(want, graphdump.Of(out.Graph).Edges); d != "" {
			t.Errorf("%s: edges differ from a plain ingest's (-want +got):\n%s", c.name, d)
		}
	}
}
