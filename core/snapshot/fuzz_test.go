package snapshot

import (
	"bytes"
	"testing"

	"github.com/m1nd-go/m1nd/core/graph/graphtest"
	"github.com/m1nd-go/m1nd/core/plasticity"
)

// The loaders parse files from disk that anything may have written: any
// input must give a graph or an error, never a panic.

func FuzzReadJSON(f *testing.F) {
	var buf bytes.Buffer
	WriteJSON(&buf, graphtest.PowerLaw(12, 20, 1))
	f.Add(buf.Bytes())
	f.Add([]byte(`{"version":3,"nodes":[{"external_id":"a","node_type":{"Custom":2}}],"edges":[{"source":"a","target":0,"relation":"r","weight":1,"direction":"forward"}]}`))
	f.Add([]byte(`{"version":3}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		g, err := ReadJSON(bytes.NewReader(data))
		if err == nil && !g.Finalized() {
			t.Fatal("loaded graph is not finalized")
		}
	})
}

func FuzzDecodeBinary(f *testing.F) {
	data, _ := EncodeBinary(graphtest.PowerLaw(12, 20, 1))
	f.Add(data)
	f.Add(data[:len(data)/2])
	f.Add([]byte("M1NDGRPH"))
	f.Fuzz(func(t *testing.T, data []byte) {
		g, err := DecodeBinary(data)
		if err == nil && !g.Finalized() {
			t.Fatal("loaded graph is not finalized")
		}
	})
}

// FuzzDecodeBinaryBody fuzzes the section parser behind a valid checksum,
// which random bytes would otherwise never get past.
func FuzzDecodeBinaryBody(f *testing.F) {
	data, _ := EncodeBinary(graphtest.PowerLaw(12, 20, 1))
	f.Add(data[16 : len(data)-20])
	f.Fuzz(func(t *testing.T, body []byte) {
		_, _ = DecodeBinary(wrapBody(body))
	})
}

func FuzzReadPlasticity(f *testing.F) {
	f.Add([]byte(`{"version":1,"edges":[{"source_label":"a","target_label":"b","relation":"calls","original_weight":1,"current_weight":2}]}`))
	f.Add([]byte(`[{"source_label":"x","target_label":"y","relation":"r","current_weight":1e39}]`))
	g := graphtest.PowerLaw(30, 60, 1)
	f.Fuzz(func(t *testing.T, data []byte) {
		states, err := ReadPlasticity(bytes.NewReader(data))
		if err != nil {
			return
		}
		c := g.Clone()
		eng, _ := plasticity.New(plasticity.DefaultParams())
		eng.ImportState(c, states)
		for e := 0; e < c.NumEdges(); e++ {
			if w := c.Weight(graphEdge(e)); w != w {
				t.Fatal("NaN weight after import")
			}
		}
	})
}
