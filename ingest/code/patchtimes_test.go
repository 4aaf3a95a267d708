package code

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/m1nd-go/m1nd/ingest/adapter"
	"github.com/m1nd-go/m1nd/ingest/cache"
	"github.com/m1nd-go/m1nd/ingest/internal/graphdump"
)

// A patch writes the new time of a file whose content stayed but whose
// time moved (outside git, its mtime) on that file's nodes, directories
// and Go module, beside an edited file or alone, and leaves every other
// file's nodes as they were: the graph equals a full ingest's after each
// step. Times that only rise are folded into the aggregates (raiseTimes);
// one that falls, or a file that comes or goes, has them all folded again.
func TestPatchMovesTimesOfUntouchedContent(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"pkg/a.py":   "def f():\n    return g()\n\n\ndef g():\n    return 1\n",
		"pkg/b.py":   "from .a import f\n\n\ndef h():\n    return f()\n",
		"other/c.py": "def k():\n    return 2\n",
		"mod/go.mod": "module example.com/m\n\ngo 1.22\n",
		"mod/p/x.go": "package p\n\nfunc X() int { return 1 }\n",
		"mod/p/y.go": "package p\n\nfunc Y() int { return X() }\n",
	})
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, p := range []string{"pkg/a.py", "pkg/b.py", "other/c.py", "mod/go.mod", "mod/p/x.go", "mod/p/y.go"} {
		touch(t, filepath.Join(dir, p), t0)
	}
	store := cache.Open(t.TempDir())
	defer store.Close()
	run := func() *adapter.Output {
		t.Helper()
		out, err := Ingest(context.Background(), adapter.Request{Root: dir, Incremental: true, Cache: store})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	run()
	node := func(out *adapter.Output, id string) graphdump.Node {
		t.Helper()
		n, ok := graphdump.Of(out.Graph).Node(id)
		if !ok {
			t.Fatalf("no node %s", id)
		}
		return n
	}
	at := func(h int) time.Time { return t0.Add(time.Duration(h) * time.Hour) }
	edits := 0
	for step, c := range []struct {
		edit   int    // a.py edited, at this hour (0: not)
		bumped string // a file touched without a change
		to     int    // to this hour
		swap   bool   // other/c.py removed and other/d.py added, at hour -2
	}{
		{edit: 1, bumped: "pkg/b.py", to: 1},
		{bumped: "other/c.py", to: 2},
		{edit: 3, bumped: "other/c.py", to: 3},
		{bumped: "pkg/b.py", to: 2},    // up, but under a.py: pkg/ keeps a.py's
		{bumped: "other/c.py", to: -1}, // down: other/ follows c.py down
		{edit: 4, swap: true},          // c.py, other/'s latest, goes
		{bumped: "mod/p/y.go", to: 5},  // Go module m follows y.go up
	} {
		if c.edit != 0 {
			edits++
			writeFiles(t, dir, map[string]string{"pkg/a.py": "def f():\n    return g()\n\n\ndef g():\n    return 1\n" + strings.Repeat("\n\ndef e():\n    return 0\n", edits)})
			touch(t, filepath.Join(dir, "pkg/a.py"), at(c.edit))
		}
		if c.bumped != "" {
			touch(t, filepath.Join(dir, c.bumped), at(c.to))
		}
		if c.swap {
			if err := os.Remove(filepath.Join(dir, "other/c.py")); err != nil {
				t.Fatal(err)
			}
			writeFiles(t, dir, map[string]string{"other/d.py": "def m():\n    return 3\n"})
			touch(t, filepath.Join(dir, "other/d.py"), at(-2))
		}
		out := run()
		if inc := out.Stats.Incremental; !inc.Patched {
			t.Fatalf("step %d: not patched: %+v", step, inc)
		}
		equalToFull(t, dir, out)
		if c.bumped == "" {
			continue
		}
		fn := map[string]string{"pkg/b.py": "file::pkg/b.py::h", "other/c.py": "file::other/c.py::k", "mod/p/y.go": "file::mod/p/y.go::Y"}[c.bumped]
		if got := node(out, fn).LastModified; got != secs(at(c.to)) {
			t.Errorf("step %d: %s at %v, want %v", step, fn, got, secs(at(c.to)))
		}
	}
}
