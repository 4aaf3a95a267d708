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
