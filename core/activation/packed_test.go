package activation

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/graph/graphtest"
)

// TestPackedLayoutSameAnswers: D1 reading the pool's packed reverse
// adjacency gives exactly what it gives reading the CSR, for both engines,
// and falls back to the CSR once the graph's generation moves on.
func TestPackedLayoutSameAnswers(t *testing.T) {
	g := graphtest.Mixed(4000, 16000, 11)
	packed := NewPoolFor(g)
	plain := NewPool(g.NumNodes())
	p := DefaultParams()
	for _, seeds := range [][]graph.Scored{
		{{Node: 5, Score: 1}},
		{{Node: 17, Score: 0.8}, {Node: 900, Score: 0.6}, {Node: 3001, Score: 1}},
	} {
		for name, run := range map[string]func(*graph.Graph, []graph.Scored, Params, *Workspace) ([]graph.Scored, error){
			"wavefront": Wavefront, "heap": Heap,
		} {
			wp, wc := packed.Get(), plain.Get()
			got, err := run(g, seeds, p, wp)
			if err != nil {
				t.Fatal(err)
			}
			if wp.imp == nil {
				t.Fatalf("%s: the packed workspace did not use its layout", name)
			}
			want, err := run(g, seeds, p, wc)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%s seeds %v: packed differs from the CSR (-csr +packed):\n%s", name, seeds, diff)
			}
			packed.Put(wp)
			plain.Put(wc)
		}
	}
	if err := g.AddEdge(graph.Edge{Source: 5, Target: 6, Relation: "calls", Weight: 1}); err != nil {
		t.Fatal(err)
	}
	g.Finalize()
	w := packed.Get()
	defer packed.Put(w)
	if _, err := Wavefront(g, []graph.Scored{{Node: 5, Score: 1}}, p, w); err != nil {
		t.Fatal(err)
	}
	if w.imp != nil {
		t.Fatal("a stale layout was used after Finalize")
	}
}

// TestUnorderedTrimSameAnswers: without inhibitory edges the packed
// workspace trims the frontier to MaxFired without sorting it, and the
// answer is still exactly the CSR path's.
func TestUnorderedTrimSameAnswers(t *testing.T) {
	g := graphtest.PowerLaw(5000, 20000, 13)
	packed, plain := NewPoolFor(g), NewPool(g.NumNodes())
	if packed.Importers().HasInhibitory() {
		t.Fatal("PowerLaw has inhibitory edges")
	}
	for _, fired := range []int{1, 7, 60, 400} {
		p := DefaultParams()
		p.MaxFired = fired
		seeds := []graph.Scored{{Node: 3, Score: 1}, {Node: 40, Score: 0.9}, {Node: 4321, Score: 0.5}}
		wp, wc := packed.Get(), plain.Get()
		got, err := Wavefront(g, seeds, p, wp)
		if err != nil {
			t.Fatal(err)
		}
		want, err := Wavefront(g, seeds, p, wc)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("MaxFired %d: unordered trim differs (-sorted +unordered):\n%s", fired, diff)
		}
		packed.Put(wp)
		plain.Put(wc)
	}
}

// TestPlainOnlyWithoutInhibition: a packed workspace skips reading edge
// polarity (and fires a depth in node order) only while its graph has no
// inhibitory edge, and answers as the CSR path does either way — also
// once an inhibitory edge is added to a graph that had none.
func TestPlainOnlyWithoutInhibition(t *testing.T) {
	p := DefaultParams()
	seeds := []graph.Scored{{Node: 4321, Score: 0.5}, {Node: 3, Score: 1}, {Node: 40, Score: 0.9}}
	check := func(name string, g *graph.Graph, pool *Pool, wantPlain bool) {
		t.Helper()
		wp, wc := pool.Get(), NewPool(g.NumNodes()).Get()
		defer pool.Put(wp)
		got, err := Wavefront(g, seeds, p, wp)
		if err != nil {
			t.Fatal(err)
		}
		if wp.plain != wantPlain {
			t.Fatalf("%s: plain %v, want %v", name, wp.plain, wantPlain)
		}
		want, err := Wavefront(g, seeds, p, wc)
		if err != nil {
			t.Fatal(err)
		}
		if len(want) < 100 {
			t.Fatalf("%s: test graph too quiet (%d nodes reached)", name, len(want))
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: packed differs from the CSR (-csr +packed):\n%s", name, diff)
		}
	}
	g := graphtest.PowerLaw(5000, 20000, 13)
	pool := NewPoolFor(g)
	check("no inhibitory edge", g, pool, true)
	m := graphtest.Mixed(5000, 20000, 13)
	mp := NewPoolFor(m)
	check("inhibitory edges", m, mp, false)
	if w := mp.Get(); w.layout == nil || !w.layout.HasInhibitory() {
		t.Fatal("Mixed's pool has no layout with inhibitory edges")
	} else {
		mp.Put(w)
	}

	if err := g.AddEdge(graph.Edge{Source: 3, Target: 41, Relation: "deprecates", Weight: 1, Inhibitory: true}); err != nil {
		t.Fatal(err)
	}
	g.Finalize()
	check("stale layout", g, pool, false)
	check("one inhibitory edge added", g, NewPoolFor(g), false)
}
