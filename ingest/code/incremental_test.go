package code

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/ingest/adapter"
	"github.com/m1nd-go/m1nd/ingest/cache"
	"github.com/m1nd-go/m1nd/ingest/internal/graphdump"
)

// touch sets a file's mtime: tests must not depend on the file system's
// timestamp granularity to tell an edit from the previous version.
func touch(t *testing.T, p string, at time.Time) {
	t.Helper()
	if err := os.Chtimes(p, at, at); err != nil {
		t.Fatal(err)
	}
}

// equalToFull ingests root in full into a fresh cache and compares it with
// got.
func equalToFull(t *testing.T, root string, got *adapter.Output) {
	t.Helper()
	full, err := Ingest(context.Background(), adapter.Request{Root: root, CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	// A patched graph's PageRank is iterated from the previous ranks, so it
	// agrees with a rebuild's within the convergence tolerance, not to the
	// last bit.
	approxRank := cmp.FilterPath(func(p cmp.Path) bool {
		sf, ok := p.Last().(cmp.StructField)
		return ok && sf.Name() == "PageRank"
	}, cmp.Comparer(func(a, b float32) bool { return math.Abs(float64(a-b)) <= pageRankTolerance }))
	if diff := cmp.Diff(graphdump.Of(full.Graph), graphdump.Of(got.Graph), approxRank); diff != "" {
		t.Fatalf("incremental graph differs from a full ingest (-full +incremental):\n%s", diff)
	}
	// Same order too: ties in query results break by node ID.
	if diff := cmp.Diff(nodeOrder(full.Graph), nodeOrder(got.Graph)); diff != "" {
		t.Fatalf("incremental graph orders nodes differently from a full ingest (-full +incremental):\n%s", diff)
	}
	if diff := cmp.Diff(full.Commits, got.Commits); diff != "" {
		t.Fatalf("commits differ (-full +incremental):\n%s", diff)
	}
	fs, gs := full.Stats, got.Stats
	if fs.FilesParsed != gs.FilesParsed || fs.ReferencesResolved != gs.ReferencesResolved || fs.ReferencesUnresolved != gs.ReferencesUnresolved ||
		fs.FilesSkippedBinary != gs.FilesSkippedBinary || fs.FilesSkippedEncoding != gs.FilesSkippedEncoding || !cmp.Equal(fs.Languages, gs.Languages) {
		t.Fatalf("stats differ:\nfull %+v\nincr %+v", fs, gs)
	}
}

// pageRankTolerance is how far a patched graph's normalised PageRank may be
// from a rebuild's.
const pageRankTolerance = 2e-3

func nodeOrder(g *graph.Graph) []string {
	out := make([]string, g.NumNodes())
	for i := range out {
		out[i] = g.ExternalID(graph.NodeID(i))
	}
	return out
}

func TestIncrementalEqualsFull(t *testing.T) {
	forEachStore(t, func(t *testing.T, open func(string) *cache.Store) {
		for _, released := range []bool{false, true} {
			t.Run(fmt.Sprintf("previous graph released %v", released), func(t *testing.T) { testIncrementalEqualsFull(t, open, released) })
		}
	})
}

func testIncrementalEqualsFull(t *testing.T, open func(string) *cache.Store, released bool) {
	r := newFixtureRepo(t)
	dir := r.Dir
	cacheDir := t.TempDir()
	store := open(cacheDir)
	ctx := context.Background()
	run := func(s *cache.Store) *adapter.Output {
		t.Helper()
		out, err := Ingest(ctx, adapter.Request{Root: dir, Incremental: true, Cache: s})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}

	// The first incremental ingest has no cache: it runs in full and says so.
	first := run(store)
	if inc := first.Stats.Incremental; inc == nil || !inc.Full || inc.FullReason == "" {
		t.Fatalf("first run: %+v", first.Stats.Incremental)
	}
	equalToFull(t, dir, first)

	// Edit, add, delete, rename, and touch without changing.
	at := time.Now().Add(time.Hour)
	writeFiles(t, dir, map[string]string{
		"app/models.py": fixture["app/models.py"] + "\n\nclass Admin(User):\n    def ban(self):\n        return self.save()\n",
		"app/extra.py":  "from .models import Admin\n\n\ndef promote():\n    return Admin().ban()\n",
	})
	touch(t, filepath.Join(dir, "app/models.py"), at)
	touch(t, filepath.Join(dir, "app/extra.py"), at)
	if err := os.Remove(filepath.Join(dir, "lib/util.py")); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(dir, "store/db.go"), filepath.Join(dir, "store/database.go")); err != nil {
		t.Fatal(err)
	}
	touch(t, filepath.Join(dir, "README.md"), at)

	if released {
		// Without the previous graph the run rebuilds from the cached
		// extractions, resolving again only what the change can move.
		first = nil
		runtime.GC()
		runtime.GC()
	}
	second := run(store)
	runtime.KeepAlive(first) // held like a server holds its graph
	// 13 files: 3 new or changed, 10 reused (README.md only touched: rehashed).
	want := &adapter.IncrementalStats{Reused: 10, Changed: 1, Added: 2, Deleted: 2, Unchanged: 1, Patched: true}
	if released {
		want.Patched, want.RebuildReason = false, "previous graph released"
	}
	if diff := cmp.Diff(want, second.Stats.Incremental); diff != "" {
		t.Errorf("incremental stats (-want +got):\n%s", diff)
	}
	equalToFull(t, dir, second)
	d := graphdump.Of(second.Graph)
	if !d.Has("file::app/extra.py::promote", "calls", "file::app/models.py::Admin::ban") ||
		!d.Has("file::cmd/main.go::main", "calls", "file::store/database.go::New") {
		t.Errorf("new edges missing:\n%v", d.EdgeStrings())
	}
	if _, ok := d.Node("file::lib/util.py"); ok {
		t.Error("deleted file still in the graph")
	}

	// A new process: the store is cold and reads everything from disk.
	if err := store.Flush(); err != nil { // its writes behind are on disk
		t.Fatal(err)
	}
	cold := run(open(cacheDir))
	if inc := cold.Stats.Incremental; inc.Full || inc.Reused != 13 || inc.Changed+inc.Added+inc.Deleted != 0 {
		t.Errorf("cold run: %+v", inc)
	}
	equalToFull(t, dir, cold)

	// Commit: HEAD moves, the history (and change frequencies) follow.
	r.Commit("edit", "cy", day(3))
	third := run(store)
	equalToFull(t, dir, third)
	if n, _ := graphdump.Of(third.Graph).Node("file::app/extra.py"); n.LastModified != secs(day(3)) {
		t.Errorf("history not re-read after a commit: %v", n.LastModified)
	}

	// A binary file appears where text was; a text file becomes undecodable.
	writeFiles(t, dir, map[string]string{"app/util.py": "x\x00y", "README.md": "caf\xe9\n"})
	touch(t, filepath.Join(dir, "app/util.py"), at.Add(time.Hour))
	touch(t, filepath.Join(dir, "README.md"), at.Add(time.Hour))
	fourth := run(store)
	equalToFull(t, dir, fourth)
	if fourth.Stats.FilesSkippedBinary != 2 || fourth.Stats.FilesSkippedEncoding != 2 {
		t.Errorf("skips: %+v", fourth.Stats)
	}
}

func TestIncrementalWithoutCache(t *testing.T) {
	r := newFixtureRepo(t)
	out := ingest(t, adapter.Request{Root: r.Dir, Incremental: true})
	if inc := out.Stats.Incremental; inc == nil || !inc.Full {
		t.Fatalf("%+v", out.Stats.Incremental)
	}
}

func TestCacheFromAnotherBuildIsIgnored(t *testing.T) {
	r := newFixtureRepo(t)
	cacheDir := t.TempDir()
	ingest(t, adapter.Request{Root: r.Dir, CacheDir: cacheDir})
	// Corrupt the manifest: the incremental ingest must fall back, not fail.
	if err := os.WriteFile(filepath.Join(cacheDir, "manifest.gob"), []byte("not gob"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := ingest(t, adapter.Request{Root: r.Dir, CacheDir: cacheDir, Incremental: true})
	if inc := out.Stats.Incremental; !inc.Full {
		t.Fatalf("%+v", inc)
	}
	equalToFull(t, r.Dir, out)
	// The fallback rewrote the cache: the next run is incremental.
	next := ingest(t, adapter.Request{Root: r.Dir, CacheDir: cacheDir, Incremental: true})
	if inc := next.Stats.Incremental; inc.Full || inc.Reused != 13 {
		t.Fatalf("%+v", inc)
	}
}

// TestIncrementalResolutionDependencies changes files so that references in
// files that did not change resolve differently: the cached outcomes of
// those references must be redone.
func TestIncrementalResolutionDependencies(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"lib/__init__.py": "",
		"lib/x/a.py":      "def dup():\n    return 1\n",
		"z/c.py":          "from pkg import mod\nfrom lib import dup\nfrom m.child import Admin\n\n\ndef caller():\n    return dup()\n\n\ndef use():\n    return Admin().save()\n",
		"pkg/__init__.py": "",
		"m/base.py":       "class Base:\n    def save(self):\n        return 1\n",
		"m/other.py":      "class Other:\n    def save(self):\n        return 2\n",
		"m/child.py":      "class Admin(Base):\n    pass\n",
	})
	store := cache.Open(t.TempDir())
	run := func() *adapter.Output {
		t.Helper()
		return ingest(t, adapter.Request{Root: dir, Incremental: true, Cache: store})
	}
	equalToFull(t, dir, run())
	at := time.Now().Add(time.Hour)
	steps := []struct {
		name  string
		files map[string]string
		check func(d graphdump.Dump) bool
	}{
		{"a same-named function elsewhere makes a call ambiguous",
			map[string]string{"lib/y/b.py": "def dup():\n    return 2\n"},
			func(d graphdump.Dump) bool {
				for _, e := range d.Edges {
					if e.Source == "file::z/c.py::caller" && e.Relation == "calls" {
						return e.Weight == WeightAmbiguous
					}
				}
				return false
			}},
		{"a new module file resolves an import",
			map[string]string{"pkg/mod.py": "VALUE = 1\n"},
			func(d graphdump.Dump) bool { return d.Has("file::z/c.py", "imports", "file::pkg/mod.py") }},
		{"a changed base class redirects an inherited method",
			map[string]string{"m/child.py": "class Admin(Other):\n    pass\n"},
			func(d graphdump.Dump) bool {
				return d.Has("file::z/c.py::use", "calls", "file::m/other.py::Other::save")
			}},
		{"a constructor added to a base binds the constructions of its subclass elsewhere",
			map[string]string{"m/other.py": "class Other:\n    def __init__(self):\n        self.x = 1\n\n    def save(self):\n        return 2\n"},
			func(d graphdump.Dump) bool {
				return d.Has("file::z/c.py::use", "calls", "file::m/other.py::Other::__init__")
			}},
	}
	for _, s := range steps {
		writeFiles(t, dir, s.files)
		for p := range s.files {
			touch(t, filepath.Join(dir, p), at)
		}
		at = at.Add(time.Minute)
		out := run()
		if inc := out.Stats.Incremental; inc.Full {
			t.Fatalf("%s: ran in full: %s", s.name, inc.FullReason)
		}
		equalToFull(t, dir, out)
		if !s.check(graphdump.Of(out.Graph)) {
			t.Errorf("%s: expected edge missing:\n%v", s.name, graphdump.Of(out.Graph).EdgeStrings())
		}
	}
}

// TestIncrementalNothingChanged: an incremental ingest that finds every file
// as it was returns the previous graph itself; once the caller has dropped
// that graph, it rebuilds.
func TestIncrementalNothingChanged(t *testing.T) {
	r := newFixtureRepo(t)
	store := cache.Open(t.TempDir())
	req := adapter.Request{Root: r.Dir, Incremental: true, Cache: store}
	first := ingest(t, req)
	second := ingest(t, req)
	if second.Graph != first.Graph {
		t.Fatal("nothing changed but the graph was rebuilt")
	}
	if inc := second.Stats.Incremental; inc == nil || inc.Full || inc.Reused != first.Stats.FilesScanned {
		t.Errorf("stats %+v", second.Stats.Incremental)
	}
	equalToFull(t, r.Dir, second)

	// A different option, a commit, or a touched file each force a build.
	withDot := ingest(t, adapter.Request{Root: r.Dir, Incremental: true, Cache: store, IncludeDotfiles: true})
	if withDot.Graph == second.Graph {
		t.Error("changed options reused the previous graph")
	}
	again := ingest(t, req)
	if again.Graph == withDot.Graph {
		t.Error("options changed back but the graph was reused")
	}
	r.Commit("empty", "ann", day(9))
	afterCommit := ingest(t, req)
	if afterCommit.Graph == again.Graph {
		t.Error("a new commit reused the previous graph")
	}
	equalToFull(t, r.Dir, afterCommit)

	// Dropped by the caller: the weak reference lets it go.
	afterCommit, again, withDot, second, first = nil, nil, nil, nil, nil
	runtime.GC()
	runtime.GC()
	rebuilt := ingest(t, req)
	if _, built := rebuilt.Stats.PhaseMs["build"]; !built {
		t.Error("a collected graph was not rebuilt")
	}
	equalToFull(t, r.Dir, rebuilt)
}

// TestConcurrentIngestsShareACache: ingests of one store wait for each
// other; run under -race.
func TestConcurrentIngestsShareACache(t *testing.T) {
	r := newFixtureRepo(t)
	store := cache.Open(t.TempDir())
	outs := make([]*adapter.Output, 4)
	errs := make([]error, 4)
	done := make(chan int)
	for i := range outs {
		go func() {
			outs[i], errs[i] = Ingest(context.Background(), adapter.Request{Root: r.Dir, Incremental: i%2 == 1, Cache: store})
			done <- i
		}()
	}
	for range outs {
		<-done
	}
	for i, out := range outs {
		if errs[i] != nil {
			t.Fatal(errs[i])
		}
		equalToFull(t, r.Dir, out)
	}
}
