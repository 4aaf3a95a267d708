package query

import (
	"encoding/json"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/mcpserver/internal/race"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

// TestDimensionScoresEncodeAsTheMap: a node's dimensions encode byte for
// byte as the map of dimension names they replaced (keys in name order,
// the same rounding), and encoding a node makes no map: only its bytes
// and the encoder's own few.
func TestDimensionScoresEncodeAsTheMap(t *testing.T) {
	rng := rand.New(rand.NewPCG(29, 7))
	values := []float32{0, 1, 0.0004, 0.0005, 0.9995, 1e-7, 0.123456}
	for round := range 200 {
		var d [graph.NumDimensions]float32
		for i := range d {
			if round < len(values) {
				d[i] = values[(round+i)%len(values)]
			} else {
				d[i] = rng.Float32()
			}
		}
		asMap := map[string]float64{}
		for i, name := range tools.DimensionNames {
			asMap[name] = tools.R3(d[i])
		}
		want, _ := json.Marshal(asMap)
		got, err := json.Marshal(dimensionsOf(d))
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(string(want), string(got)); d != "" {
			t.Fatalf("round %d (-map +struct):\n%s", round, d)
		}
	}
	if race.Enabled {
		return // the allocation bound below does not hold under the race detector
	}
	node := activatedJSON{NodeID: "file::a.go::F", Label: "F", Type: "function", Dimensions: dimensionsOf([graph.NumDimensions]float32{0.5, 0.25, 0.125, 1}), Tags: []string{}}
	if n := testing.AllocsPerRun(100, func() { json.Marshal(node) }); n > 2 {
		t.Errorf("encoding a node: %v allocations, want at most 2 (its bytes)", n)
	}
}
