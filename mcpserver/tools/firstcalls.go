package tools

import (
	"context"
	"slices"
	"strings"

	"github.com/m1nd-go/m1nd/core/analysis"
	"github.com/m1nd-go/m1nd/core/engine"
	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/mcpserver/session"
)

// The first activate and the first impact after an ingest allocated the
// node-sized scratch their later calls take from a free list (activate:
// two activation workspaces and XLR's field; impact: a walk per direction
// and the rollup, ≈ 100 B a node), and paid the collector's assists for
// it: on go-std, 15 s after the answer, 187 ms against 30 ms for the
// second activate and 43 ms against 1.6 ms for the second impact
// (seek-first7.md). The warm-ups below make one such call behind the
// answer, once the query engine is built, so the first real call finds
// the scratch on its free list.

// WarmActivate runs one activation on b's query engine that learns
// nothing (engine.Query.NoLearn: plasticity, query memory and warm-up
// boosts stay as they were, so no later answer changes). Its query is
// the labels of the graph's busiest nodes, so that it seeds and spreads
// as widely as an agent's broad question: some of the scratch it leaves
// grows with the nodes a query touches. It builds no engine (the
// ingest's and the patch's warm-ups build it first, when it was built
// for the graph before): warm scratch is no reason to pay for one.
// Registered by the activate tool's family (AddWarmup).
func WarmActivate(ctx context.Context, s *session.State, b *session.Bundle) error {
	busy := busiestNodes(b.Graph, warmSeeds)
	if len(busy) == 0 || !session.Built(b, session.EngineKey) {
		return nil
	}
	eng, err := s.Engine(b)
	if err != nil {
		return err
	}
	words := make([]string, len(busy))
	for i, n := range busy {
		words[i] = b.Graph.Label(n)
	}
	_, err = eng.Activate(ctx, engine.Query{Text: strings.Join(words, " "), XLR: s.Config().XLREnabled, NoLearn: true})
	return err
}

// warmSeeds is how many of the busiest nodes' labels WarmActivate asks.
const warmSeeds = 8

// WarmImpact runs one impact analysis, both ways, from a node with one
// edge: core/analysis keeps its scratch for the last graph asked about,
// and every call sizes all of it to the graph whatever its source, so the
// cheapest source does (a hub's walk cost tens of ms on go-std, in the
// seconds after the answer where the client's next calls come). Impact
// reads the graph only. Registered by the impact tool's family
// (AddWarmup).
func WarmImpact(ctx context.Context, _ *session.State, b *session.Bundle) error {
	n, ok := quietestNode(b.Graph)
	if !ok || ctx.Err() != nil {
		return nil
	}
	p := analysis.DefaultImpactParams()
	p.Direction = analysis.BothWays
	_, err := analysis.Impact(b.Graph, n, p)
	return err
}

// quietestNode is the node with the fewest edges but at least one (the
// lowest ID among equals), or false for a graph without edges.
func quietestNode(g *graph.Graph) (graph.NodeID, bool) {
	best, fewest := graph.NodeID(0), 0
	for i := range g.NumNodes() {
		if d := g.Degree(graph.NodeID(i)); d > 0 && (fewest == 0 || d < fewest) {
			best, fewest = graph.NodeID(i), d
			if d == 1 {
				break
			}
		}
	}
	return best, fewest > 0
}

// busiestNodes are the k nodes with the most edges in and out, most
// first (the lower ID among equals); nodes without edges are left out.
func busiestNodes(g *graph.Graph, k int) []graph.NodeID {
	var top []graph.NodeID // sorted by degree, descending
	for i := range g.NumNodes() {
		n := graph.NodeID(i)
		d := g.Degree(n)
		if d == 0 || (len(top) == k && d <= g.Degree(top[k-1])) {
			continue
		}
		at := len(top)
		for at > 0 && g.Degree(top[at-1]) < d {
			at--
		}
		top = slices.Insert(top, at, n)
		if len(top) > k {
			top = top[:k]
		}
	}
	return top
}
