package graphtest

import "testing"

func TestPowerLawShape(t *testing.T) {
	g := PowerLaw(10000, 26000, 1)
	if g.NumNodes() != 10000 {
		t.Fatalf("nodes = %d", g.NumNodes())
	}
	d := g.Degrees()
	t.Logf("edges(csr)=%d avg=%.2f maxIn=%d maxOut=%d", d.Edges, d.AvgDegree, d.MaxIn, d.MaxOut)
	if d.MaxIn < 100 {
		t.Errorf("expected hubs with in-degree >= 100, max in-degree %d", d.MaxIn)
	}
	h := PowerLaw(10000, 26000, 1)
	if h.NumEdges() != g.NumEdges() || h.Label(4242) != g.Label(4242) {
		t.Error("generator is not deterministic")
	}
}
