package cache

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"testing"
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
