package snapshot

import (
	"bytes"
	"math"
	"runtime"
	"testing"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/graph/graphtest"
)

// A cut keeps the full state only of the edges that learned something,
// and writes every other edge as the untouched edge it was: the file is
// byte for byte the copying encoder's, whichever kind of state an edge
// has (first and last edge, a weight of -0 against an original of +0, an
// original moved without its weight, counts or flags alone).
func TestSparseCutWritesEveryKindOfLearnedState(t *testing.T) {
	g := graphtest.PowerLaw(500, 1500, 7)
	m := g.NumEdges()
	p := g.EdgePlasticity()
	g.AtomicWriteWeight(0, 1.75)
	p.Strengthen[0], p.LTP[0] = 2, true
	p.Original[3] = 0 // then a weight of -0: bits differ, the value does not
	g.AtomicWriteWeight(3, float32(math.Copysign(0, -1)))
	p.Original[7] = 0.5
	p.Weaken[20] = 9
	p.LTD[21] = true
	g.AtomicWriteWeight(graph.EdgeIdx(m-1), 0.01)
	want, err := encodeViaRaw(g, []byte("m"))
	if err != nil {
		t.Fatal(err)
	}
	c, err := TakeCut(g, []byte("m"))
	if err != nil {
		t.Fatal(err)
	}
	if got := len(c.learned.edges); got != 6 {
		t.Errorf("cut kept the state of edges %v, want the 6 that learned", c.learned.edges)
	}
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(buf.Bytes(), want) {
		t.Fatalf("sparse cut differs from the copying encoder at byte %d", firstDiff(buf.Bytes(), want))
	}
}

// A cut of a graph that learned on a few edges holds about one float an
// edge (the original weights), not the whole per-edge state (14 bytes an
// edge): that copy is held through the save's write, at the server's
// peak.
func TestCutHoldsLittleMoreThanTheOriginals(t *testing.T) {
	g := graphtest.PowerLaw(20000, 100000, 3)
	m := g.NumEdges()
	for e := 0; e < m; e += 1000 {
		g.AtomicWriteWeight(graph.EdgeIdx(e), 0.3)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	c, err := TakeCut(g, nil)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	held := after.TotalAlloc - before.TotalAlloc
	if limit := uint64(4*m + 64<<10); held > limit {
		t.Errorf("a cut of %d edges (%d learned) allocated %d bytes, want at most %d", m, len(c.learned.edges), held, limit)
	}
}
