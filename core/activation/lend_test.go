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
