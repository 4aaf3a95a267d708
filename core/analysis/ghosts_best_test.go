package analysis

import (
	cmpo "cmp"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/m1nd-go/m1nd/core/graph"
)

// TestBestPairsIsTheSortedPrefix: bestPairs keeps exactly the first k
// pairs of a full sort (stronger, then a, then b), ties in strength
// included, for every k from 1 to past the number of pairs.
func TestBestPairsIsTheSortedPrefix(t *testing.T) {
	rng := rand.New(rand.NewPCG(29, 2))
	for _, tc := range []struct {
		name      string
		n, levels int // pairs, distinct strengths (few: many ties)
	}{
		{"empty", 0, 1}, {"one", 1, 1}, {"all tied", 40, 1}, {"few levels", 300, 4}, {"spread", 500, 1000},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var all []ghostPair
			seen := map[[2]graph.NodeID]bool{}
			for len(all) < tc.n {
				a, b := graph.NodeID(rng.IntN(60)), graph.NodeID(rng.IntN(60))
				if a == b || seen[[2]graph.NodeID{a, b}] {
					continue
				}
				seen[[2]graph.NodeID{a, b}] = true
				all = append(all, ghostPair{a: a, b: b, mask: 3, strength: float32(rng.IntN(tc.levels)) / float32(tc.levels)})
			}
			want := slices.Clone(all)
			slices.SortFunc(want, func(x, y ghostPair) int {
				return cmpo.Or(cmpo.Compare(y.strength, x.strength), cmpo.Compare(x.a, y.a), cmpo.Compare(x.b, y.b))
			})
			for k := 1; k <= tc.n+2; k++ {
				got := bestPairs(slices.Clone(all), k)
				if d := cmp.Diff(want[:min(k, len(want))], got, cmp.AllowUnexported(ghostPair{})); d != "" {
					t.Fatalf("k=%d: (-sorted prefix +bestPairs)\n%s", k, d)
				}
			}
		})
	}
}
