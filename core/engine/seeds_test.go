package engine

import (
	"testing"

	"github.com/google/go-cmp/cmp"

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
