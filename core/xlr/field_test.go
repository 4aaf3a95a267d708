package xlr

import (
	"reflect"
	"testing"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/graph/graphtest"
)

// TestPrepareThenGateIsApply: the split the query engine uses (seed-side
// work beside the dimensions, the gate after merge) answers exactly as
// Apply, including the empty and invalid cases.
func TestPrepareThenGateIsApply(t *testing.T) {
	g := graphtest.PowerLaw(3000, 9000, 5)
	var cands []graph.Scored
	for i := 0; i < 200; i++ {
		cands = append(cands, graph.Scored{Node: graph.NodeID(i * 13 % g.NumNodes()), Score: float32(200-i) / 200})
	}
	seeds := []graph.Scored{{Node: 10, Score: 1}, {Node: 200, Score: 0.8}, {Node: 10, Score: 0.5}}
	e := newEngine(t, DefaultParams())
	for _, c := range []struct {
		name         string
		seeds, cands []graph.Scored
		wantErr      bool
	}{
		{"query", seeds, cands, false},
		{"no seeds", nil, cands, false},
		{"no candidates", seeds, nil, false},
		{"seed out of range", []graph.Scored{{Node: 1 << 30, Score: 1}}, cands, true},
		{"candidate out of range", seeds, []graph.Scored{{Node: 1 << 30, Score: 1}}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			want, wantErr := e.Apply(g, c.seeds, c.cands)
			got, err := e.Prepare(g, c.seeds).Gate(c.cands)
			if (err != nil) != c.wantErr || (wantErr != nil) != c.wantErr {
				t.Fatalf("errors: split %v, Apply %v (want error: %v)", err, wantErr, c.wantErr)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("Prepare+Gate differs from Apply:\n got %+v\nwant %+v", got.Stats, want.Stats)
			}
		})
	}
}

// TestFieldReleased: a field gives its scratch back once; gating it
// afterwards is an error, not a read of another query's buffers.
func TestFieldReleased(t *testing.T) {
	g := graphtest.PowerLaw(500, 1500, 3)
	e := newEngine(t, DefaultParams())
	f := e.Prepare(g, []graph.Scored{{Node: 1, Score: 1}})
	f.Release()
	f.Release()
	if _, err := f.Gate([]graph.Scored{{Node: 2, Score: 0.5}}); err == nil {
		t.Error("a released field gated candidates")
	}
}
