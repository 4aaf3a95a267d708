package graph_test

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
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
	t.Run("copied", spliceEqualsRebuild)
	// Every run of two edges or more shared with the base's attributes.
	t.Run("shared", func(t *testing.T) {
		defer graph.SetAttrMinShare(2)()
		spliceEqualsRebuild(t)
	})
	// The reverse CSR filled in chunks on several cores, as on a large
	// graph: its offsets counted ahead, each chunk from its own start.
	t.Run("reverse in chunks", func(t *testing.T) {
		defer graph.SetReverseSplitEdges(0)()
		defer runtime.GOMAXPROCS(max(3, runtime.GOMAXPROCS(0)))
		spliceEqualsRebuild(t)
	})
}

func spliceEqualsRebuild(t *testing.T) {
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
		askAbout(&sp, base, seed%4)
		got, remap, err := base.Spliced(sp)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if !got.Finalized() {
			t.Fatalf("seed %d: spliced graph not finalized", seed)
		}
		t.Run(fmt.Sprint("csr", seed), func(t *testing.T) { checkCSR(t, got) })
		if !graph.IndexesAsBuilt(got) || !graph.ReverseAsBuilt(got) {
			t.Fatalf("seed %d: string indexes or reverse CSR differ from the ones Finalize builds", seed)
		}
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
		copyEdge(want, base, ei, ws, wd, fresh)
	}
	// Learned state (weight ≠ original) must survive: rebuilt edges start
	// with original == weight, so copy the base's originals afterwards.
	want.Finalize()
	copyOriginals(want, base)
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

// askAbout narrows sp.DropEdge with AskSources (how == 1) or AskRelations
// (how == 3) covering exactly the edges it drops, plus a few more.
func askAbout(sp *graph.Splice, base *graph.Graph, how uint64) {
	if how != 1 && how != 3 {
		return
	}
	srcs := make([]bool, base.NumNodes())
	rels := map[graph.Str]bool{}
	for e := 0; e < base.NumEdges(); e++ {
		ei := graph.EdgeIdx(e)
		s, d, rel := base.Source(ei), base.Target(ei), base.Relation(ei)
		if !base.IsMirror(ei) && sp.DropEdge(s, d, rel) {
			srcs[s], rels[rel] = true, true
		}
		if s%7 == 0 {
			srcs[s] = true
		}
	}
	if how == 1 {
		sp.AskSources = srcs
		return
	}
	for rel := range rels {
		sp.AskRelations = append(sp.AskRelations, rel)
	}
}

// copyEdge adds base's edge ei to want, between want's ws and wd, with
// its original weight when fresh (its learned weight otherwise).
func copyEdge(want, base *graph.Graph, ei graph.EdgeIdx, ws, wd graph.NodeID, fresh bool) {
	w := base.Weight(ei)
	if fresh {
		w = base.EdgePlasticity().Original[ei]
	}
	want.AddEdge(graph.Edge{Source: ws, Target: wd, Relation: base.RelationName(ei), Weight: w,
		Direction: base.EdgeDirection(ei), Inhibitory: base.Inhibitory(ei), CausalStrength: base.CausalStrength(ei)})
}

// copyOriginals gives the finalized want's edges base's original weights
// (rebuilt edges start with original == weight).
func copyOriginals(want, base *graph.Graph) {
	for e := 0; e < want.NumEdges(); e++ {
		ei := graph.EdgeIdx(e)
		if be, ok := base.FindEdgeByName(mustLookup(base, want.ExternalID(want.Source(ei))), mustLookup(base, want.ExternalID(want.Target(ei))), want.RelationName(ei)); ok {
			want.EdgePlasticity().Original[ei] = base.EdgePlasticity().Original[be]
		}
	}
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

// rebuildSpliced builds from scratch the graph sp should turn base into:
// the nodes in their new order, base's surviving edges that sp does not
// drop (learned weights unless FreshWeights), then the added edges.
func rebuildSpliced(base *graph.Graph, sp graph.Splice) *graph.Graph {
	want := graph.New()
	add := func(nd graph.Node) {
		if _, err := want.AddNode(nd); err != nil {
			panic(err)
		}
	}
	cursor := graph.NodeID(0)
	for _, r := range sp.Ranges {
		for o := cursor; o < r.Lo; o++ {
			add(base.Node(o))
		}
		for _, nd := range r.Nodes {
			add(nd)
		}
		cursor = r.Hi
	}
	for o := cursor; int(o) < base.NumNodes(); o++ {
		add(base.Node(o))
	}
	for e := 0; e < base.NumEdges(); e++ {
		ei := graph.EdgeIdx(e)
		s, d := base.Source(ei), base.Target(ei)
		ws, ok1 := want.Lookup(base.ExternalID(s))
		wd, ok2 := want.Lookup(base.ExternalID(d))
		if base.IsMirror(ei) || !ok1 || !ok2 || (sp.DropEdge != nil && sp.DropEdge(s, d, base.Relation(ei))) {
			continue
		}
		copyEdge(want, base, ei, ws, wd, sp.FreshWeights)
	}
	want.Finalize()
	copyOriginals(want, base)
	for _, e := range sp.AddEdges {
		if err := want.AddEdgeByID(e.Source, e.Target, e.Edge); err != nil {
			panic(err)
		}
	}
	want.Finalize()
	return want
}

// checkSpliced compares g.Spliced(sp) with a rebuild: nodes, edges,
// lookups, indexes, CSR invariants and PageRank.
func checkSpliced(t *testing.T, base *graph.Graph, sp graph.Splice) {
	t.Helper()
	got, remap, err := base.Spliced(sp)
	if err != nil {
		t.Fatal(err)
	}
	want := rebuildSpliced(base, sp)
	checkCSR(t, got)
	if diff := cmp.Diff(dumpGraph(want), dumpGraph(got)); diff != "" {
		t.Fatalf("spliced graph differs from a rebuild (-want +got):\n%s", diff)
	}
	if !graph.IndexesAsBuilt(got) || !graph.ReverseAsBuilt(got) {
		t.Fatal("string indexes or reverse CSR differ from the ones Finalize builds")
	}
	for i := 0; i < base.NumNodes(); i++ {
		id, ok := got.Lookup(base.ExternalID(graph.NodeID(i)))
		if (remap[i] != graph.NoNode) != ok || (ok && id != remap[i]) {
			t.Fatalf("remap[%d] = %d, lookup %d %v", i, remap[i], id, ok)
		}
	}
	for i := 0; i < want.NumNodes(); i++ {
		id := graph.NodeID(i)
		if g, ok := got.Lookup(want.ExternalID(id)); !ok || g != id {
			t.Fatalf("Lookup(%q) = %d %v, want %d", want.ExternalID(id), g, ok, id)
		}
		lbl, path := want.Label(id), want.SourcePath(id)
		if !slices.Equal(want.NodesByLabel(lbl), got.NodesByLabel(lbl)) || !slices.Equal(want.NodesByPath(path), got.NodesByPath(path)) {
			t.Fatalf("label/path index differs for node %d", i)
		}
		if d := math.Abs(float64(want.PageRank(id) - got.PageRank(id))); d > 5e-3 {
			t.Fatalf("PageRank of node %d: rebuild %v, spliced %v", i, want.PageRank(id), got.PageRank(id))
		}
	}
	tags := map[string][]graph.NodeID{}
	want.ForEachTag(func(tag string, nodes []graph.NodeID) { tags[tag] = slices.Clone(nodes) })
	got.ForEachTag(func(tag string, nodes []graph.NodeID) {
		if !slices.Equal(tags[tag], nodes) {
			t.Fatalf("tag %q: rebuild %v, spliced %v", tag, tags[tag], nodes)
		}
		delete(tags, tag)
	})
	if len(tags) > 0 {
		t.Fatalf("tags missing from the spliced graph: %v", tags)
	}
}

// TestSplicedCases covers the shapes of splice the bulk paths must get
// right, each with and without learned weights, against a rebuild.
func TestSplicedCases(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	base, files := fileGraph(r, 80)
	strs := base.Strings()
	rel := func(name string) graph.Str {
		h, ok := strs.Lookup(name)
		if !ok {
			t.Fatalf("no relation %q", name)
		}
		return h
	}
	newNodes := func(f, k int) []graph.Node {
		var out []graph.Node
		for i := 0; i < k; i++ {
			out = append(out, spliceNode(r, f, i))
		}
		return out
	}
	keep := func(f int, reverse bool) []graph.Node {
		var out []graph.Node
		for o := files[f][0]; o < files[f][1]; o++ {
			nd := spliceNode(r, f, 0)
			nd.ExternalID = base.ExternalID(o)
			out = append(out, nd)
		}
		if reverse {
			slices.Reverse(out)
		}
		return out
	}
	inFile := func(f int) []bool {
		m := make([]bool, base.NumNodes())
		for o := files[f][0]; o < files[f][1]; o++ {
			m[o] = true
		}
		return m
	}
	file7 := inFile(7)
	imports, calls := rel("imports"), rel("calls")
	cases := map[string]graph.Splice{
		"nothing": {},
		"insert only": {
			Ranges: []graph.NodeRange{{Lo: files[10][0], Hi: files[10][0], Nodes: newNodes(900, 3)}},
			AddEdges: []graph.SpliceEdge{
				{Source: "f900::0", Target: base.ExternalID(5), Edge: graph.Edge{Relation: "calls", Weight: 0.5}},
				{Source: base.ExternalID(9), Target: "f900::2", Edge: graph.Edge{Relation: "imports", Weight: 0.5, Direction: graph.Bidirectional}},
			},
		},
		"delete only": {Ranges: []graph.NodeRange{{Lo: files[20][0], Hi: files[20][1]}}},
		"delete last": {Ranges: []graph.NodeRange{{Lo: files[79][0], Hi: files[79][1]}}},
		"several ranges": {Ranges: []graph.NodeRange{
			{Lo: files[3][0], Hi: files[3][1], Nodes: append(keep(3, false), newNodes(901, 2)...)},
			{Lo: files[30][0], Hi: files[30][0], Nodes: newNodes(902, 1)},
			{Lo: files[40][0], Hi: files[40][1], Nodes: keep(40, true)},
			{Lo: files[50][0], Hi: files[50][1]},
		}},
		"same nodes, same edges": {
			Ranges:     []graph.NodeRange{{Lo: files[7][0], Hi: files[7][1], Nodes: keep(7, false)}},
			DropEdge:   func(s, _ graph.NodeID, _ graph.Str) bool { return file7[s] },
			AskSources: file7,
			AddEdges:   outEdges(base, files[7]),
		},
		"drop by relation": {
			DropEdge:     func(_, _ graph.NodeID, r graph.Str) bool { return r == calls },
			AskRelations: []graph.Str{calls},
		},
		"drop by source, asked by relation too": {
			DropEdge:     func(s, _ graph.NodeID, r graph.Str) bool { return file7[s] || r == calls },
			AskSources:   file7,
			AskRelations: []graph.Str{calls},
		},
		// Of a bidirectional pair a → b, b → a, dropping one brings back
		// the mirror of the other.
		"mirrors come back": {
			DropEdge:     func(s, d graph.NodeID, r graph.Str) bool { return r == imports && s < d },
			AskRelations: []graph.Str{imports},
		},
		"drop asked about every edge": {
			Ranges:   []graph.NodeRange{{Lo: files[60][0], Hi: files[60][1], Nodes: keep(60, true)}},
			DropEdge: func(s, d graph.NodeID, _ graph.Str) bool { return (s+d)%5 == 0 },
		},
	}
	for name, sp := range cases {
		for _, fresh := range []bool{false, true} {
			sp.FreshWeights = fresh
			t.Run(fmt.Sprintf("%s/fresh=%v", name, fresh), func(t *testing.T) { checkSpliced(t, base, sp) })
		}
	}
}

// outEdges lists the primary edges leaving the nodes [r[0], r[1]) as a
// splice adds them.
func outEdges(g *graph.Graph, r [2]graph.NodeID) []graph.SpliceEdge {
	var out []graph.SpliceEdge
	for id := r[0]; id < r[1]; id++ {
		lo, hi := g.OutRange(id)
		for e := lo; e < hi; e++ {
			if !g.IsMirror(e) {
				out = append(out, graph.SpliceEdge{Source: g.ExternalID(id), Target: g.ExternalID(g.Target(e)),
					Edge: graph.Edge{Relation: g.RelationName(e), Weight: g.EdgePlasticity().Original[e], Direction: g.EdgeDirection(e),
						Inhibitory: g.Inhibitory(e), CausalStrength: g.CausalStrength(e)}})
			}
		}
	}
	return out
}

// TestSplicedPageRankKeepsItsTolerance chains splices on a graph whose
// PageRank does not settle within the round cap (rank sent around a long
// cycle decays only at the damping factor's rate): every warm start aims at the cold
// start's accuracy, so the rounds a patch takes do not grow along a
// session.
func TestSplicedPageRankKeepsItsTolerance(t *testing.T) {
	g := graph.New()
	const n = 3000
	for i := range n {
		g.AddNode(graph.Node{ExternalID: fmt.Sprintf("f%d::0", i), Label: "x", Type: graph.Function})
	}
	// A cycle of 1,000 nodes fed at node 0 by the 2,000 others: from a
	// uniform start, rank gathers at node 0 and travels the cycle one node
	// per round.
	for i := range n {
		to := graph.NodeID((i + 1) % 1000)
		if i >= 1000 {
			to = 0
		}
		g.AddEdge(graph.Edge{Source: graph.NodeID(i), Target: to, Relation: "calls", Weight: 1, Direction: graph.Forward})
	}
	g.Finalize()
	cold := graph.PageRankResidual(g)
	if cold <= graph.PageRankConvergence {
		t.Fatalf("the chain settled in the cold start (residual %g): the test needs one that does not", cold)
	}
	for k := range 8 {
		next, _, err := g.Spliced(graph.Splice{AddEdges: []graph.SpliceEdge{{
			Source: fmt.Sprintf("f%d::0", 1000+k), Target: fmt.Sprintf("f%d::0", 500+k),
			Edge: graph.Edge{Relation: "calls", Weight: 1, Direction: graph.Forward},
		}}})
		if err != nil {
			t.Fatal(err)
		}
		if r := graph.PageRankResidual(next); r < cold {
			t.Fatalf("splice %d: residual %g below the cold start's %g: the next warm start would aim lower", k, r, cold)
		}
		g = next
	}
}

// A warm start settles the nodes a change touched before its global
// rounds: on a code-shaped graph (files containing functions that call
// each other) a function added to each of 64 files takes fewer rounds than
// without settling, and the ranks still agree with a rebuild.
func TestSplicedPageRankSettlesTouchedNodes(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	g := graph.New()
	const files, per = 2000, 6
	for f := range files {
		for k := range per {
			g.AddNode(graph.Node{ExternalID: fmt.Sprintf("f%d::%d", f, k), Label: "x", Type: graph.Function})
		}
	}
	for f := range files {
		file := graph.NodeID(f * per)
		for k := 1; k < per; k++ {
			g.AddEdge(graph.Edge{Source: file, Target: file + graph.NodeID(k), Relation: "contains", Weight: 1, Direction: graph.Forward})
			for range 2 {
				callee := graph.NodeID(r.IntN(files)*per + 1 + r.IntN(per-1))
				g.AddEdge(graph.Edge{Source: file + graph.NodeID(k), Target: callee, Relation: "calls", Weight: 1, Direction: graph.Forward})
			}
		}
	}
	g.Finalize()
	var sp graph.Splice
	for i := range 64 {
		f := i * 31
		lo := graph.NodeID(f * per)
		nodes := make([]graph.Node, 0, per+1)
		for k := range per {
			nodes = append(nodes, g.Node(lo+graph.NodeID(k)))
		}
		added := fmt.Sprintf("f%d::new", f)
		nodes = append(nodes, graph.Node{ExternalID: added, Label: "x", Type: graph.Function})
		sp.Ranges = append(sp.Ranges, graph.NodeRange{Lo: lo, Hi: lo + per, Nodes: nodes})
		sp.AddEdges = append(sp.AddEdges, graph.SpliceEdge{Source: fmt.Sprintf("f%d::0", f), Target: added,
			Edge: graph.Edge{Relation: "contains", Weight: 1, Direction: graph.Forward}})
	}
	rounds := map[int]int{}
	for _, sweeps := range []int{0, 3} {
		restore := graph.SetLocalSweeps(sweeps)
		got, _, err := g.Spliced(sp)
		restore()
		if err != nil {
			t.Fatal(err)
		}
		rounds[sweeps] = graph.PageRankRounds(got)
		want := rebuildSpliced(g, sp)
		for i := range want.NumNodes() {
			id := graph.NodeID(i)
			if d := math.Abs(float64(want.PageRank(id) - got.PageRank(id))); d > 2e-3 {
				t.Fatalf("sweeps %d: PageRank of node %d: rebuild %v, spliced %v", sweeps, i, want.PageRank(id), got.PageRank(id))
			}
		}
	}
	t.Logf("rounds without settling %d, with %d", rounds[0], rounds[3])
	if rounds[3] >= rounds[0] {
		t.Fatalf("settling the touched nodes took %d rounds, without %d", rounds[3], rounds[0])
	}
}
