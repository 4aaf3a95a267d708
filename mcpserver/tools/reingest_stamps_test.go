package tools

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/m1nd-go/m1nd/ingest"
	ingestcache "github.com/m1nd-go/m1nd/ingest/cache"
	"github.com/m1nd-go/m1nd/mcpserver/session"
)

// fullStamps is fileStamps without the last stamps to start from: every
// path sorted, every directory stat'ed.
func fullStamps(root string, c *ingest.Cache) *session.RootFiles {
	c.SetExtra(stampsExtra, (*stampMemo)(nil))
	return fileStamps(root, c, "code")
}

// TestRestampEqualsFullStamps: over rounds of random changes to a tree and
// its cache manifest (files edited, added in new and old directories,
// removed down to an empty directory, turned binary), the stamps restamp
// makes from the last ones and the commit's delta equal a full stamping of
// the same manifest and tree. A directory whose mtime moved with no file
// of the manifest changing keeps its old stamp: the proof that the full
// pass did not run.
func TestRestampEqualsFullStamps(t *testing.T) {
	root := t.TempDir()
	c := ingest.NewCache("")
	c.Bind(root)
	r := rand.New(rand.NewPCG(29, 4))
	man := map[string]ingestcache.Entry{}
	clock := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	write := func(rel string, kind ingestcache.Kind) {
		abs := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(abs, []byte(rel), 0o644); err != nil {
			t.Fatal(err)
		}
		clock = clock.Add(time.Second)
		man[rel] = ingestcache.Entry{Size: int64(len(rel)), MTimeNS: clock.UnixNano(), Kind: kind}
	}
	remove := func(rel string) {
		if err := os.Remove(filepath.Join(root, filepath.FromSlash(rel))); err != nil {
			t.Fatal(err)
		}
		delete(man, rel)
	}
	commit := func() {
		next := make(map[string]ingestcache.Entry, len(man))
		for k, v := range man {
			next[k] = v
		}
		if err := c.Commit(next); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 40 {
		write(fmt.Sprintf("p%d/q%d/f%d.go", i%4, i%3, i), ingestcache.Text)
	}
	write("top.go", ingestcache.Text)
	commit()
	fileStamps(root, c, "code") // the first stamps: every path
	for round := range 30 {
		// Paths of the committed manifest only: a file added and removed
		// within one round moves its directory with no manifest change,
		// the case restamp leaves to the staleness check (see restamp).
		paths := make([]string, 0, len(man))
		for p := range man {
			paths = append(paths, p)
		}
		slices.Sort(paths)
		for range 1 + r.IntN(4) {
			p := paths[r.IntN(len(paths))]
			if _, ok := man[p]; !ok {
				continue
			}
			switch r.IntN(5) {
			case 0:
				write(p, ingestcache.Text) // edited
			case 1:
				write(fmt.Sprintf("new%d/sub/n%d.go", round, r.IntN(3)), ingestcache.Text)
			case 2:
				write(path.Join(path.Dir(p), fmt.Sprintf("added%d.go", round)), ingestcache.Text)
			case 3:
				if len(man) > 5 {
					remove(p)
				}
			case 4:
				write(p, ingestcache.Binary)
			}
		}
		commit()
		got := fileStamps(root, c, "code")
		if _, ok := c.Extra(stampsExtra).(*stampMemo); !ok {
			t.Fatal("no stamps kept for the next tick")
		}
		seq, _, _ := c.ManifestDelta()
		want := fullStamps(root, c)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("round %d: restamped stamps differ from a full stamping (-full +restamped):\n%s", round, diff)
		}
		rememberStamps(c, seq, got)
	}
	// An unrelated directory moves; a file elsewhere changes.
	before := dirStamp(t, fullStamps(root, c), "p1")
	later := clock.Add(time.Hour)
	if err := os.Chtimes(filepath.Join(root, "p1"), later, later); err != nil {
		t.Fatal(err)
	}
	write("top.go", ingestcache.Text)
	commit()
	if got := dirStamp(t, fileStamps(root, c, "code"), "p1"); got != before {
		t.Errorf("p1 restamped (%d, was %d): the whole tree was stat'ed for a change to top.go", got, before)
	}
}

func dirStamp(t *testing.T, rf *session.RootFiles, rel string) int64 {
	t.Helper()
	for _, d := range rf.Dirs {
		if d.Rel == rel {
			return d.MTimeNS
		}
	}
	t.Fatalf("no stamp for directory %s", rel)
	return 0
}

// BenchmarkFileStamps: a tick's stamps on a go-std-sized root (10 K files
// in 1 K directories) after a commit that changed one file, restamped
// from the last stamps and made in full.
func BenchmarkFileStamps(b *testing.B) {
	root := b.TempDir()
	man := map[string]ingestcache.Entry{}
	for d := range 1000 {
		dir := fmt.Sprintf("pkg%d/sub%d", d%40, d)
		if err := os.MkdirAll(filepath.Join(root, dir), 0o755); err != nil {
			b.Fatal(err)
		}
		for f := range 10 {
			man[fmt.Sprintf("%s/f%d.go", dir, f)] = ingestcache.Entry{Size: 1, MTimeNS: 1, Kind: ingestcache.Text}
		}
	}
	c := ingest.NewCache("")
	c.Bind(root)
	tick := 0
	commit := func() {
		tick++
		next := make(map[string]ingestcache.Entry, len(man))
		for k, v := range man {
			next[k] = v
		}
		next[fmt.Sprintf("pkg%d/sub%d/f0.go", tick%40, tick%1000)] = ingestcache.Entry{Size: 2, MTimeNS: int64(tick), Kind: ingestcache.Text}
		if err := c.Commit(next); err != nil {
			b.Fatal(err)
		}
	}
	for _, full := range []bool{false, true} {
		name := "restamp"
		if full {
			name = "full"
		}
		b.Run(name, func(b *testing.B) {
			commit()
			fileStamps(root, c, "code")
			for b.Loop() {
				b.StopTimer()
				commit()
				if full {
					c.SetExtra(stampsExtra, (*stampMemo)(nil))
				}
				b.StartTimer()
				fileStamps(root, c, "code")
			}
		})
	}
}
