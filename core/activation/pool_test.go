package activation

import (
	"runtime"
	"testing"

	"github.com/m1nd-go/m1nd/core/graph/graphtest"
	"github.com/m1nd-go/m1nd/core/internal/freelist"
)

// TestPoolKeepsAcrossCollections: a returned workspace is handed out
// again after collections (a sync.Pool alone drops it within two, and a
// server with a large graph collects every few queries: issue 29), up to
// the pool's keep; a workspace of another size is never kept.
func TestPoolKeepsAcrossCollections(t *testing.T) {
	g := graphtest.Mixed(500, 2000, 3)
	p := NewPoolFor(g)
	keep := freelist.DefaultKeep()
	if keep < 2 {
		t.Fatalf("pool keeps %d workspaces; an engine run holds two at once", keep)
	}
	ws := make([]*Workspace, keep+1)
	for i := range ws {
		ws[i] = p.Get()
	}
	for _, w := range ws {
		p.Put(w)
	}
	p.Put(NewWorkspace(g.NumNodes() + 1))
	runtime.GC()
	runtime.GC()
	if p.free.Len() != keep {
		t.Fatalf("pool keeps %d workspaces, want %d", p.free.Len(), keep)
	}
	kept := map[*Workspace]bool{}
	for range keep {
		w := p.Get()
		if w.n != g.NumNodes() {
			t.Fatalf("got a workspace for %d nodes, want %d", w.n, g.NumNodes())
		}
		kept[w] = true
	}
	for _, w := range ws[:keep] {
		if !kept[w] {
			t.Fatalf("a workspace put back before two collections was not handed out again")
		}
	}
}
