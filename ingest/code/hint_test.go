package code

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/m1nd-go/m1nd/ingest/adapter"
	"github.com/m1nd-go/m1nd/ingest/cache"
)

// A hinted run (the hint in its context) takes the last walk with the caller's stats and patches as
// a walked one would; a hint that does not fit the last walk (a file it
// did not take) is set aside and the tree walked.
func TestHintWalk(t *testing.T) {
	r := newFixtureRepo(t)
	store := cache.Open(t.TempDir())
	run := func(ctx context.Context) *adapter.Output {
		t.Helper()
		out, err := Ingest(ctx, adapter.Request{Root: r.Dir, Incremental: true, Cache: store})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
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

	// A run without the hint in its context walks.
	if inc := run(context.Background()).Stats.Incremental; inc.WalkHinted {
		t.Fatalf("a run without a hint did not walk: %+v", inc)
	}
}
