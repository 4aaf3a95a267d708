package code

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/m1nd-go/m1nd/ingest/adapter"
	"github.com/m1nd-go/m1nd/ingest/cache"
)

// TestPatchCommitsTheManifestOfAFullIngest: after each patch the cache's
// manifest, committed from the changes alone when no file left the tree
// (manifestChanges), is the one a full ingest of the same tree writes:
// edits, files touched without a change, files added, turned binary and
// back, removed, and a file written back to contents it had before.
func TestPatchCommitsTheManifestOfAFullIngest(t *testing.T) {
	forEachStore(t, testPatchCommitsTheManifestOfAFullIngest)
}

func testPatchCommitsTheManifestOfAFullIngest(t *testing.T, open func(string) *cache.Store) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"pkg/a.py":   "def f():\n    return g()\n\n\ndef g():\n    return 1\n",
		"pkg/b.py":   "from .a import f\n\n\ndef h():\n    return f()\n",
		"other/c.py": "def k():\n    return 2\n",
		"mod/p/x.go": "package p\n\nfunc X() int { return 1 }\n",
	})
	store := open(t.TempDir())
	ingest := func(s *cache.Store, incremental bool) *adapter.Output {
		t.Helper()
		out, err := Ingest(context.Background(), adapter.Request{Root: dir, Incremental: incremental, Cache: s})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	ingest(store, true)
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	steps := []struct {
		name  string
		write map[string]string
		touch string
		rm    string
	}{
		{name: "edit", write: map[string]string{"pkg/a.py": "def f():\n    return 2\n"}},
		{name: "touch", touch: "pkg/b.py"},
		{name: "edit and touch", write: map[string]string{"other/c.py": "def k():\n    return 3\n"}, touch: "mod/p/x.go"},
		{name: "add", write: map[string]string{"pkg/n.py": "def n():\n    return 4\n"}},
		{name: "binary", write: map[string]string{"pkg/n.py": "\x00\x01\x02"}},
		{name: "text again", write: map[string]string{"pkg/n.py": "def n():\n    return 4\n"}},
		{name: "back to old contents", write: map[string]string{"pkg/a.py": "def f():\n    return g()\n\n\ndef g():\n    return 1\n"}},
		{name: "remove", rm: "other/c.py"},
		{name: "edit after remove", write: map[string]string{"pkg/b.py": "def h():\n    return 5\n"}},
	}
	for i, st := range steps {
		writeFiles(t, dir, st.write)
		for p := range st.write {
			touch(t, filepath.Join(dir, p), t0.Add(time.Duration(i)*time.Hour))
		}
		if st.touch != "" {
			touch(t, filepath.Join(dir, st.touch), t0.Add(time.Duration(i)*time.Hour+time.Minute))
		}
		if st.rm != "" {
			if err := os.Remove(filepath.Join(dir, st.rm)); err != nil {
				t.Fatal(err)
			}
		}
		if inc := ingest(store, true).Stats.Incremental; inc == nil || inc.Full {
			t.Fatalf("%s: not incremental: %+v", st.name, inc)
		}
		fresh := cache.Open(t.TempDir())
		ingest(fresh, false)
		if d := cmp.Diff(manifestOf(t, fresh), manifestOf(t, store)); d != "" {
			t.Fatalf("%s: the patch's manifest differs from a full ingest's (-full +patch):\n%s", st.name, d)
		}
		fresh.Close()
	}
}

// manifestOf is a store's manifest as written to its directory.
func manifestOf(t *testing.T, s *cache.Store) map[string]cache.Entry {
	t.Helper()
	if err := s.Flush(); err != nil {
		t.Fatal(err)
	}
	re := cache.Open(s.Dir())
	if err := re.Load(); err != nil {
		t.Fatal(err)
	}
	out := map[string]cache.Entry{}
	for _, p := range re.Paths() {
		out[p], _ = re.Entry(p)
	}
	return out
}
