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
// next k−1 and the rest of the edges are random calls, imports and
// references; one file in six is a test by its path, one in six by its
// tag. Unlike PowerLaw's (every 8th), its node-to-file map is its own.
func filesEvery(t *testing.T, n, k, edges int, seed uint64) *graph.Graph {
	g := graph.New()
	r := rand.New(rand.NewPCG(seed, 1))
	file, path := graph.NodeID(0), ""
	for i := range n {
		node := graph.Node{ExternalID: fmt.Sprintf("file::%s::fn%d", path, i), Type: graph.Function, Provenance: graph.Provenance{SourcePath: path}}
		if i%k == 0 {
			path = fmt.Sprintf("src/f%d.py", i)
			var tags []string
			switch r.IntN(6) {
			case 0:
				path = fmt.Sprintf("tests/test_f%d.py", i)
			case 1:
				tags = []string{"test"}
			}
			node = graph.Node{ExternalID: "file::" + path, Type: graph.File, Tags: tags, Provenance: graph.Provenance{SourcePath: path}}
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
		src, dst := graph.NodeID(r.IntN(n)), graph.NodeID(r.IntN(n/4))
		if src == dst {
			continue
		}
		w := []float32{1, 0.9, 0.5 + float32(r.Float64())/2}[r.IntN(3)]
		if err := g.AddEdge(graph.Edge{Source: src, Target: dst, Relation: []string{"calls", "imports", "references"}[r.IntN(3)], Weight: w}); err != nil {
			t.Fatal(err)
		}
	}
	g.Finalize()
	return g
}

// TestImpactTopKIsTheFullListsHead: a cut answer (its nodes picked by a
// heap, tests found out only for the nodes that could be listed) lists the
// head of the uncut answer's list, with the same counts, energy and
// chains.
func TestImpactTopKIsTheFullListsHead(t *testing.T) {
	g := filesEvery(t, 4000, 4, 14000, 5)
	for _, tc := range []struct {
		name string
		p    func(*ImpactParams)
	}{
		{"files", func(p *ImpactParams) { p.Level = LevelFile }},
		{"files both ways", func(p *ImpactParams) { p.Level, p.Direction = LevelFile, BothWays }},
		{"entities, 5 hops", func(p *ImpactParams) { p.Level, p.MaxHops = LevelEntity, 5 }},
		{"dependencies, 3 chains", func(p *ImpactParams) { p.Direction, p.MaxChains = Dependencies, 3 }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cut := 0
			for src := graph.NodeID(0); src < 400; src += 3 {
				p := DefaultImpactParams()
				tc.p(&p)
				all, err := Impact(g, src, p)
				if err != nil {
					t.Fatal(err)
				}
				for _, k := range []int{1, 4, 15} {
					p.TopK = k
					got, err := Impact(g, src, p)
					if err != nil {
						t.Fatal(err)
					}
					want := all
					if len(want.BlastRadius) > k {
						want.BlastRadius, cut = want.BlastRadius[:k], cut+1
					}
					if d := cmp.Diff(want, got); d != "" {
						t.Fatalf("source %d, top %d: not the head of the full answer (-full +cut):\n%s", src, k, d)
					}
				}
			}
			if cut < 100 {
				t.Fatalf("only %d answers were cut: the heap was hardly used", cut)
			}
		})
	}
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
