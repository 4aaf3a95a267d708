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
