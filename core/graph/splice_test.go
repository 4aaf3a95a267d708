package graph_test

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/m1nd-go/m1nd/core/graph"
)

var spliceRels = []string{"calls", "contains", "imports", "references"}

// fileGraph builds a graph whose nodes come in "files": contiguous runs of
// nodes named f{file}::{k}, as ingest lays them out.
func fileGraph(r *rand.Rand, files int) (*graph.Graph, [][2]graph.NodeID) {
	g := graph.New()
	var ranges [][2]graph.NodeID
	for f := 0; f < files; f++ {
		lo := graph.NodeID(g.NumNodes())
		for k := r.IntN(6); k >= 0; k-- {
			g.AddNode(spliceNode(r, f, k))
		}
		ranges = append(ranges, [2]graph.NodeID{lo, graph.NodeID(g.NumNodes())})
	}
	n := g.NumNodes()
	for k := r.IntN(4 * n); k > 0; k-- {
		g.AddEdge(randomEdge(r, graph.NodeID(r.IntN(n)), graph.NodeID(r.IntN(n))))
	}
	g.Finalize()
	// Learned weights on forward edges (mirrors would diverge from their
	// primary, which a rebuild cannot express).
	for e := 0; e < g.NumEdges(); e++ {
		if g.EdgeDirection(graph.EdgeIdx(e)) == graph.Forward && r.IntN(5) == 0 {
			g.AtomicWriteWeight(graph.EdgeIdx(e), 1.2+r.Float32()) // above every initial weight: a rebuild keeps the max
		}
	}
	return g, ranges
}

func spliceNode(r *rand.Rand, f, k int) graph.Node {
	return graph.Node{
		ExternalID:      fmt.Sprintf("f%d::%d", f, k),
		Label:           fmt.Sprintf("L%d", r.IntN(8)),
		Type:            graph.NodeType(r.IntN(5)),
		Tags:            []string{fmt.Sprintf("t%d", r.IntN(4))},
		LastModified:    float64(r.IntN(1000)),
		ChangeFrequency: r.Float32(),
		Provenance:      graph.Provenance{SourcePath: fmt.Sprintf("p%d", f), LineStart: uint32(k), Excerpt: fmt.Sprintf("x%d", r.IntN(3))},
	}
}

func randomEdge(r *rand.Rand, s, t graph.NodeID) graph.Edge {
	// As in ingest, a relation has one direction: a forward and a
	// bidirectional edge with the same triple would leave Finalize's
	// mirror of the losing one behind, which no rebuild reproduces.
	rel := spliceRels[r.IntN(len(spliceRels))]
	d := graph.Forward
	if rel == "contains" || rel == "imports" {
		d = graph.Bidirectional
	}
	return graph.Edge{Source: s, Target: t, Relation: rel, Weight: 0.1 + r.Float32(), Direction: d, CausalStrength: 0.5, Inhibitory: r.IntN(9) == 0}
}

type dumpEdge struct {
	Src, Dst, Rel string
	Weight, Orig  float32
	Dir           graph.Direction
	Mirror, Inh   bool
}

type dump struct {
	Nodes []graph.Node
	Edges []dumpEdge
}

func dumpGraph(g *graph.Graph) dump {
	var d dump
	for i := 0; i < g.NumNodes(); i++ {
		d.Nodes = append(d.Nodes, g.Node(graph.NodeID(i)))
	}
	for e := 0; e < g.NumEdges(); e++ {
		ei := graph.EdgeIdx(e)
		d.Edges = append(d.Edges, dumpEdge{
			Src: g.ExternalID(g.Source(ei)), Dst: g.ExternalID(g.Target(ei)), Rel: g.RelationName(ei),
			Weight: g.Weight(ei), Orig: g.EdgePlasticity().Original[ei], Dir: g.EdgeDirection(ei), Mirror: g.IsMirror(ei), Inh: g.Inhibitory(ei),
		})
	}
	slices.SortFunc(d.Edges, func(a, b dumpEdge) int {
		return strings.Compare(a.Src+"\x00"+a.Dst+"\x00"+a.Rel, b.Src+"\x00"+b.Dst+"\x00"+b.Rel)
	})
	return d
}

// TestSplicedEqualsRebuild applies random splices and compares the result
// with the same graph built from scratch: nodes in order with their
// attributes, edges with weights and learned state, lookups, indexes, CSR
// invariants, and PageRank within the convergence tolerance.
func TestSplicedEqualsRebuild(t *testing.T) {
	for seed := uint64(1); seed <= 200; seed++ {
		r := rand.New(rand.NewPCG(seed, 11))
		base, files := fileGraph(r, 1+r.IntN(25))
		if seed%3 == 0 {
			// A loaded snapshot numbers relations differently.
			raw, err := base.ToRaw()
			if err != nil {
				t.Fatal(err)
			}
			if base, err = graph.FromRaw(raw); err != nil {
				t.Fatal(err)
			}
		}
		fresh := seed%2 == 0
		sp, want := randomSplice(r, base, files, fresh)
		got, remap, err := base.Spliced(sp)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if !got.Finalized() {
			t.Fatalf("seed %d: spliced graph not finalized", seed)
		}
		t.Run(fmt.Sprint("csr", seed), func(t *testing.T) { checkCSR(t, got) })
		if diff := cmp.Diff(dumpGraph(want), dumpGraph(got)); diff != "" {
			t.Fatalf("seed %d: spliced graph differs from a rebuild (-want +got):\n%s", seed, diff)
		}
		for i := 0; i < base.NumNodes(); i++ {
			id, ok := got.Lookup(base.ExternalID(graph.NodeID(i)))
			if (remap[i] != graph.NoNode) != ok || (ok && id != remap[i]) {
				t.Fatalf("seed %d: remap[%d] = %d, lookup %d %v", seed, i, remap[i], id, ok)
			}
		}
		for i := 0; i < want.NumNodes(); i++ {
			id := graph.NodeID(i)
			if g, ok := got.Lookup(want.ExternalID(id)); !ok || g != id {
				t.Fatalf("seed %d: Lookup(%q) = %d %v, want %d", seed, want.ExternalID(id), g, ok, id)
			}
			lbl, path := want.Label(id), want.SourcePath(id)
			if !slices.Equal(want.NodesByLabel(lbl), got.NodesByLabel(lbl)) || !slices.Equal(want.NodesByPath(path), got.NodesByPath(path)) {
				t.Fatalf("seed %d: label/path index differs for node %d", seed, i)
			}
			for _, tag := range want.Tags(id) {
				if !slices.Equal(want.NodesByTag(tag), got.NodesByTag(tag)) {
					t.Fatalf("seed %d: tag index differs for %q", seed, tag)
				}
			}
			// Both are power iterations capped at 50 rounds; on graphs that
			// do not settle by then (residual above 1e-6) each is off by up
			// to a few 1e-3 after normalisation.
			if d := math.Abs(float64(want.PageRank(id) - got.PageRank(id))); d > 5e-3 {
				t.Fatalf("seed %d: PageRank of node %d: rebuild %v, spliced %v", seed, i, want.PageRank(id), got.PageRank(id))
			}
		}
		if got.Generation() <= base.Generation() {
			t.Fatalf("seed %d: generation %d not after %d", seed, got.Generation(), base.Generation())
		}
	}
}

// randomSplice picks files to replace (keeping, reordering, dropping and
// adding nodes), insertions, edges to drop and to add, and builds the
// expected graph from scratch.
func randomSplice(r *rand.Rand, base *graph.Graph, files [][2]graph.NodeID, fresh bool) (graph.Splice, *graph.Graph) {
	sp := graph.Splice{FreshWeights: fresh}
	type slot struct {
		old   graph.NodeID // NoNode: from a range
		node  graph.Node
		inNew bool
	}
	var order []graph.Node
	next := len(files)
	for f, fr := range files {
		if r.IntN(3) == 0 {
			// Insert a new file before this one.
			if r.IntN(2) == 0 {
				nodes := []graph.Node{spliceNode(r, next, 0), spliceNode(r, next, 1)}
				next++
				sp.Ranges = append(sp.Ranges, graph.NodeRange{Lo: fr[0], Hi: fr[0], Nodes: nodes})
				order = append(order, nodes...)
			}
			// Replace this file: keep some nodes (new attributes, maybe a
			// new order), drop others, add some.
			var nodes []graph.Node
			for o := fr[0]; o < fr[1]; o++ {
				if r.IntN(3) > 0 {
					nd := spliceNode(r, f, 0)
					nd.ExternalID = base.ExternalID(o)
					nodes = append(nodes, nd)
				}
			}
			for k := r.IntN(3); k > 0; k-- {
				nodes = append(nodes, spliceNode(r, f, 100+k))
			}
			if r.IntN(2) == 0 {
				r.Shuffle(len(nodes), func(i, j int) { nodes[i], nodes[j] = nodes[j], nodes[i] })
			}
			sp.Ranges = append(sp.Ranges, graph.NodeRange{Lo: fr[0], Hi: fr[1], Nodes: nodes})
			order = append(order, nodes...)
			continue
		}
		for o := fr[0]; o < fr[1]; o++ {
			order = append(order, base.Node(o))
		}
	}
	// Node replacements carry attributes by external ID.
	want := graph.New()
	for _, nd := range order {
		if _, err := want.AddNode(nd); err != nil {
			panic(err)
		}
	}
	drop := map[[3]string]bool{}
	key := func(s, d graph.NodeID, rel graph.Str) [3]string {
		return [3]string{base.ExternalID(s), base.ExternalID(d), base.Strings().String(rel)}
	}
	for e := 0; e < base.NumEdges(); e++ {
		ei := graph.EdgeIdx(e)
		if !base.IsMirror(ei) && r.IntN(6) == 0 {
			drop[key(base.Source(ei), base.Target(ei), base.Relation(ei))] = true
		}
	}
	sp.DropEdge = func(s, d graph.NodeID, rel graph.Str) bool { return drop[key(s, d, rel)] }
	for e := 0; e < base.NumEdges(); e++ {
		ei := graph.EdgeIdx(e)
		if base.IsMirror(ei) {
			continue
		}
		s, d := base.Source(ei), base.Target(ei)
		if drop[key(s, d, base.Relation(ei))] {
			continue
		}
		ws, ok1 := want.Lookup(base.ExternalID(s))
		wd, ok2 := want.Lookup(base.ExternalID(d))
		if !ok1 || !ok2 {
			continue
		}
		w := base.Weight(ei)
		if fresh {
			w = base.EdgePlasticity().Original[ei]
		}
		want.AddEdge(graph.Edge{Source: ws, Target: wd, Relation: base.RelationName(ei), Weight: w,
			Direction: base.EdgeDirection(ei), Inhibitory: base.Inhibitory(ei), CausalStrength: base.CausalStrength(ei)})
	}
	// Learned state (weight ≠ original) must survive: rebuilt edges start
	// with original == weight, so copy the base's originals afterwards.
	want.Finalize()
	for e := 0; e < want.NumEdges(); e++ {
		ei := graph.EdgeIdx(e)
		if be, ok := base.FindEdgeByName(mustLookup(base, want.ExternalID(want.Source(ei))), mustLookup(base, want.ExternalID(want.Target(ei))), want.RelationName(ei)); ok {
			want.EdgePlasticity().Original[ei] = base.EdgePlasticity().Original[be]
		}
	}
	n := want.NumNodes()
	for k := r.IntN(2*n + 1); k > 0 && n > 0; k-- {
		s, d := graph.NodeID(r.IntN(n)), graph.NodeID(r.IntN(n))
		e := randomEdge(r, s, d)
		sp.AddEdges = append(sp.AddEdges, graph.SpliceEdge{Source: want.ExternalID(s), Target: want.ExternalID(d), Edge: e})
		want.AddEdge(e)
	}
	want.Finalize()
	return sp, want
}

func mustLookup(g *graph.Graph, ext string) graph.NodeID {
	id, ok := g.Lookup(ext)
	if !ok {
		return graph.NoNode
	}
	return id
}

func TestSplicedErrors(t *testing.T) {
	g := graph.New()
	for _, id := range []string{"a", "b", "c", "d"} {
		g.AddNode(graph.Node{ExternalID: id})
	}
	if _, _, err := g.Spliced(graph.Splice{}); !errors.Is(err, graph.ErrNotFinalized) {
		t.Fatalf("unfinalized base: %v", err)
	}
	g.Finalize()
	cases := map[string]graph.Splice{
		"out of order":   {Ranges: []graph.NodeRange{{Lo: 2, Hi: 3}, {Lo: 0, Hi: 1}}},
		"out of bounds":  {Ranges: []graph.NodeRange{{Lo: 3, Hi: 9}}},
		"empty id":       {Ranges: []graph.NodeRange{{Lo: 0, Hi: 1, Nodes: []graph.Node{{}}}}},
		"duplicate":      {Ranges: []graph.NodeRange{{Lo: 0, Hi: 1, Nodes: []graph.Node{{ExternalID: "x"}, {ExternalID: "x"}}}}},
		"clash outside":  {Ranges: []graph.NodeRange{{Lo: 0, Hi: 1, Nodes: []graph.Node{{ExternalID: "c"}}}}},
		"unknown source": {AddEdges: []graph.SpliceEdge{{Source: "zz", Target: "a"}}},
		"removed target": {Ranges: []graph.NodeRange{{Lo: 0, Hi: 1}}, AddEdges: []graph.SpliceEdge{{Source: "b", Target: "a"}}},
		"non-finite":     {AddEdges: []graph.SpliceEdge{{Source: "b", Target: "a", Edge: graph.Edge{Weight: float32(math.NaN())}}}},
	}
	for name, sp := range cases {
		if _, _, err := g.Spliced(sp); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	if g.NumNodes() != 4 || !g.Finalized() {
		t.Fatal("a failed splice changed the base graph")
	}
}

// TestSplicedFreshWhileLearning splices with fresh weights while another
// goroutine writes learned state into the base graph, as the plasticity
// engine does while an ingest runs (run with -race): a fresh splice reads
// none of it.
func TestSplicedFreshWhileLearning(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 3))
	base, files := fileGraph(r, 40)
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		pl := base.EdgePlasticity()
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			e := graph.EdgeIdx(i % base.NumEdges())
			base.AtomicWriteWeight(e, 0.5)
			pl.Strengthen[e]++
			pl.LTP[e] = true
			base.Nodes().Plasticity[int(e)%base.NumNodes()].FireCount++
		}
	}()
	for i := 0; i < 20; i++ {
		sp, _ := randomSplice(rand.New(rand.NewPCG(uint64(i), 1)), base, files, true)
		got, _, err := base.Spliced(sp)
		if err != nil {
			t.Fatal(err)
		}
		pl := got.EdgePlasticity()
		for e := 0; e < got.NumEdges(); e++ {
			if pl.Strengthen[e] != 0 || pl.LTP[e] || got.Weight(graph.EdgeIdx(e)) != pl.Original[e] {
				t.Fatalf("edge %d carries learned state into a fresh splice", e)
			}
		}
	}
	close(stop)
	<-done
}
