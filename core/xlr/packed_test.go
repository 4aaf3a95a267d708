package xlr

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/graph/graphtest"
)

// TestPrepareWithPackedLayout: the pulses read through the packed reverse
// adjacency reach the same nodes with the same amplitudes as through the
// CSR, so the gate is the same.
func TestPrepareWithPackedLayout(t *testing.T) {
	g := graphtest.Mixed(4000, 16000, 5)
	e, err := New(DefaultParams())
	if err != nil {
		t.Fatal(err)
	}
	imp := graph.NewImporters(g)
	seeds := []graph.Scored{{Node: 3, Score: 1}, {Node: 77, Score: 0.7}, {Node: 2500, Score: 0.9}}
	var cands []graph.Scored
	for v := graph.NodeID(0); int(v) < g.NumNodes(); v += 7 {
		cands = append(cands, graph.Scored{Node: v, Score: float32(v%13) / 13})
	}
	want, err := e.Prepare(g, seeds).Gate(cands)
	if err != nil {
		t.Fatal(err)
	}
	got, err := e.PrepareWith(g, imp, seeds).Gate(cands)
	if err != nil {
		t.Fatal(err)
	}
	if want.Stats.HotPulses == 0 || want.Stats.ColdPulses == 0 {
		t.Fatalf("test graph too quiet: %+v", want.Stats)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("packed differs from the CSR (-csr +packed):\n%s", diff)
	}
}
