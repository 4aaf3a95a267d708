package patterns

import (
	"fmt"
	"testing"

	"github.com/m1nd-go/m1nd/core/graph"
)

func TestCosine(t *testing.T) {
	for _, tc := range []struct {
		a, b []float32
		want float64
	}{
		{[]float32{1, 0}, []float32{2, 0}, 1},
		{[]float32{1, 0}, []float32{0, 1}, 0},
		{[]float32{1, 1}, []float32{-1, -1}, -1},
		{[]float32{0, 0}, []float32{1, 1}, 0},
	} {
		if got := round3(Cosine(tc.a, tc.b)); got != tc.want {
			t.Errorf("Cosine(%v, %v) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}

// Four probes over five nodes: 0 and 1 answer them in the same pattern
// (strong on probes 0 and 2), 2 in the opposite one, 3 only to probe 3,
// and 4 a little to everything — the baseline standardising removes.
func fingerprints() *Fingerprints {
	f := NewFingerprints(4)
	rows := map[graph.NodeID][]float32{
		0: {0.9, 0.1, 0.8, 0.1},
		1: {0.8, 0.1, 0.9, 0.1},
		2: {0.1, 0.9, 0.1, 0.8},
		3: {0, 0, 0, 0.9},
		4: {0.3, 0.3, 0.3, 0.3},
	}
	for n, v := range rows {
		for i, x := range v {
			if x > 0 {
				f.Add(i, n, x)
			}
		}
	}
	return f
}

func TestEquivalents(t *testing.T) {
	f := fingerprints()
	if f.Len() != 5 || fmt.Sprint(f.Of(3)) != "[0 0 0 0.9]" || fmt.Sprint(f.Of(9)) != "[0 0 0 0]" {
		t.Fatalf("fingerprints: %d nodes, Of(3) %v", f.Len(), f.Of(3))
	}
	show := func(e []Equivalent) string {
		s := ""
		for _, x := range e {
			s += fmt.Sprintf("%d-%d ", x.Other, x.Node)
		}
		return s
	}
	for _, tc := range []struct {
		name string
		got  func() ([]Equivalent, int)
		want string
	}{
		{"of 0", func() ([]Equivalent, int) { return f.Equivalents(0, EquivalentParams{Threshold: 0.8}) }, "0-1 "},
		{"of 0, 1 left out", func() ([]Equivalent, int) {
			return f.Equivalents(0, EquivalentParams{Threshold: 0.8, Keep: func(n graph.NodeID) bool { return n != 1 }})
		}, ""},
		{"of 3: one shared probe is not enough", func() ([]Equivalent, int) { return f.Equivalents(3, EquivalentParams{Threshold: 0.5}) }, ""},
		{"global", func() ([]Equivalent, int) { return f.Pairs(EquivalentParams{Threshold: 0.8}, nil) }, "0-1 "},
		{"global, pairs refused", func() ([]Equivalent, int) {
			return f.Pairs(EquivalentParams{Threshold: 0.8}, func(a, b graph.NodeID) bool { return false })
		}, ""},
	} {
		e, total := tc.got()
		if show(e) != tc.want || total != len(e) {
			t.Errorf("%s: %q (total %d), want %q", tc.name, show(e), total, tc.want)
		}
	}
}
