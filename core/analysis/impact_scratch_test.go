package analysis

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"weak"

	"github.com/google/go-cmp/cmp"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/graph/graphtest"
)

// emptyShelf drops the kept scratch, so the next call starts from zero.
func emptyShelf() {
	impactScratchShelf.mu.Lock()
	defer impactScratchShelf.mu.Unlock()
	impactScratchShelf.free = nil
}

// filesEvery is a graph of n nodes where every k-th is a file holding the
// next k−1 and the rest of the edges are random calls and imports: unlike
// PowerLaw's (every 8th), its node-to-file map is its own.
func filesEvery(t *testing.T, n, k, edges int, seed uint64) *graph.Graph {
	g := graph.New()
	r := rand.New(rand.NewPCG(seed, 1))
	file := graph.NodeID(0)
	for i := range n {
		node := graph.Node{ExternalID: fmt.Sprintf("file::f%d.py::fn%d", file, i), Type: graph.Function}
		if i%k == 0 {
			node = graph.Node{ExternalID: fmt.Sprintf("file::f%d.py", i), Type: graph.File}
		}
		id, err := g.AddNode(node)
		if err != nil {
			t.Fatal(err)
		}
		if node.Type == graph.File {
			file = id
		} else if err := g.AddEdge(graph.Edge{Source: file, Target: id, Relation: "contains", Weight: 1, Direction: graph.Bidirectional}); err != nil {
			t.Fatal(err)
		}
	}
	for range edges {
		src, dst := graph.NodeID(r.IntN(n)), graph.NodeID(r.IntN(n/3))
		if src == dst {
			continue
		}
		if err := g.AddEdge(graph.Edge{Source: src, Target: dst, Relation: []string{"calls", "imports"}[r.IntN(2)], Weight: 0.5 + float32(r.Float64())/2}); err != nil {
			t.Fatal(err)
		}
	}
	g.Finalize()
	return g
}

// TestImpactSameWithReusedScratch: an answer made with scratch left by
// earlier calls — on the same graph and on another, larger one that holds
// its nodes in other files — is the answer made with fresh scratch.
func TestImpactSameWithReusedScratch(t *testing.T) {
	big, small := graphtest.PowerLaw(4000, 12000, 1), filesEvery(t, 900, 5, 3000, 2)
	for _, tc := range []struct {
		name string
		p    func(*ImpactParams)
	}{
		{"files, top 15", func(p *ImpactParams) { p.Level, p.TopK = LevelFile, 15 }},
		{"files both ways, all listed", func(p *ImpactParams) { p.Level, p.Direction, p.MaxVia = LevelFile, BothWays, 5 }},
		{"entities both ways, top 5", func(p *ImpactParams) { p.Level, p.Direction, p.TopK = LevelEntity, BothWays, 5 }},
		{"dependencies, 6 hops, top 3", func(p *ImpactParams) { p.Direction, p.MaxHops, p.TopK = Dependencies, 6, 3 }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := DefaultImpactParams()
			tc.p(&p)
			fresh := func(g *graph.Graph, src graph.NodeID) ImpactResult {
				emptyShelf()
				res, err := Impact(g, src, p)
				if err != nil {
					t.Fatal(err)
				}
				return res
			}
			// Eight calls on each graph in turn; at each change of graph
			// the shelf is told the scratch is the new graph's, so the
			// scratch the previous graph left is used, not dropped.
			graphs := []*graph.Graph{big, small, big}
			var want []ImpactResult
			for gi, g := range graphs {
				for i := range 8 {
					want = append(want, fresh(g, graph.NodeID((gi*5+i*977)%g.NumNodes())))
				}
			}
			emptyShelf()
			for i, w := range want {
				g := graphs[i/8]
				if i%8 == 0 {
					impactScratchShelf.mu.Lock()
					impactScratchShelf.graph = weak.Make(g)
					impactScratchShelf.mu.Unlock()
				}
				got, err := Impact(g, w.Source, p)
				if err != nil {
					t.Fatal(err)
				}
				if d := cmp.Diff(w, got); d != "" {
					t.Fatalf("call %d (graph %d, source %d) with reused scratch differs (-fresh +reused):\n%s", i, i/8, w.Source, d)
				}
			}
		})
	}
}

// TestImpactShelfDropsReplacedGraphScratch: once another graph is asked
// about, the scratch kept is sized to it, not to the graph it replaced.
func TestImpactShelfDropsReplacedGraphScratch(t *testing.T) {
	big, small := graphtest.PowerLaw(4000, 12000, 1), graphtest.PowerLaw(900, 3000, 2)
	emptyShelf()
	for _, g := range []*graph.Graph{big, small} {
		if _, err := Impact(g, 7, DefaultImpactParams()); err != nil {
			t.Fatal(err)
		}
	}
	impactScratchShelf.mu.Lock()
	defer impactScratchShelf.mu.Unlock()
	var sizes []string
	for _, s := range impactScratchShelf.free {
		sizes = append(sizes, fmt.Sprint(len(s.walks[0].stamp), len(s.roll.hop)))
	}
	if want := []string{fmt.Sprint(small.NumNodes(), small.NumNodes())}; !cmp.Equal(sizes, want) {
		t.Fatalf("kept scratch sized %v, want %v (the small graph's only)", sizes, want)
	}
}
