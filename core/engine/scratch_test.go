package engine

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/m1nd-go/m1nd/core/graph/graphtest"
)

// TestActivateReusesItsScratch: a query's candidate lists and maps come
// from the pool, so a repeated learning query with XLR allocates at most
// 93 times (105 when merge, priming, XLR, the cut and learning each made
// their own, 94 when D3 still returned a fresh slice), and a query run on
// a scratch another query left behind answers as on a fresh one.
func TestActivateReusesItsScratch(t *testing.T) {
	g := graphtest.PowerLaw(3000, 7800, 21)
	// No learning in the comparison: the other query must not change
	// what the first one finds, only leave its scratch behind.
	q := Query{Text: "auth session handler", XLR: true, TopK: 20, GhostEdges: true, NoLearn: true}
	other := Query{Text: "cache eviction worker", XLR: true, TopK: 40, GhostEdges: true, StructuralHoles: true, NoLearn: true}
	fresh := activate(t, newEngine(t, g.Clone(), nil), q)
	e := newEngine(t, g, nil)
	activate(t, e, other)
	if got := activate(t, e, q); !cmp.Equal(got, fresh, cmpopts.IgnoreFields(Result{}, "Timings", "Elapsed")) {
		t.Fatalf("after another query: %s", cmp.Diff(fresh, got, cmpopts.IgnoreFields(Result{}, "Timings", "Elapsed")))
	}
	if raceEnabled {
		t.Skip("allocation bound: the race detector drops sync.Pool puts")
	}
	q.GhostEdges, q.NoLearn = false, false
	activate(t, e, q)
	if n := testing.AllocsPerRun(50, func() {
		if _, err := e.Activate(context.Background(), q); err != nil {
			t.Fatal(err)
		}
	}); n > 93 {
		t.Fatalf("activate: %.0f allocations a query, want at most 93", n)
	}
}
