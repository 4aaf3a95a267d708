package code

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestPassesOverWithFilter: with the label filter, passesOver answers
// exactly as comparing every name does, for label sets from one to
// twenty thousand (the filter's smallest and largest sizes) against files
// that share a name with them or not; most files that share none are
// decided by the filter alone; a file whose hashes were not kept is
// compared by name.
func TestPassesOverWithFilter(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 37))
	word := func() string { return fmt.Sprintf("n%d", r.IntN(200_000)) }
	for _, nl := range []int{1, 3, 64, 900, 20_000} {
		t.Run(fmt.Sprint(nl, " labels"), func(t *testing.T) {
			s := &staleness{labels: map[string]bool{}}
			for len(s.labels) < nl {
				s.labels[word()] = true
			}
			s.sortLabels()
			shared, byFilter, sharing := 0, 0, 0
			for range 3000 {
				names := make([]string, 1+r.IntN(200))
				for i := range names {
					names[i] = word()
				}
				if r.IntN(4) == 0 {
					names[0] = s.sorted[r.IntN(len(s.sorted))]
				}
				list := sortedSet(names)
				f := &fileResolution{refNames: list, refHash: nameHashes(list)}
				want := !shareAny(s.sorted, list)
				if got := s.passesOver(f); got != want {
					t.Fatalf("names %v: passesOver %v, comparing names %v", names, got, want)
				}
				if !want {
					sharing++
					continue
				}
				shared++
				if !s.filter.mayShare(f.refHash, list.len()) {
					byFilter++
				}
				f.refHash = nil // as a record made without them
				if !s.passesOver(f) {
					t.Fatalf("names %v without hashes: not passed over", names)
				}
			}
			if sharing == 0 || byFilter < shared*9/10 {
				t.Errorf("%d files sharing a label; of %d sharing none, %d decided by the filter", sharing, shared, byFilter)
			}
		})
	}
}

// The filter's size: a power of two between its bounds, 256 bits a label.
func TestLabelFilterSize(t *testing.T) {
	for _, c := range []struct{ labels, bits int }{{0, minFilterBits}, {64, minFilterBits}, {65, 1 << 15}, {5000, 1 << 21}, {100_000, maxFilterBits}} {
		f := newLabelFilter(slices.Repeat([]string{"x"}, c.labels))
		if got := len(f.bits) * 64; got != c.bits || f.mask != uint32(c.bits-1) {
			t.Errorf("%d labels: %d bits, mask %#x; want %d", c.labels, got, f.mask, c.bits)
		}
	}
}
