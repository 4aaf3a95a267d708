package activation

import (
	"testing"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/graph/graphtest"
)

// TestLentResultSameNodes: a lent result is exactly the new one, in the
// same order, for every engine; it survives a Merge on the same workspace
// (the query engine merges on D4's workspace), and the next run, unless
// lent again, returns a new slice.
func TestLentResultSameNodes(t *testing.T) {
	g := graphtest.Mixed(4000, 16000, 7)
	pool := NewPoolFor(g)
	seeds := []graph.Scored{{Node: 17, Score: 0.8}, {Node: 900, Score: 0.6}, {Node: 3001, Score: 1}}
	runs := map[string]func(w *Workspace) ([]graph.Scored, error){
		"wavefront": func(w *Workspace) ([]graph.Scored, error) { return Wavefront(g, seeds, DefaultParams(), w) },
		"heap":      func(w *Workspace) ([]graph.Scored, error) { return Heap(g, seeds, DefaultParams(), w) },
		"causal":    func(w *Workspace) ([]graph.Scored, error) { return Causal(g, seeds, DefaultCausalParams(), w) },
	}
	for name, run := range runs {
		w := pool.Get()
		want, err := run(w)
		if err != nil {
			t.Fatal(err)
		}
		w.Lend()
		got, err := run(w)
		if err != nil {
			t.Fatal(err)
		}
		kept := append([]graph.Scored(nil), got...)
		if _, err := Merge(g, [graph.NumDimensions][]graph.Scored{got}, [graph.NumDimensions]bool{true}, 10, DefaultMergeParams(), w); err != nil {
			t.Fatal(err)
		}
		if diff := gocmp.Diff(kept, got); diff != "" {
			t.Errorf("%s: Merge on the workspace changed the lent result:\n%s", name, diff)
		}
		if len(want) < 10 || !gocmp.Equal(want, got) {
			t.Errorf("%s: lent result (%d nodes) differs from the new one (%d nodes)", name, len(got), len(want))
		}
		again, err := run(w)
		if err != nil {
			t.Fatal(err)
		}
		if &again[0] == &w.out[0] || !gocmp.Equal(want, again) {
			t.Errorf("%s: a run after a lent one was lent too", name)
		}
		pool.Put(w)
	}
}

// MergeKeepingLent answers as MergeKeeping, keep included, in the
// workspace's buffer: after the first run it allocates no answer.
func TestMergeKeepingLent(t *testing.T) {
	g := graphtest.Mixed(4000, 16000, 7)
	pool := NewPoolFor(g)
	w := pool.Get()
	defer pool.Put(w)
	seeds := []graph.Scored{{Node: 17, Score: 0.8}, {Node: 900, Score: 0.6}, {Node: 3001, Score: 1}}
	d1, err := Wavefront(g, seeds, DefaultParams(), nil)
	if err != nil {
		t.Fatal(err)
	}
	d4, err := Causal(g, seeds, DefaultCausalParams(), nil)
	if err != nil {
		t.Fatal(err)
	}
	dims := [graph.NumDimensions][]graph.Scored{graph.Structural: d1, graph.Causal: d4}
	req := [graph.NumDimensions]bool{graph.Structural: true, graph.Causal: true}
	keep := []graph.NodeID{d1[len(d1)-1].Node, 3999}
	for _, topK := range []int{1, 10, 50} {
		want, err := MergeKeeping(g, dims, req, topK, keep, DefaultMergeParams(), nil)
		if err != nil {
			t.Fatal(err)
		}
		got, err := MergeKeepingLent(g, dims, req, topK, keep, DefaultMergeParams(), w)
		if err != nil {
			t.Fatal(err)
		}
		if len(want) == 0 || !gocmp.Equal(want, got) {
			t.Errorf("topK %d: lent %v, want %v", topK, got, want)
		}
	}
	lent := testing.AllocsPerRun(20, func() { MergeKeepingLent(g, dims, req, 50, nil, DefaultMergeParams(), w) })
	fresh := testing.AllocsPerRun(20, func() { MergeKeeping(g, dims, req, 50, nil, DefaultMergeParams(), w) })
	if lent >= fresh {
		t.Errorf("MergeKeepingLent allocates %.0f times a run, MergeKeeping %.0f: want fewer", lent, fresh)
	}
}
