package structure

import (
	"fmt"
	"math"
	"testing"
)

// Two cliques of four joined by one link: Louvain finds the two cliques,
// and their modularity is the textbook value.
func TestLouvainTwoCliques(t *testing.T) {
	names := []string{"a0", "a1", "a2", "a3", "b0", "b1", "b2", "b3"}
	links := map[[2]int]int{}
	for _, base := range []int{0, 4} {
		for i := base; i < base+4; i++ {
			for j := i + 1; j < base+4; j++ {
				links[[2]int{i, j}] = 1
			}
		}
	}
	links[[2]int{3, 4}] = 1
	u := FromLinks(names, links)
	part := Louvain(u)
	if got := fmt.Sprint(part); got != "[0 0 0 0 1 1 1 1]" {
		t.Fatalf("communities %s, want the two cliques", got)
	}
	// m = 13; each clique has 6 inner links and degree sum 13.
	want := 2 * (6.0/13 - math.Pow(13.0/26, 2))
	if q := Modularity(u, part); math.Abs(q-want) > 1e-9 {
		t.Errorf("modularity %.6f, want %.6f", q, want)
	}
	if c := CutWeight(u, part); c != 1 {
		t.Errorf("cut %d, want 1", c)
	}
}

func TestLouvainEdgeCases(t *testing.T) {
	for _, tc := range []struct {
		name  string
		n     int
		links map[[2]int]int
		want  string
	}{
		{"empty", 0, nil, "[]"},
		{"no links", 3, nil, "[0 1 2]"},
		{"one pair and a loner", 3, map[[2]int]int{{0, 1}: 2}, "[0 0 1]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			names := make([]string, tc.n)
			for i := range names {
				names[i] = fmt.Sprint(i)
			}
			if got := fmt.Sprint(Louvain(FromLinks(names, tc.links))); got != tc.want {
				t.Errorf("got %s, want %s", got, tc.want)
			}
		})
	}
}
