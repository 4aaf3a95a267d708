package xlr

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/graph/graphtest"
)

// An XLR pass allocates its answer and little else: the seeds' and the
// candidates' dedupe, the anti-seed candidates and the sort order live in
// the pooled scratch (issue 29: XLR was ≈ 8 % of an activate's
// allocation on go-std, 25 allocations a call). Four remain: the Field,
// the anti-seeds, and the result's scores and details.
func TestApplyAllocatesOnlyItsAnswer(t *testing.T) {
	g := graphtest.PowerLaw(20000, 80000, 5)
	var seeds, cands []graph.Scored
	for i := range 200 {
		seeds = append(seeds, graph.Scored{Node: graph.NodeID(i * 13 % g.NumNodes()), Score: 1})
	}
	seeds = append(seeds, seeds[3]) // a duplicate goes through dedupe's other branch
	for i := range 300 {
		cands = append(cands, graph.Scored{Node: graph.NodeID(i * 7 % g.NumNodes()), Score: float32(300-i) / 300})
	}
	e := newEngine(t, DefaultParams())
	want, err := e.Apply(g, seeds, cands)
	if err != nil || len(want.AntiSeeds) == 0 || len(want.Scores) == 0 {
		t.Fatalf("fixture: %v, %d anti-seeds, %d scores", err, len(want.AntiSeeds), len(want.Scores))
	}
	if a := testing.AllocsPerRun(20, func() { e.Apply(g, seeds, cands) }); a > 4 {
		t.Errorf("Apply allocates %v times a call, want at most 4", a)
	}
}

// keepClosest keeps what sorting every candidate and taking the first k
// kept, ties by node.
func TestKeepClosestIsSortAndCut(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for trial := range 200 {
		k := 1 + trial%5
		var all, best []antiCand
		for range r.IntN(60) {
			c := antiCand{graph.NodeID(r.IntN(1000)), float64(r.IntN(8)) / 4} // many ties
			all = append(all, c)
			best = keepClosest(best, c, k)
		}
		slices.SortFunc(all, func(a, b antiCand) int {
			if closer(a, b) {
				return -1
			}
			if closer(b, a) {
				return 1
			}
			return 0
		})
		want := all[:min(k, len(all))]
		if !slices.Equal(best, want) {
			t.Fatalf("trial %d (k=%d): kept %v, want %v", trial, k, best, want)
		}
	}
}

// The scratch's dedupe answers as the map-based one, duplicates included.
func TestScratchDedupeEqualsDedupe(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	var sc scratch
	sc.reset(100)
	for trial := range 100 {
		var in []graph.Scored
		for range r.IntN(80) {
			in = append(in, graph.Scored{Node: graph.NodeID(r.IntN(100)), Score: float32(r.IntN(7)-2) / 3})
		}
		for _, seeds := range []bool{true, false} {
			got := sc.dedupe(sc.cands, in, seeds)
			sc.cands = got
			if want := dedupe(in, seeds); !slices.Equal(got, want) {
				t.Fatalf("trial %d seeds=%v: %v, want %v", trial, seeds, got, want)
			}
		}
	}
}
