package seek

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestInvertParallel checks that postings inverted by several workers
// (each a group of node ranges) are those one worker writes: NodeID order
// per term, the same saturations.
func TestInvertParallel(t *testing.T) {
	const nterms = 50
	r := rand.New(rand.NewPCG(1, 2))
	var parts []*forward
	for lo := 0; lo < 700; lo += 100 {
		p := &forward{lo: lo, off: []uint32{0}}
		for i := 0; i < 100; i++ {
			for _, tm := range r.Perm(nterms)[:r.IntN(8)] {
				p.terms = append(p.terms, uint32(tm))
				p.sats = append(p.sats, uint16(r.IntN(65535)+1))
			}
			p.off = append(p.off, uint32(len(p.terms)))
		}
		parts = append(parts, p)
	}
	var one Index
	one.invert(parts, nterms, 1)
	for _, workers := range []int{2, 3, 16} {
		var x Index
		x.invert(parts, nterms, workers)
		if !slices.Equal(x.off, one.off) || !slices.Equal(x.pnode, one.pnode) || !slices.Equal(x.psat, one.psat) {
			t.Errorf("%d workers: postings differ from one worker's", workers)
		}
		if g := splitParts(parts, workers); len(g) != min(workers, len(parts)) {
			t.Errorf("%d workers: %d groups", workers, len(g))
		}
	}
	for t0 := 0; t0 < nterms; t0++ {
		if !slices.IsSorted(one.pnode[one.off[t0]:one.off[t0+1]]) {
			t.Fatalf("term %d: postings not in NodeID order", t0)
		}
	}
}
