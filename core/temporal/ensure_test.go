package temporal

import (
	"slices"
	"testing"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/graph/graphtest"
)

// TestEnsureScratchEqualsFresh: a structural row built with the lists
// earlier rows left behind equals the row a fresh index builds for that
// node alone.
func TestEnsureScratchEqualsFresh(t *testing.T) {
	g := graphtest.PowerLaw(1500, 4000, 6)
	shared := index(t, g, nil).co
	for a := range graph.NodeID(1500) {
		shared.ensureAll(a)
	}
	for a := graph.NodeID(0); a < 1500; a += 37 {
		fresh := index(t, g, nil).co
		fresh.ensureAll(a)
		if !slices.Equal(shared.rows[a], fresh.rows[a]) {
			t.Fatalf("row %d:\nshared %v\n fresh %v", a, shared.rows[a], fresh.rows[a])
		}
	}
}

// TestEnsureAllocatesOnlyTheRow: once its lists are warm, building a
// structural row allocates the row it keeps and nothing else.
func TestEnsureAllocatesOnlyTheRow(t *testing.T) {
	g := graphtest.PowerLaw(1500, 4000, 6)
	c := index(t, g, nil).co
	c.ensureAll(0)
	next := graph.NodeID(1)
	if n := testing.AllocsPerRun(100, func() { c.ensureAll(next); next++ }); n > 1 {
		t.Errorf("%v allocations a row, want 1 (the row)", n)
	}
	if len(c.rows[1]) == 0 {
		t.Fatal("the test needs rows")
	}
}
