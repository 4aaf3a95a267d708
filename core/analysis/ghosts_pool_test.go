package analysis

import (
	"fmt"
	"runtime"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/m1nd-go/m1nd/core/graph"
)

// ghostInput is 40 nodes firing in overlapping dimensions, no edges: 780
// candidate pairs, most of them ghost edges.
func ghostInput(t *testing.T) (*graph.Graph, []graph.Scored, map[graph.NodeID][graph.NumDimensions]float32) {
	names := make([]string, 40)
	for i := range names {
		names[i] = fmt.Sprintf("f%02d.py", i)
	}
	g := build(t, names, nil)
	var act []graph.Scored
	dims := map[graph.NodeID][graph.NumDimensions]float32{}
	for i, name := range names {
		id := n(t, g, name)
		v := 0.3 + float32(i%7)/10
		act = append(act, graph.Scored{Node: id, Score: v})
		dims[id] = [graph.NumDimensions]float32{v, 0.2 + float32(i%5)/10, float32(i%3) / 4, 0.5}
	}
	return g, act, dims
}

// TestGhostScratchKeptAcrossCollections: GhostEdges' pair buffer is kept
// for the next call across collections (it was regrown every call; issue
// 29), and calls that reuse it answer as the first did.
func TestGhostScratchKeptAcrossCollections(t *testing.T) {
	g, act, dims := ghostInput(t)
	first, err := GhostEdges(g, act, dims, DefaultGhostParams())
	if err != nil || len(first) == 0 {
		t.Fatalf("GhostEdges: %d edges, %v", len(first), err)
	}
	runtime.GC()
	runtime.GC()
	gs := ghostScratches.get()
	if cap(gs.pairs) == 0 {
		t.Fatal("the pair buffer was not kept")
	}
	ghostScratches.put(gs)
	again, err := GhostEdges(g, act, dims, DefaultGhostParams())
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(first, again); diff != "" {
		t.Fatalf("ghost edges from a reused buffer (-first +again):\n%s", diff)
	}
}

// TestGhostEdgesConcurrent: calls at once never share a buffer (run
// with -race), so each answers as a call alone does.
func TestGhostEdgesConcurrent(t *testing.T) {
	g, act, dims := ghostInput(t)
	want, err := GhostEdges(g, act, dims, DefaultGhostParams())
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make([]string, 8)
	for w := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 20 {
				got, err := GhostEdges(g, act, dims, DefaultGhostParams())
				if d := cmp.Diff(want, got); err != nil || d != "" {
					errs[w] = fmt.Sprint(err, d)
					return
				}
			}
		}()
	}
	wg.Wait()
	for _, e := range errs {
		if e != "" {
			t.Fatal(e)
		}
	}
}
