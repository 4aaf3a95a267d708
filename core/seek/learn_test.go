package seek

import (
	"math"
	"slices"
	"testing"

	"github.com/m1nd-go/m1nd/core/graph"
)

func rank(g *graph.Graph, hs []Hit, id string) int {
	return slices.Index(ids(g, hs), id) + 1
}

// Learned relevance re-ranks seek's graph part the way it re-ranks
// activate: a rejected hit falls, a confirmed one rises; without graph
// fusion (pure text) it changes nothing.
func TestFeedbackReranks(t *testing.T) {
	x, g := buildFixture(t, nil)
	const q = "validate credentials"
	base := x.SearchText(q, Params{TopK: 30, GraphRerank: true})
	if len(base.Hits) < 6 {
		t.Fatalf("fixture: %d hits", len(base.Hits))
	}
	top, low := base.Hits[0].Node, base.Hits[5].Node
	node := func(n graph.NodeID) string { return g.ExternalID(n) }
	fb := []graph.Scored{{Node: low, Score: 0.99}, {Node: top, Score: -0.99}}
	for _, tc := range []struct {
		name           string
		p              Params
		topRank, lowTo int // want: top's rank > topRank, low's rank <= lowTo (0: unchanged)
	}{
		{"graph rerank", Params{TopK: 30, GraphRerank: true, Feedback: fb}, 3, 1},
		{"weak feedback", Params{TopK: 30, GraphRerank: true, Feedback: []graph.Scored{{Node: low, Score: 0.3}, {Node: top, Score: -0.3}}}, 1, 5},
		{"text only", Params{TopK: 30, Feedback: fb}, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := x.SearchText(q, tc.p)
			if tc.topRank == 0 {
				plain := x.SearchText(q, Params{TopK: 30})
				if !slices.Equal(ids(g, res.Hits), ids(g, plain.Hits)) {
					t.Errorf("feedback changed a text-only search")
				}
				return
			}
			if r := rank(g, res.Hits, node(top)); r != 0 && r <= tc.topRank {
				t.Errorf("rejected %s is #%d, want below #%d", node(top), r, tc.topRank)
			}
			if r := rank(g, res.Hits, node(low)); r == 0 || r > tc.lowTo {
				t.Errorf("confirmed %s is #%d, want #%d or better", node(low), r, tc.lowTo)
			}
			for _, h := range res.Hits {
				if d := math.Abs(float64(h.Score - squash(h.Breakdown.Total()))); d > 1e-4 {
					t.Errorf("%s: score %v, breakdown total %v", node(h.Node), h.Score, h.Breakdown.Total())
				}
				if h.Node == top && !(h.Breakdown.Feedback < 0) {
					t.Errorf("rejected hit's breakdown feedback = %v, want negative", h.Breakdown.Feedback)
				}
			}
		})
	}
}

// Strengthened edges pass more to neighbours than their ingest weight, so
// learned weights above 1 show in the graph part (they were clamped to 1).
func TestLearnedWeightsReachFusion(t *testing.T) {
	x, g := buildFixture(t, nil)
	const q = "validate credentials"
	hash := "file::backend/crypto.py::hash_password"
	graphPart := func() float32 {
		for _, h := range x.SearchText(q, Params{TopK: 100, GraphRerank: true}).Hits {
			if g.ExternalID(h.Node) == hash {
				return h.Breakdown.Graph
			}
		}
		t.Fatalf("%s not found", hash)
		return 0
	}
	before := graphPart()
	h, _ := g.Lookup(hash)
	var edges []graph.EdgeIdx
	ilo, ihi := g.InRange(h)
	for pos := ilo; pos < ihi; pos++ {
		edges = append(edges, g.InEdge(pos))
	}
	olo, ohi := g.OutRange(h)
	for e := olo; e < ohi; e++ {
		edges = append(edges, e)
	}
	for _, e := range edges {
		if _, err := g.UpdateWeight(e, func(w float32) float32 { return min(w*2, graph.WeightCap) }); err != nil {
			t.Fatal(err)
		}
	}
	stronger := graphPart()
	for _, e := range edges {
		o := g.EdgePlasticity().Original[e]
		g.UpdateWeight(e, func(float32) float32 { return o / 2 })
	}
	weaker := graphPart()
	if !(stronger > before && weaker < before) {
		t.Errorf("graph part of %s: ingest %v, strengthened %v, weakened %v; want strengthened > ingest > weakened", hash, before, stronger, weaker)
	}
}
