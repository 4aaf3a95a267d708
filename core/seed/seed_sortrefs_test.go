package seed

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/m1nd-go/m1nd/core/graph"
)

// TestSortRefsEqualsSort: sorting in two halves and merging gives the
// order one sort gives — the same key text and node at every place (refs
// equal by cmp may hold different spans of the same text) — duplicates
// and shared keys included, on both sides of parallelSortMin.
func TestSortRefsEqualsSort(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	var b keyBuilder
	for i := range 300 { // short keys, many shared
		b.addCompact(strings.Repeat(string(rune('a'+i%7)), 1+i%3), graph.NodeID(i), nil)
	}
	text := string(b.buf)
	cmp := func(x, y keyRef) int {
		if c := strings.Compare(text[x.from:x.to], text[y.from:y.to]); c != 0 {
			return c
		}
		return int(x.node) - int(y.node)
	}
	for _, n := range []int{0, 1, 100, parallelSortMin - 1, parallelSortMin, 3*parallelSortMin + 5} {
		refs := make([]keyRef, n)
		for i := range refs {
			refs[i] = b.refs[r.IntN(len(b.refs))]
			refs[i].node = graph.NodeID(r.IntN(50)) // duplicates of key and node
		}
		want := slices.Clone(refs)
		slices.SortFunc(want, cmp)
		same := func(x, y keyRef) bool { return cmp(x, y) == 0 }
		if got := sortRefs(slices.Clone(refs), cmp); !slices.EqualFunc(got, want, same) {
			t.Fatalf("%d refs: two halves merged differ from one sort", n)
		}
	}
}
