package xlr

import (
	"reflect"
	"runtime"
	"testing"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/graph/graphtest"
)

// TestScratchKeptAcrossCollections: a call after collections takes the
// scratch the last call returned (a sync.Pool dropped it within two, and
// its per-node arrays came back new on every few activate calls; issue
// 29), and the reused scratch answers as a new one does.
func TestScratchKeptAcrossCollections(t *testing.T) {
	g := graphtest.PowerLaw(3000, 9000, 5)
	seeds := []graph.Scored{{Node: 10, Score: 1}, {Node: 200, Score: 0.8}}
	var cands []graph.Scored
	for i := range 300 {
		cands = append(cands, graph.Scored{Node: graph.NodeID(i * 7 % g.NumNodes()), Score: float32(300-i) / 300})
	}
	e := newEngine(t, DefaultParams())
	first, err := e.Apply(g, seeds, cands)
	if err != nil {
		t.Fatal(err)
	}
	sc, ok := e.pool.Get()
	if !ok {
		t.Fatal("Apply returned no scratch")
	}
	e.pool.Put(sc)
	runtime.GC()
	runtime.GC()
	again, ok := e.pool.Get()
	if !ok || again != sc {
		t.Fatal("the scratch was dropped by collections")
	}
	e.pool.Put(again)
	second, _ := e.Apply(g, seeds, cands)
	if !reflect.DeepEqual(first, second) {
		t.Fatal("an answer from a reused scratch differs from the first")
	}
}
