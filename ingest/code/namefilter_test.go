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

// BenchmarkPassesOver checks 5,600 files of 45 names each (go-std's
// counts) against 64 stale labels none of them has (64 files each given
// a new function), with the label filter and by comparing names alone.
func BenchmarkPassesOver(b *testing.B) {
	r := rand.New(rand.NewPCG(41, 43))
	vocab := make([]string, 60_000)
	for i := range vocab {
		vocab[i] = fmt.Sprintf("name%dX%d", i, r.IntN(1000))
	}
	files := make([]*fileResolution, 5600)
	for i := range files {
		names := make([]string, 45)
		for k := range names {
			names[k] = vocab[r.IntN(len(vocab))]
		}
		l := sortedSet(names)
		files[i] = &fileResolution{refNames: l, refHash: nameHashes(l)}
	}
	s := &staleness{labels: map[string]bool{}}
	for i := range 64 {
		s.labels[fmt.Sprintf("M1ndBenchTick%d", i)] = true
	}
	s.sortLabels()
	for _, filter := range []bool{true, false} {
		b.Run(map[bool]string{true: "filter", false: "names"}[filter], func(b *testing.B) {
			st := *s
			if !filter {
				st.filter = labelFilter{}
			}
			for b.Loop() {
				for _, f := range files {
					if !st.passesOver(f) {
						b.Fatal("a file shares a label")
					}
				}
			}
		})
	}
}
