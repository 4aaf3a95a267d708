package cache

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/m1nd-go/m1nd/ingest/extract"
)

// TestManifestDelta: after each commit the delta is exactly the paths
// whose entries were added, removed or changed (a size, an mtime, a kind,
// a failure), sorted; a commit on no manifest, a Load and a Bind to
// another tree say the delta is unknown; seq counts every replacement.
func TestManifestDelta(t *testing.T) {
	dir := t.TempDir()
	s := Open(dir)
	s.Bind("/tree")
	seq0, _, _ := s.ManifestDelta()
	r := rand.New(rand.NewPCG(29, 3))
	cur := map[string]Entry{}
	for i := range 50 {
		cur[fmt.Sprintf("d%d/f%d.go", i%7, i)] = Entry{Size: int64(i), Kind: Text, Hash: HashOf([]byte{byte(i)})}
	}
	if err := s.Commit(maps.Clone(cur)); err != nil {
		t.Fatal(err)
	}
	if seq, _, ok := s.ManifestDelta(); ok || seq != seq0+1 {
		t.Fatalf("first commit: seq %d ok %v, want %d and an unknown delta", seq, ok, seq0+1)
	}
	for round := range 100 {
		next := maps.Clone(cur)
		var want []string
		for k := range r.IntN(6) {
			p := fmt.Sprintf("d%d/f%d.go", r.IntN(9), r.IntN(70))
			if slices.Contains(want, p) {
				continue
			}
			e, had := next[p]
			switch r.IntN(4) {
			case 0:
				delete(next, p)
				if !had {
					continue
				}
			case 1:
				e.MTimeNS++
				next[p] = e
			case 2:
				e.Kind, e.Failed = Binary, k%2 == 0
				next[p] = e
			case 3: // written again as it was: no change
				if !had {
					continue
				}
				next[p] = e
				continue
			}
			want = append(want, p)
		}
		slices.Sort(want)
		if err := s.Commit(maps.Clone(next)); err != nil {
			t.Fatal(err)
		}
		_, got, ok := s.ManifestDelta()
		if !ok || !slices.Equal(got, want) {
			t.Fatalf("round %d: delta %v (ok %v), want %v", round, got, ok, want)
		}
		cur = next
	}
	if err := s.Flush(); err != nil {
		t.Fatal(err)
	}
	seq1, _, _ := s.ManifestDelta()
	re := Open(dir)
	re.Bind("/tree")
	if err := re.Load(); err != nil {
		t.Fatal(err)
	}
	if _, _, ok := re.ManifestDelta(); ok {
		t.Error("a loaded manifest has a known delta")
	}
	s.Bind("/other")
	if seq, _, ok := s.ManifestDelta(); ok || seq != seq1+1 {
		t.Errorf("after Bind to another tree: seq %d ok %v, want %d and unknown", seq, ok, seq1+1)
	}
}

// TestCommitDeltaEqualsCommit: a store committing only the changes
// (CommitDelta) ends every round as one committing the whole manifest:
// the same entries, delta, results in memory and blobs on disk (stale ones
// removed), and the same manifest read back by a fresh store. Rounds add,
// remove, touch, rewrite and retype files, put results of new contents,
// and list removals of files that were never there.
func TestCommitDeltaEqualsCommit(t *testing.T) {
	full, part := Open(t.TempDir()), Open(t.TempDir())
	stores := []*Store{full, part}
	for _, s := range stores {
		s.Bind("/tree")
	}
	r := rand.New(rand.NewPCG(29, 4))
	cur := map[string]Entry{}
	put := func(p string, e Entry) {
		for _, s := range stores {
			if err := s.Put(p, e.Hash, &extract.Result{Path: p}); err != nil {
				t.Fatal(err)
			}
		}
	}
	for i := range 40 {
		p := fmt.Sprintf("d%d/f%d.py", i%5, i)
		cur[p] = Entry{Size: int64(i), Kind: Text, Hash: HashOf([]byte(p))}
		put(p, cur[p])
	}
	for _, s := range stores {
		if err := s.Commit(maps.Clone(cur)); err != nil {
			t.Fatal(err)
		}
	}
	if err := (&Store{}).CommitDelta(nil, nil); !errors.Is(err, ErrNotLoaded) {
		t.Fatalf("CommitDelta on a store with no manifest: %v, want ErrNotLoaded", err)
	}
	for round := range 200 {
		next := maps.Clone(cur)
		set := map[string]Entry{}
		var del []string
		for range r.IntN(7) {
			p := fmt.Sprintf("d%d/f%d.py", r.IntN(6), r.IntN(60))
			e, had := next[p]
			switch r.IntN(6) {
			case 0:
				delete(next, p)
				del = append(del, p) // also when it was never there
				continue
			case 1:
				e.MTimeNS++
			case 2:
				e.Kind, e.Failed, e.Err = Binary, true, "no"
			case 3: // new contents, or a new file
				e.Kind, e.Size = Text, e.Size+1
				e.Hash = HashOf([]byte(fmt.Sprint(p, round)))
				put(p, e)
			case 4: // the same entry again
				if !had {
					continue
				}
			case 5: // back to a former contents, a result of which may be live
				e.Kind, e.Hash = Text, HashOf([]byte(p))
				put(p, e)
			}
			next[p] = e
			set[p] = e
			del = slices.DeleteFunc(del, func(q string) bool { return q == p })
		}
		if err := full.Commit(maps.Clone(next)); err != nil {
			t.Fatal(err)
		}
		if err := part.CommitDelta(set, del); err != nil {
			t.Fatal(err)
		}
		cur = next
		if err := full.Flush(); err != nil {
			t.Fatal(err)
		}
		if err := part.Flush(); err != nil {
			t.Fatal(err)
		}
		want, got := storeState(t, full), storeState(t, part)
		if d := cmp.Diff(want, got); d != "" {
			t.Fatalf("round %d: CommitDelta differs from Commit (-Commit +CommitDelta):\n%s", round, d)
		}
	}
	re := Open(part.Dir())
	re.Bind("/tree")
	if err := re.Load(); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(cur, re.manifest); d != "" {
		t.Fatalf("the manifest read back differs (-want +got):\n%s", d)
	}
}

// committedState is what a commit leaves observable: the manifest, the last
// delta, the keys of the results held in memory and the blobs on disk.
type committedState struct {
	Manifest map[string]Entry
	Delta    []string
	DeltaOK  bool
	Results  []string
	Blobs    []string
}

func storeState(t *testing.T, s *Store) committedState {
	t.Helper()
	st := committedState{Manifest: maps.Clone(s.manifest)}
	_, st.Delta, st.DeltaOK = s.ManifestDelta()
	st.Results = slices.Sorted(maps.Keys(s.results))
	filepath.WalkDir(filepath.Join(s.Dir(), "results"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			st.Blobs = append(st.Blobs, d.Name())
		}
		return nil
	})
	slices.Sort(st.Blobs)
	return st
}
