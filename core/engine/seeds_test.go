package engine

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/graph/graphtest"
	"github.com/m1nd-go/m1nd/core/seed"
)

func TestMergeSeeds(t *testing.T) {
	found := []seed.Seed{{Node: 3, Relevance: 0.9, Match: seed.MatchExact}, {Node: 1, Relevance: 0.5, Match: seed.MatchFuzzy}}
	for _, tc := range []struct {
		name  string
		extra []seed.Seed
		want  []seed.Seed
	}{
		{"none", nil, found},
		{"higher wins, new joins, ties by node, bad dropped", []seed.Seed{
			{Node: 1, Relevance: 0.7, Match: seed.MatchLexical}, // beats the fuzzy 0.5
			{Node: 3, Relevance: 0.2, Match: seed.MatchLexical}, // loses to the exact 0.9
			{Node: 0, Relevance: 0.7, Match: seed.MatchLexical},
			{Node: 9, Relevance: 0.8},                           // outside the graph
			{Node: 2, Relevance: 0},                             // no relevance
			{Node: 4, Relevance: 1.5, Match: seed.MatchLexical}, // clamped to 1
		}, []seed.Seed{
			{Node: 4, Relevance: 1, Match: seed.MatchLexical},
			{Node: 3, Relevance: 0.9, Match: seed.MatchExact},
			{Node: 0, Relevance: 0.7, Match: seed.MatchLexical},
			{Node: 1, Relevance: 0.7, Match: seed.MatchLexical},
		}},
	} {
		if d := cmp.Diff(tc.want, mergeSeeds(append([]seed.Seed(nil), found...), tc.extra, 5)); d != "" {
			t.Errorf("%s (-want +got):\n%s", tc.name, d)
		}
	}
}

// TestMoreSeedsAreSeeds: seeds computed beside the seed finder
// (Query.MoreSeeds) answer as the same seeds given up front (Query.Seeds),
// and both kinds together as one list.
func TestMoreSeedsAreSeeds(t *testing.T) {
	g := graphtest.PowerLaw(3000, 7800, 21)
	a := []seed.Seed{{Node: 7, Relevance: 0.9, Match: seed.MatchLexical}, {Node: 1200, Relevance: 0.6, Match: seed.MatchLexical}}
	b := []seed.Seed{{Node: 7, Relevance: 0.4, Match: seed.MatchLexical}, {Node: 2500, Relevance: 0.8, Match: seed.MatchLexical}}
	for _, tc := range []struct {
		name      string
		seeds     []seed.Seed
		more      []seed.Seed
		upFrontAs []seed.Seed
	}{
		{"only more", nil, a, a},
		{"both", a, b, append(append([]seed.Seed(nil), a...), b...)},
	} {
		q := Query{Text: "session handler", TopK: 20, XLR: true, NoLearn: true}
		want := q
		want.Seeds = tc.upFrontAs
		got := q
		got.Seeds = tc.seeds
		got.MoreSeeds = func() []seed.Seed { return tc.more }
		w := activate(t, newEngine(t, g, nil), want)
		r := activate(t, newEngine(t, g, nil), got)
		if d := cmp.Diff(w.Seeds, r.Seeds); d != "" {
			t.Errorf("%s: seeds (-up front +beside):\n%s", tc.name, d)
		}
		if d := cmp.Diff(w.Activated, r.Activated); d != "" {
			t.Errorf("%s: activated (-up front +beside):\n%s", tc.name, d)
		}
	}
}

// TestMergeSeedsScanEqualsMap: the scans mergeSeeds makes for short lists
// answer as the map it keeps for long ones, with repeated nodes in both
// lists, nodes outside the graph and equal relevances.
func TestMergeSeedsScanEqualsMap(t *testing.T) {
	rng := rand.New(rand.NewPCG(29, 16))
	list := func(n, nodes int) []seed.Seed {
		out := make([]seed.Seed, n)
		for i := range out {
			out[i] = seed.Seed{Node: graph.NodeID(rng.IntN(nodes + 3)), Relevance: float32(rng.IntN(12)) / 10, Match: seed.Match(rng.IntN(4))}
		}
		return out
	}
	defer func(v int) { maxSeedScan = v }(maxSeedScan)
	for round := range 300 {
		nodes := 5 + rng.IntN(400)
		found, extra := list(rng.IntN(250), nodes), list(rng.IntN(40), nodes)
		maxSeedScan = 1 << 30
		scan := mergeSeeds(slices.Clone(found), extra, nodes)
		maxSeedScan = 0
		byMap := mergeSeeds(slices.Clone(found), extra, nodes)
		if d := cmp.Diff(byMap, scan); d != "" {
			t.Fatalf("round %d (-map +scan):\n%s", round, d)
		}
	}
}

// TestMergeSeedsAllocations: adding seek's 20 seeds to 200 found makes
// one list and nothing else (a map of the seeds was two thirds of what
// the merge allocated).
func TestMergeSeedsAllocations(t *testing.T) {
	found, extra := make([]seed.Seed, 200), make([]seed.Seed, 20)
	for i := range found {
		found[i] = seed.Seed{Node: graph.NodeID(3 * i), Relevance: 0.5}
	}
	for i := range extra {
		extra[i] = seed.Seed{Node: graph.NodeID(5 * i), Relevance: 0.7}
	}
	if n := testing.AllocsPerRun(50, func() { mergeSeeds(found, extra, 1000) }); n > 1 {
		t.Errorf("%v allocations a merge, want 1", n)
	}
}
