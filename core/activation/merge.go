package activation

import (
	"slices"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/internal/finite"
)

// Activated is one node of a merged ranking.
type Activated struct {
	Node graph.NodeID
	// Score is the merged activation: the weighted sum of the dimension
	// scores, times the resonance bonus, plus the PageRank boost, divided
	// by the largest value that sum can take (MergeParams.Max), so it is
	// in [0, 1] and keeps its meaning across queries.
	Score float32
	// Dims are the node's per-dimension scores in [0, 1], in
	// graph.Dimension order (0 where a dimension did not reach it).
	Dims [graph.NumDimensions]float32
	// DimCount is how many dimensions scored it above the contribution
	// threshold.
	DimCount uint8
}

// EffectiveWeights are the merge weights after redistribution: a dimension
// that was not requested or produced no result gets 0, and the others
// share the full weight in proportion to their base weights. All zeros
// when no dimension produced anything.
func EffectiveWeights(dims *[graph.NumDimensions][]graph.Scored, requested [graph.NumDimensions]bool, p MergeParams) [graph.NumDimensions]float32 {
	var w [graph.NumDimensions]float32
	var sum float32
	for d := range dims {
		if requested[d] && len(dims[d]) > 0 {
			w[d] = p.Weights[d]
			sum += w[d]
		}
	}
	if sum <= 0 {
		return [graph.NumDimensions]float32{}
	}
	for d := range w {
		w[d] /= sum
	}
	return w
}

// Merge fuses per-dimension results (any order; a node listed twice in one
// dimension keeps its best score) into the topK best nodes:
//
//  1. score = Σ effective_weight[d] · dim_score[d] (EffectiveWeights);
//  2. × Bonus4 when all four dimensions scored the node above
//     ContributionThreshold, else × Bonus3 when three did (four is checked
//     first — the original Python never reached its 4-dimension branch);
//  3. + PageRankBoost · PageRank;
//  4. ÷ MergeParams.Max (Bonus4 + PageRankBoost), into [0, 1].
//
// Dimension scores are clamped to [0, 1] and every result is finite. The
// ranking is by score descending, then NodeID. g supplies PageRank; ws may
// be nil.
func Merge(g *graph.Graph, dims [graph.NumDimensions][]graph.Scored, requested [graph.NumDimensions]bool, topK int, p MergeParams, ws *Workspace) ([]Activated, error) {
	return MergeKeeping(g, dims, requested, topK, nil, p, ws)
}

// MergeKeeping is Merge that also returns every node of keep that some
// dimension reached, after the topK best, even when it ranks below the
// cut (nodes of keep no dimension reached are not invented). The query
// engine keeps the nodes learned feedback confirmed, so feedback can
// re-rank them however far down the merge put them.
func MergeKeeping(g *graph.Graph, dims [graph.NumDimensions][]graph.Scored, requested [graph.NumDimensions]bool, topK int, keep []graph.NodeID, p MergeParams, ws *Workspace) ([]Activated, error) {
	return mergeKeeping(g, dims, requested, topK, keep, p, ws, false)
}

// MergeKeepingLent is MergeKeeping answering in ws's own buffer, valid
// until the next MergeKeepingLent on ws: the query engine copies the
// answer into its nodes at once, and a new list per call was the largest
// of Merge's allocations on go-std (activate-speed11.md). ws nil: a new
// slice, as MergeKeeping.
func MergeKeepingLent(g *graph.Graph, dims [graph.NumDimensions][]graph.Scored, requested [graph.NumDimensions]bool, topK int, keep []graph.NodeID, p MergeParams, ws *Workspace) ([]Activated, error) {
	return mergeKeeping(g, dims, requested, topK, keep, p, ws, ws != nil)
}

func mergeKeeping(g *graph.Graph, dims [graph.NumDimensions][]graph.Scored, requested [graph.NumDimensions]bool, topK int, keep []graph.NodeID, p MergeParams, ws *Workspace, lent bool) ([]Activated, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if topK <= 0 {
		return nil, nil
	}
	w := workspace(ws, g)
	weights := EffectiveWeights(&dims, requested, p)
	rows := w.rows[:0]
	nodes := w.rowNode[:0]
	for d := range dims {
		if weights[d] <= 0 {
			continue
		}
		for _, s := range dims[d] {
			if int(s.Node) >= w.n {
				continue
			}
			i := w.idx[s.Node]
			if i == 0 {
				rows = append(rows, [graph.NumDimensions]float32{})
				nodes = append(nodes, s.Node)
				i = int32(len(rows))
				w.idx[s.Node] = i
			}
			v := finite.Clamp(s.Score, 0, 1)
			if v > rows[i-1][d] {
				rows[i-1][d] = v
			}
		}
	}
	cand := w.cand[:0]
	floor, bon := w.floor(rows, &weights, topK, &p)
	for i := range rows {
		if floor > 0 && ceilingOf(bon[i], &p) < floor {
			continue // cannot reach the top whatever its PageRank
		}
		cand = append(cand, graph.Scored{Node: nodes[i], Score: scoreOf(g, nodes[i], bon[i], &p)})
	}
	top := graph.SelectTop(cand, topK)
	if len(keep) > 0 && len(top) < len(rows) {
		in := make(map[graph.NodeID]bool, len(top))
		for _, t := range top {
			in[t.Node] = true
		}
		var extra []graph.Scored
		for _, k := range keep {
			if int(k) < w.n && w.idx[k] != 0 && !in[k] {
				in[k] = true
				extra = append(extra, graph.Scored{Node: k, Score: score(g, k, &rows[w.idx[k]-1], &weights, &p)})
			}
		}
		graph.SortScored(extra)
		top = append(top[:len(top):len(top)], extra...) // a copy: top shares cand's array
	}
	var out []Activated
	if lent && w == ws {
		out = slices.Grow(ws.merged[:0], len(top))[:len(top)]
		ws.merged = out
	} else {
		out = make([]Activated, len(top))
	}
	for i, t := range top {
		r := &rows[w.idx[t.Node]-1]
		out[i] = Activated{Node: t.Node, Score: t.Score, Dims: *r, DimCount: dimCount(r, p.ContributionThreshold)}
	}
	for _, n := range nodes {
		w.idx[n] = 0
	}
	w.rows, w.rowNode, w.cand = rows[:0], nodes[:0], cand[:0]
	return out, nil
}

func dimCount(r *[graph.NumDimensions]float32, threshold float32) uint8 {
	var c uint8
	for _, v := range r {
		if v > threshold {
			c++
		}
	}
	return c
}

func score(g *graph.Graph, n graph.NodeID, r *[graph.NumDimensions]float32, weights *[graph.NumDimensions]float32, p *MergeParams) float32 {
	return scoreOf(g, n, bonused(r, weights, p), p)
}

// scoreOf is score from the row's bonused sum b.
func scoreOf(g *graph.Graph, n graph.NodeID, b float32, p *MergeParams) float32 {
	s := b + p.PageRankBoost*finite.Clamp(g.PageRank(n), 0, 1)
	return finite.Clamp(s/p.Max(), 0, 1)
}

// bonused is a row's weighted sum times its resonance bonus: score
// before the PageRank boost.
func bonused(r *[graph.NumDimensions]float32, weights *[graph.NumDimensions]float32, p *MergeParams) float32 {
	var s float32
	for d, v := range r {
		s += weights[d] * v
	}
	switch dimCount(r, p.ContributionThreshold) {
	case 4:
		s *= p.Bonus4
	case 3:
		s *= p.Bonus3
	}
	return s
}

// boundSlack keeps rows whose bounds are within float rounding of the
// floor, so pruning never depends on how the compiler rounds.
const boundSlack = 1e-5

// ceilingOf is the highest score a row of bonused sum b can have: its
// PageRank at 1.
func ceilingOf(b float32, p *MergeParams) float32 {
	return (b+p.PageRankBoost)/p.Max() + boundSlack
}

// floor is a score that topK rows reach whatever their PageRank: the
// topK-th best score with PageRank 0 (minus the slack), or 0 when there
// are not more rows than topK. A row whose ceiling is below it cannot
// make the top, so merge need not read its PageRank (a random read per
// row: a go-std query's D1 and D4 reach 30,000 rows, and the pool keeps
// 60). The scan keeps the topK best in a min-heap. It also returns every
// row's bonused sum (in w's scratch, valid until the next merge on w), so
// the pass that scores the rows does not compute it a second time.
func (w *Workspace) floor(rows [][graph.NumDimensions]float32, weights *[graph.NumDimensions]float32, topK int, p *MergeParams) (float32, []float32) {
	bon := w.bon[:0]
	for i := range rows {
		bon = append(bon, bonused(&rows[i], weights, p))
	}
	w.bon = bon
	if len(rows) <= topK {
		return 0, bon
	}
	// The heap holds sums, divided once at the end: division by the
	// positive Max is monotone, so the topK-th sum divided is exactly the
	// topK-th quotient, and a division a row was most of this scan.
	h := w.lows[:0]
	for _, b := range bon {
		if len(h) < topK {
			h = append(h, b)
			siftUp(h, len(h)-1)
		} else if b > h[0] {
			h[0] = b
			siftDown(h, 0)
		}
	}
	w.lows = h[:0]
	return h[0]/p.Max() - boundSlack, bon
}

// siftUp and siftDown keep a min-heap of float32.
func siftUp(h []float32, i int) {
	for i > 0 {
		parent := (i - 1) / 2
		if h[parent] <= h[i] {
			return
		}
		h[i], h[parent] = h[parent], h[i]
		i = parent
	}
}

func siftDown(h []float32, i int) {
	for {
		c := 2*i + 1
		if c >= len(h) {
			return
		}
		if r := c + 1; r < len(h) && h[r] < h[c] {
			c = r
		}
		if h[i] <= h[c] {
			return
		}
		h[i], h[c] = h[c], h[i]
		i = c
	}
}
