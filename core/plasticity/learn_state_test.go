package plasticity

import (
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"
	"time"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/internal/golden"
)

var updateGolden = flag.Bool("update", false, "rewrite testdata goldens")

// learnedState is everything a run of Update calls leaves or reports:
// each call's stats, the edges' weights and learning marks, and query
// memory.
type learnedState struct {
	Stats   []UpdateStats   `json:"stats"`
	Weights []float32       `json:"weights"`
	Edges   []SynapticState `json:"edges"`
	Memory  []QueryRecord   `json:"memory"`
}

// TestLearningStateGolden: 120 Update calls over overlapping seeds on a
// 90-node graph leave exactly the recorded state, byte for byte: every
// call's stats (priming counts at and below a small PrimingLimit
// included), every weight, every edge's learning marks and query memory.
// A speed change to learning must learn exactly as before.
func TestLearningStateGolden(t *testing.T) {
	rng := rand.New(rand.NewPCG(29, 16))
	names := make([]string, 90)
	for i := range names {
		names[i] = fmt.Sprintf("f%02d", i)
	}
	var edges []edgeSpec
	for len(edges) < 200 {
		a, b := rng.IntN(90), rng.IntN(90)
		if a != b {
			edges = append(edges, edgeSpec{src: names[a], dst: names[b], rel: fmt.Sprintf("r%d", len(edges)), w: 0.2 + float32(rng.IntN(8))/10})
		}
	}
	g := build(t, names, edges)
	p := DefaultParams()
	p.PrimingLimit = 30 // some calls prime more nodes than this, some fewer
	e, err := New(p)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 11, 30, 22, 0, 0, 0, time.UTC)
	var got learnedState
	for call := 0; call < 120; call++ {
		var seeds []graph.NodeID
		for range 1 + rng.IntN(4) {
			seeds = append(seeds, graph.NodeID(rng.IntN(12))) // few seeds: records share them
		}
		var act []graph.Scored
		for range 10 + rng.IntN(30) {
			act = append(act, graph.Scored{Node: graph.NodeID(rng.IntN(90)), Score: float32(1+rng.IntN(100)) / 100})
		}
		graph.SortScored(act)
		st, err := e.Update(g, Query{Text: fmt.Sprintf("q%d", call%17), Seeds: seeds, Activated: act, Time: now.Add(time.Duration(call) * time.Minute)})
		if err != nil {
			t.Fatal(err)
		}
		got.Stats = append(got.Stats, st)
	}
	for i := range g.NumEdges() {
		got.Weights = append(got.Weights, g.Weight(graph.EdgeIdx(i)))
	}
	got.Edges, got.Memory = e.ExportState(g), e.ExportQueryMemory()
	data, err := json.MarshalIndent(got, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	golden.Check(t, filepath.Join("testdata", "learning_state.golden.json"), data, *updateGolden, "learning state")
}
