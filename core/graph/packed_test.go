package graph_test

import (
	"testing"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/graph/graphtest"
)

// TestImportersMatchTheCSR checks the packed reverse adjacency entry by
// entry against the reverse CSR it copies.
func TestImportersMatchTheCSR(t *testing.T) {
	g := graphtest.Mixed(3000, 12000, 7)
	im := graph.NewImporters(g)
	if !im.For(g) {
		t.Fatal("fresh Importers do not describe their graph")
	}
	inhib, bidi := 0, 0
	for v := graph.NodeID(0); int(v) < g.NumNodes(); v++ {
		lo, hi := g.InRange(v)
		flagged, carry := im.Flagged(v), im.Carriers(v)
		if len(flagged) != int(hi-lo) {
			t.Fatalf("node %d: %d flagged entries, want %d", v, len(flagged), hi-lo)
		}
		var want []graph.Importer
		for pos := lo; pos < hi; pos++ {
			e := g.InEdge(pos)
			f := flagged[pos-lo]
			if f.Source != g.InSource(pos) || f.Edge&^graph.InhibitoryBit != e || (f.Edge&graph.InhibitoryBit != 0) != g.Inhibitory(e) {
				t.Fatalf("node %d position %d: flagged %+v, edge %d from %d inhibitory %v", v, pos, f, e, g.InSource(pos), g.Inhibitory(e))
			}
			switch {
			case g.Inhibitory(e):
				inhib++
			case g.EdgeDirection(e) == graph.Bidirectional:
				bidi++
			default:
				want = append(want, graph.Importer{Source: g.InSource(pos), Edge: e})
			}
		}
		if len(carry) != len(want) {
			t.Fatalf("node %d: %d carriers, want %d", v, len(carry), len(want))
		}
		for i := range want {
			if carry[i] != want[i] {
				t.Fatalf("node %d carrier %d: %+v, want %+v", v, i, carry[i], want[i])
			}
		}
	}
	if inhib == 0 || bidi == 0 {
		t.Fatalf("the test graph lacks inhibitory (%d) or bidirectional (%d) incoming edges", inhib, bidi)
	}
}

// TestImportersGoStaleOnFinalize: a new generation is not described by
// the old packing.
func TestImportersGoStaleOnFinalize(t *testing.T) {
	g := graphtest.PowerLaw(200, 600, 1)
	im := graph.NewImporters(g)
	if err := g.AddEdge(graph.Edge{Source: 1, Target: 2, Relation: "calls", Weight: 1}); err != nil {
		t.Fatal(err)
	}
	if im.For(g) {
		t.Fatal("Importers describe a graph with staged edges")
	}
	g.Finalize()
	if im.For(g) || im.For(graphtest.PowerLaw(200, 600, 1)) {
		t.Fatal("Importers describe another generation or graph")
	}
	var none *graph.Importers
	if none.For(g) {
		t.Fatal("nil Importers describe a graph")
	}
}

// TestSelectTopUnorderedSameSet: the same k entries as SelectTop, ties by
// NodeID included.
func TestSelectTopUnorderedSameSet(t *testing.T) {
	var s []graph.Scored
	for i := 0; i < 500; i++ {
		s = append(s, graph.Scored{Node: graph.NodeID((i * 7919) % 500), Score: float32(i%17) / 17})
	}
	for _, k := range []int{0, 1, 16, 17, 250, 499, 500, 600} {
		a := graph.SelectTop(append([]graph.Scored(nil), s...), k)
		b := graph.SelectTopUnordered(append([]graph.Scored(nil), s...), k)
		graph.SortScored(b)
		if len(a) != len(b) {
			t.Fatalf("k %d: %d entries, want %d", k, len(b), len(a))
		}
		for i := range a {
			if a[i] != b[i] {
				t.Fatalf("k %d entry %d: %+v, want %+v", k, i, b[i], a[i])
			}
		}
	}
}
