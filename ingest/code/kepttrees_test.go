package code

import (
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/m1nd-go/m1nd/ingest/adapter"
	"github.com/m1nd-go/m1nd/ingest/cache"
	"github.com/m1nd-go/m1nd/ingest/extract"
)

// TestKeptTreesChainEqualsFull edits the same files again and again (as an
// agent does the files it works on), so each incremental run parses them
// from the trees the run before kept: every graph equals a full ingest's.
// The edits insert at the start, in the middle and at the end, change
// multi-byte text, switch a file to CRLF line ends and back, and break a
// file's syntax and mend it. A file keeps its tree from its second change
// on (its first is parsed in an arena). A full ingest and Close free the
// trees; a file changed before the full ingest keeps its tree after it.
func TestKeptTreesChainEqualsFull(t *testing.T) {
	forEachStore(t, testKeptTreesChain)
}

func testKeptTreesChain(t *testing.T, open func(string) *cache.Store) {
	r := newFixtureRepo(t)
	store := open(t.TempDir())
	run := func(incremental bool) *adapter.Output {
		t.Helper()
		return ingest(t, adapter.Request{Root: r.Dir, Incremental: incremental, Cache: store})
	}
	held := []any{run(true).Graph}
	models, db := fixture["app/models.py"], fixture["store/db.go"]
	steps := []map[string]string{
		{"app/models.py": models + "\n\nclass Admin(User):\n    def ban(self):\n        return self.save()\n",
			"store/db.go": db + "\n// Close closes.\nfunc (d *DB) Close() error { return nil }\n"},
		{"app/models.py": "# héllo wörld 日本語\n" + models + "\n\nclass Admin(User):\n    def ban(self):\n        return self.save()\n",
			"store/db.go": strings.Replace(db, "package store\n", "package store\n\n// Grüße, 世界.\n", 1) + "\n// Close closes.\nfunc (d *DB) Close() error { return nil }\n"},
		{"app/models.py": "# héllo wörld 日本語\n" + models + "\n\nclass Admin(User):\n    def bän(self):\n        return self.save()\n",
			"store/db.go": strings.Replace(db, "package store\n", "package store\n\n// Grüße, 世界!\n", 1) + "\n// Open opens.\nfunc (d *DB) Open() error { return d.Query() }\n"},
		{"app/models.py": strings.ReplaceAll("# héllo\n"+models+"\n\nclass Admin(User):\n    def ban(self):\n        return self.save()\n", "\n", "\r\n"),
			"store/db.go": strings.ReplaceAll(db+"\nfunc (d *DB) Open() error { return d.Query() }\n", "\n", "\r\n")},
		{"app/models.py": strings.ReplaceAll("# héllo\n"+models+"\n\nclass Admin(User):\n    def ban(self):\n        return self.save()\n    def kick(self):\n        return self.ban()\n", "\n", "\r\n"),
			"store/db.go": strings.ReplaceAll(db+"\nfunc (d *DB) Open() error { return d.Query() }\nfunc (d *DB) Reopen() error { return d.Open() }\n", "\n", "\r\n")},
		{"app/models.py": "class Admin(User:\n    def ban(self):\n        return self.save()\n" + models,
			"store/db.go": db + "\nfunc (d *DB) Open( error { return d.Query() }\n"},
		{"app/models.py": "class Admin(User):\n    def ban(self):\n        return self.save()\n" + models,
			"store/db.go": db + "\nfunc (d *DB) Open() error { return d.Query() }\n"},
	}
	at := time.Now().Add(time.Hour)
	for i, files := range steps {
		writeFiles(t, r.Dir, files)
		for rel := range files {
			touch(t, filepath.Join(r.Dir, rel), at.Add(time.Duration(i)*time.Minute))
		}
		out := run(true)
		held = append(held, out.Graph)
		if inc := out.Stats.Incremental; inc == nil || !inc.Patched || inc.Changed != 2 {
			t.Fatalf("step %d: %+v", i, inc)
		}
		equalToFull(t, r.Dir, out)
		if n, _ := store.Trees().Stats(); n != 2*min(i, 1) {
			t.Fatalf("step %d: %d trees kept, want %d (the edited files' from their second change)", i, n, 2*min(i, 1))
		}
	}
	run(false)
	if n, _ := store.Trees().Stats(); n != 0 {
		t.Errorf("%d trees kept after a full ingest, want 0", n)
	}
	writeFiles(t, r.Dir, steps[0])
	for rel := range steps[0] {
		touch(t, filepath.Join(r.Dir, rel), at.Add(time.Hour))
	}
	equalToFull(t, r.Dir, run(true))
	if n, _ := store.Trees().Stats(); n != 2 {
		t.Fatalf("%d trees kept, want 2", n)
	}
	store.Close()
	if n, b := store.Trees().Stats(); n != 0 || b != 0 {
		t.Errorf("%d trees (%d bytes) kept after Close, want none", n, b)
	}
	runtime.KeepAlive(held) // held like a server holds its graphs
}

// TestPrepareKeepsTrees: an edit tool's Prepare parses from, and keeps,
// the file's tree from the file's second version; the prepared results
// equal ExtractFile's.
func TestPrepareKeepsTrees(t *testing.T) {
	store := cache.Open("")
	defer store.Close()
	src := fixture["store/db.go"]
	for i, v := range []string{src, src + "\nfunc (d *DB) Close() error { return nil }\n", "// Grüße\n" + src} {
		Prepare(store, "store/db.go", []byte(v))
		if n, _ := store.Trees().Stats(); n != min(i, 1) {
			t.Fatalf("version %d: %d trees kept, want %d (from the second)", i, n, min(i, 1))
		}
		got, ok := store.TakePrepared("store/db.go", cache.HashOf([]byte(v)))
		want, _ := extract.ExtractFile("store/db.go", []byte(v))
		if !ok {
			t.Fatalf("version %d: nothing prepared", i)
		}
		if d := cmp.Diff(want, got.Result); d != "" {
			t.Fatalf("version %d: prepared result differs (-ExtractFile +Prepare):\n%s", i, d)
		}
	}
}
