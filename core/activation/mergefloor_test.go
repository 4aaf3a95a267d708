package activation

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/graph/graphtest"
)

// TestMergeFloorSameTop: merge skips the rows whose best possible score
// (PageRank 1) is below what topK rows reach without PageRank, and still
// returns exactly the top that scoring every row gives, ties included, on
// thousands of rows with few distinct values.
func TestMergeFloorSameTop(t *testing.T) {
	g := graphtest.Mixed(3000, 9000, 3) // finalized: PageRank computed
	rng := rand.New(rand.NewPCG(1, 2))
	req := [graph.NumDimensions]bool{true, true, true, true}
	p := DefaultMergeParams()
	for trial := 0; trial < 20; trial++ {
		var dims [graph.NumDimensions][]graph.Scored
		for d := range dims {
			for n := 0; n < 3000; n++ {
				if rng.IntN(3) == 0 {
					dims[d] = append(dims[d], graph.Scored{Node: graph.NodeID(n), Score: float32(rng.IntN(8)) / 8})
				}
			}
		}
		k := 5 + rng.IntN(60)
		got, err := Merge(g, dims, req, k, p, NewWorkspace(g.NumNodes()))
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(mergeEveryRow(g, dims, k, &p), got); diff != "" {
			t.Fatalf("trial %d, top %d: merge with the floor differs from scoring every row (-all +floor):\n%s", trial, k, diff)
		}
	}
	w := NewWorkspace(g.NumNodes())
	rows := [][graph.NumDimensions]float32{{1, 1, 1, 1}, {0.5, 0, 0, 0}, {0.1, 0, 0, 0}}
	weights := EffectiveWeights(&[graph.NumDimensions][]graph.Scored{{{}}, {{}}, {{}}, {{}}}, req, p)
	f, bon := w.floor(rows, &weights, 1, &p)
	if c := ceilingOf(bonused(&rows[2], &weights, &p), &p); !(f > c) {
		t.Errorf("floor %v does not prune a row whose ceiling is %v", f, c)
	}
	for i := range rows {
		if want := bonused(&rows[i], &weights, &p); bon[i] != want {
			t.Errorf("row %d: floor's bonused sum %v, want %v", i, bon[i], want)
		}
	}
}

// mergeEveryRow is Merge as it was before the floor: every row scored.
func mergeEveryRow(g *graph.Graph, dims [graph.NumDimensions][]graph.Scored, k int, p *MergeParams) []Activated {
	weights := EffectiveWeights(&dims, [graph.NumDimensions]bool{true, true, true, true}, *p)
	rows := map[graph.NodeID]*[graph.NumDimensions]float32{}
	for d := range dims {
		for _, s := range dims[d] {
			if rows[s.Node] == nil {
				rows[s.Node] = &[graph.NumDimensions]float32{}
			}
			rows[s.Node][d] = max(rows[s.Node][d], s.Score)
		}
	}
	var cand []graph.Scored
	for n, r := range rows {
		cand = append(cand, graph.Scored{Node: n, Score: score(g, n, r, &weights, p)})
	}
	var out []Activated
	for _, t := range graph.SelectTop(cand, k) {
		r := rows[t.Node]
		out = append(out, Activated{Node: t.Node, Score: t.Score, Dims: *r, DimCount: dimCount(r, p.ContributionThreshold)})
	}
	return out
}

// TestMergeFloorIsTheKthQuotient: the floor is exactly the topK-th best
// of the rows' sums divided by Max, less the slack, bit for bit (it
// divides once, after the scan), for every topK below the row count.
func TestMergeFloorIsTheKthQuotient(t *testing.T) {
	rng := rand.New(rand.NewPCG(29, 3))
	p := DefaultMergeParams()
	weights := EffectiveWeights(&[graph.NumDimensions][]graph.Scored{{{}}, {{}}, {{}}, {{}}}, [graph.NumDimensions]bool{true, true, true, true}, p)
	w := NewWorkspace(10)
	for _, levels := range []int{2, 7, 1 << 20} {
		rows := make([][graph.NumDimensions]float32, 300)
		for i := range rows {
			for d := range rows[i] {
				rows[i][d] = float32(rng.IntN(levels)) / float32(levels)
			}
		}
		for k := 1; k < len(rows); k++ {
			got, bon := w.floor(rows, &weights, k, &p)
			q := make([]float32, len(bon))
			for i, b := range bon {
				q[i] = b / p.Max()
			}
			slices.Sort(q)
			if want := q[len(q)-k] - boundSlack; math.Float32bits(got) != math.Float32bits(want) {
				t.Fatalf("levels %d, top %d: floor %v, want the %d-th quotient less the slack %v", levels, k, got, k, want)
			}
		}
	}
}
