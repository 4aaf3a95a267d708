package code

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/ingest/adapter"
	"github.com/m1nd-go/m1nd/ingest/cache"
	"github.com/m1nd-go/m1nd/ingest/extract"
)

// A hinted run (the hint in its context) takes the last walk with the caller's stats and patches as
// a walked one would; a hint that does not fit the last walk (a file it
// did not take) is set aside and the tree walked.
func TestHintWalk(t *testing.T) {
	r := newFixtureRepo(t)
	run := incrementalRunner(t, r.Dir)
	statOf := func(rel string) Stat {
		fi, err := os.Lstat(filepath.Join(r.Dir, rel))
		if err != nil {
			t.Fatal(err)
		}
		return Stat{fi.Size(), fi.ModTime().UnixNano()}
	}
	run(context.Background())
	at := time.Now().Add(time.Hour)

	writeFiles(t, r.Dir, map[string]string{"app/util.py": "def helper():\n    return 7\n"})
	touch(t, filepath.Join(r.Dir, "app/util.py"), at)
	out := run(WithWalkHint(context.Background(), r.Dir, map[string]Stat{"app/util.py": statOf("app/util.py")}))
	if inc := out.Stats.Incremental; !inc.WalkHinted || !inc.Patched || inc.Changed != 1 {
		t.Fatalf("hinted edit: %+v", inc)
	}
	equalToFull(t, r.Dir, out)

	writeFiles(t, r.Dir, map[string]string{"app/extra.py": "def extra():\n    return 1\n"})
	out = run(WithWalkHint(context.Background(), r.Dir, map[string]Stat{"app/extra.py": statOf("app/extra.py")}))
	if inc := out.Stats.Incremental; inc.WalkHinted || inc.Added != 1 {
		t.Fatalf("a hint naming a file the last walk did not take was used: %+v", inc)
	}
	if _, ok := out.Graph.Lookup("file::app/extra.py"); !ok {
		t.Fatal("the added file is not in the graph")
	}
	equalToFull(t, r.Dir, out)

	// Files that came and went, handed over with their stats: no walk.
	writeFiles(t, r.Dir, map[string]string{"app/more.py": "from .extra import extra\n\n\ndef more():\n    return extra()\n"})
	if err := os.Remove(filepath.Join(r.Dir, "lib/util.py")); err != nil {
		t.Fatal(err)
	}
	out = run(WithWalkChanges(context.Background(), r.Dir, map[string]Stat{"app/more.py": statOf("app/more.py")},
		[]string{"app/more.py"}, []string{"lib/util.py"}))
	if inc := out.Stats.Incremental; !inc.WalkHinted || !inc.Patched || inc.Added != 1 || inc.Deleted != 1 {
		t.Fatalf("hinted add and delete: %+v", inc)
	}
	equalToFull(t, r.Dir, out)

	// Changes that do not fit: the tree is walked.
	writeFiles(t, r.Dir, map[string]string{"app/late.py": "X = 1\n", "secrets/more.py": "Y = 2\n"})
	for name, hint := range map[string][2][]string{
		"an added file the walk leaves out":  {{"app/late.py", "secrets/more.py"}, nil},
		"a removed file the last walk lacks": {{"app/late.py"}, {"lib/util.py"}},
		"an added file the last walk had":    {{"app/late.py", "app/more.py"}, nil},
	} {
		stats := map[string]Stat{}
		for _, rel := range hint[0] {
			stats[rel] = statOf(rel)
		}
		out = run(WithWalkChanges(context.Background(), r.Dir, stats, hint[0], hint[1]))
		if inc := out.Stats.Incremental; inc.WalkHinted {
			t.Fatalf("%s: the hint was used: %+v", name, inc)
		}
		equalToFull(t, r.Dir, out)
		if err := os.Remove(filepath.Join(r.Dir, "app/late.py")); err != nil {
			t.Fatal(err)
		}
		run(context.Background())
		writeFiles(t, r.Dir, map[string]string{"app/late.py": "X = 1\n"})
	}

	// A run without the hint in its context walks.
	if inc := run(context.Background()).Stats.Incremental; inc.WalkHinted {
		t.Fatalf("a run without a hint did not walk: %+v", inc)
	}
}

// An ingest takes the extraction prepared for exactly the contents it
// reads (Prepare) instead of parsing them again; one prepared for other
// contents is left alone.
func TestPreparedExtraction(t *testing.T) {
	r := newFixtureRepo(t)
	store := cache.Open(t.TempDir())
	run := func() *adapter.Output {
		return ingest(t, adapter.Request{Root: r.Dir, Incremental: true, Cache: store})
	}
	held := run()
	src := []byte("def helper():\n    return 8\n")
	Prepare(store, "app/util.py", src)
	// A doctored extraction shows which one the ingest used.
	p, ok := store.TakePrepared("app/util.py", cache.HashOf(src))
	if !ok {
		t.Fatal("nothing prepared")
	}
	res := *p.Result
	res.Nodes = append(slices.Clone(res.Nodes), extract.Node{ID: "file::app/util.py::prepared", Label: "prepared", Type: graph.Function})
	store.Prepare("app/util.py", cache.HashOf(src), cache.Prepared{Result: &res})
	store.Prepare("lib/util.py", cache.HashOf([]byte("other contents\n")), cache.Prepared{Result: &res})

	writeFiles(t, r.Dir, map[string]string{"app/util.py": string(src), "lib/util.py": "def helper():\n    return 9\n"})
	at := time.Now().Add(time.Hour)
	touch(t, filepath.Join(r.Dir, "app/util.py"), at)
	touch(t, filepath.Join(r.Dir, "lib/util.py"), at)
	out := run()
	if _, ok := out.Graph.Lookup("file::app/util.py::prepared"); !ok || out.Stats.Incremental.Prepared != 1 {
		t.Fatalf("the prepared extraction was not taken: %+v", out.Stats.Incremental)
	}
	if _, ok := store.TakePrepared("app/util.py", cache.HashOf(src)); ok {
		t.Fatal("the prepared extraction is still there after the ingest took it")
	}
	if _, ok := out.Graph.Lookup("file::lib/util.py::helper"); !ok {
		t.Fatal("lib/util.py was not extracted from its contents")
	}
	runtime.KeepAlive(held)
}
