package code

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/m1nd-go/m1nd/ingest/adapter"
	"github.com/m1nd-go/m1nd/ingest/cache"
)

// previousOf is what a server keeps beside out's graph in its snapshot:
// the run key and the stamps of the text files (from the cache manifest,
// as the ingest tool records them).
func previousOf(store *cache.Store, out *adapter.Output) *adapter.Previous {
	p := &adapter.Previous{Graph: out.Graph, RunKey: out.Root.RunKey, Files: map[string]adapter.FileStamp{}}
	for _, rel := range store.Paths() {
		if e, ok := store.Entry(rel); ok && e.Kind == cache.Text {
			p.Files[rel] = adapter.FileStamp{Size: e.Size, MTimeNS: e.MTimeNS}
		}
	}
	return p
}

// TestRestoredAfterRestart: a new process (a new store on the same cache
// directory) given the graph it saved and its stamps gets that graph back
// when nothing changed — nothing extracted, the history from the cache
// directory — and a rebuild (extraction of what changed) when anything
// did: a file's contents or mtime, a binary file, a new or vanished file,
// the options, or HEAD.
func TestRestoredAfterRestart(t *testing.T) {
	repo := newFixtureRepo(t)
	dir, cacheDir := repo.Dir, t.TempDir()
	req := adapter.Request{Root: dir, Incremental: true}
	first := func() (*adapter.Output, *cache.Store) {
		store := cache.Open(cacheDir)
		r := req
		r.Cache = store
		return ingest(t, r), store
	}
	restart := func(prev *adapter.Previous, mod func(*adapter.Request)) *adapter.Output {
		r := req
		r.Cache, r.Previous = cache.Open(cacheDir), prev
		if mod != nil {
			mod(&r)
		}
		return ingest(t, r)
	}
	out, store := first()
	if out.Root.RunKey == "" || out.Stats.GitHistory != "read" || len(out.Commits) == 0 {
		t.Fatalf("first run: key %q, history %q, %d commits", out.Root.RunKey, out.Stats.GitHistory, len(out.Commits))
	}
	prev := previousOf(store, out)

	got := restart(prev, nil)
	inc := got.Stats.Incremental
	if got.Graph != out.Graph || !inc.Restored || inc.Changed+inc.Added+inc.Deleted+inc.Prepared != 0 || inc.Patched {
		t.Fatalf("nothing changed: same graph %v, incremental %+v", got.Graph == out.Graph, inc)
	}
	if got.Stats.GitHistory != "cached" || len(got.Commits) != len(out.Commits) || got.Root.GitHead != out.Root.GitHead || got.Root.RunKey != out.Root.RunKey {
		t.Errorf("restored run: history %q, %d commits (want %d), head %q, key %q", got.Stats.GitHistory, len(got.Commits), len(out.Commits), got.Root.GitHead, got.Root.RunKey)
	}
	if got.Stats.NodesCreated != out.Stats.NodesCreated || got.Stats.FilesParsed != out.Stats.FilesParsed {
		t.Errorf("restored stats: %d nodes, %d files; want %d, %d", got.Stats.NodesCreated, got.Stats.FilesParsed, out.Stats.NodesCreated, out.Stats.FilesParsed)
	}

	later := time.Now().Add(time.Hour)
	declines := []struct {
		name string
		do   func(t *testing.T) (undo func())
		mod  func(*adapter.Request)
		prev func() *adapter.Previous
	}{
		{name: "a file touched", do: func(t *testing.T) func() { return retime(t, filepath.Join(dir, "app/util.py"), later) }},
		{name: "a binary file touched", do: func(t *testing.T) func() { return retime(t, filepath.Join(dir, "data.bin"), later) }},
		{name: "a file added", do: func(t *testing.T) func() {
			p := filepath.Join(dir, "app/extra.py")
			writeFiles(t, dir, map[string]string{"app/extra.py": "X = 1\n"})
			return func() { os.Remove(p) }
		}},
		{name: "a file gone", do: func(t *testing.T) func() {
			p := filepath.Join(dir, "app/util.py")
			data, _ := os.ReadFile(p)
			fi, _ := os.Stat(p)
			os.Remove(p)
			return func() {
				os.WriteFile(p, data, 0o644)
				os.Chtimes(p, fi.ModTime(), fi.ModTime())
			}
		}},
		{name: "other options", mod: func(r *adapter.Request) { r.MaxCommits = 1 }},
		{name: "another run key", prev: func() *adapter.Previous { p := *prev; p.RunKey = "x"; return &p }},
		{name: "a stamp the graph lacks", prev: func() *adapter.Previous {
			p := *prev
			p.Files = map[string]adapter.FileStamp{}
			for k, v := range prev.Files {
				p.Files[k] = v
			}
			p.Files["app/ghost.py"] = adapter.FileStamp{Size: 1}
			return &p
		}},
	}
	for _, c := range declines {
		t.Run(c.name, func(t *testing.T) {
			undo := func() {}
			if c.do != nil {
				undo = c.do(t)
			}
			p := prev
			if c.prev != nil {
				p = c.prev()
			}
			got := restart(p, c.mod)
			undo()
			if got.Stats.Incremental.Restored || got.Graph == out.Graph {
				t.Errorf("restored although %s: %+v", c.name, got.Stats.Incremental)
			}
		})
	}

	// HEAD moved: not restored, and the history is extended by the new
	// commit (HEAD moved along its first-parent chain).
	repo.Change(map[string]string{"app/util.py": fixture["app/util.py"] + "\n\n\n"}, "cy", day(3))
	got = restart(prev, nil)
	if got.Stats.Incremental.Restored || got.Stats.GitHistory != "extended" || len(got.Commits) != len(out.Commits)+1 {
		t.Errorf("after a commit: restored %v, history %q", got.Stats.Incremental.Restored, got.Stats.GitHistory)
	}
}

// retime sets p's mtime to at and returns what puts it back.
func retime(t *testing.T, p string, at time.Time) func() {
	t.Helper()
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(p, at, at); err != nil {
		t.Fatal(err)
	}
	return func() { os.Chtimes(p, fi.ModTime(), fi.ModTime()) }
}
