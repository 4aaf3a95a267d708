package graph

import (
	"math/rand/v2"
	"slices"
	"testing"
)

func TestSelectTopMatchesFullSort(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	for trial := 0; trial < 200; trial++ {
		n := r.IntN(300)
		s := make([]Scored, n)
		for i := range s {
			// Few distinct scores so ties (broken by NodeID) are common.
			s[i] = Scored{Node: NodeID(r.IntN(1000)), Score: float32(r.IntN(8)) / 8}
		}
		want := slices.Clone(s)
		SortScored(want)
		for _, k := range []int{0, 1, 5, n / 2, n, n + 3} {
			got := SelectTop(slices.Clone(s), k)
			kk := min(max(k, 0), n)
			if !slices.Equal(got, want[:kk]) {
				t.Fatalf("trial %d n=%d k=%d: got %v want %v", trial, n, k, got, want[:kk])
			}
		}
	}
}

// TestSelectTopBothWays: the heap (a few of many) and quickselect give
// the full sort's prefix on random, ascending, descending and all-equal
// scores, and leave s a permutation of its entries.
func TestSelectTopBothWays(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 5))
	orders := map[string]func(i, n int) float32{
		"random":     func(i, n int) float32 { return float32(r.IntN(50)) / 50 },
		"ascending":  func(i, n int) float32 { return float32(i) / float32(n) },
		"descending": func(i, n int) float32 { return float32(n-i) / float32(n) },
		"equal":      func(i, n int) float32 { return 0.5 },
	}
	for name, score := range orders {
		for _, n := range []int{9, 100, 2049, 9000} {
			s := make([]Scored, n)
			for i := range s {
				s[i] = Scored{Node: NodeID(r.IntN(4 * n)), Score: score(i, n)}
			}
			want := slices.Clone(s)
			SortScored(want)
			for _, k := range []int{1, 2, 10, 20, 255, 256, 257, n / 8, n/8 + 1, n - 1} {
				if k <= 0 || k > n {
					continue
				}
				in := slices.Clone(s)
				got := SelectTop(in, k)
				if !slices.Equal(got, want[:k]) {
					t.Fatalf("%s n=%d k=%d: got %v, want %v", name, n, k, got[:min(k, 5)], want[:min(k, 5)])
				}
				SortScored(in)
				if !slices.Equal(in, want) {
					t.Fatalf("%s n=%d k=%d: s is no longer a permutation of its entries", name, n, k)
				}
			}
		}
	}
}

// BenchmarkSelectTopFewOfMany: seek's case, 20 of 9,000.
func BenchmarkSelectTopFewOfMany(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	s := make([]Scored, 9000)
	for i := range s {
		s[i] = Scored{Node: NodeID(i), Score: r.Float32()}
	}
	in := make([]Scored, len(s))
	for b.Loop() {
		copy(in, s)
		SelectTop(in, 20)
	}
}
