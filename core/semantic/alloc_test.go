package semantic

import (
	"testing"

	"github.com/m1nd-go/m1nd/core/graph/graphtest"
)

// The co-occurrence phase of a query allocates nothing of its own: its
// anchors, each anchor's row, the summed vector's entries and the scored
// candidates live in the pooled scratch (issue 29: a new set per
// activate, 10 allocations and more). So a query with co-occurrence on
// allocates what one with it off does.
func TestCoOccurrencePhaseAllocatesNothing(t *testing.T) {
	g := graphtest.PowerLaw(3000, 12000, 7)
	on := newIndex(t, g, nil)
	off := newIndex(t, g, func(o *Options) { o.CoOccurrenceWeight = 0 })
	if !on.Cooc.Enabled() {
		t.Fatal("fixture: co-occurrence is off")
	}
	q := g.Label(5) + " " + g.Label(77)
	if len(on.Query(q, 20)) == 0 || len(off.Query(q, 20)) == 0 {
		t.Fatalf("fixture: %q matches nothing", q)
	}
	aOn := testing.AllocsPerRun(20, func() { on.Query(q, 20) })
	aOff := testing.AllocsPerRun(20, func() { off.Query(q, 20) })
	if aOn > aOff {
		t.Errorf("a query allocates %v times with co-occurrence, %v without: the phase allocates", aOn, aOff)
	}
}
