package graph

import "math"

// PageRank parameters (spec defaults).
const (
	PageRankDamping     = 0.85
	PageRankMaxIter     = 50
	PageRankConvergence = 1e-6
)

// computePageRank runs power iteration over the forward CSR. Dangling nodes
// spread their rank uniformly. The result is divided by its maximum so the
// most central node scores 1 — the spec uses PageRank as a ranking signal in
// [0, 1], not as a probability.
func (g *Graph) computePageRank() {
	n := g.NumNodes()
	pr := g.nodes.PageRank[:n]
	if n == 0 {
		return
	}
	raw := PageRankRaw(g, PageRankDamping, PageRankMaxIter, PageRankConvergence)
	maxv := 0.0
	for _, v := range raw {
		maxv = math.Max(maxv, v)
	}
	for i, v := range raw {
		if maxv > 0 {
			pr[i] = Finite(float32(v / maxv))
		} else {
			pr[i] = 0
		}
	}
}

// PageRankRaw returns unnormalised PageRank probabilities (summing to 1)
// computed by power iteration over g's forward edges.
func PageRankRaw(g *Graph, damping float64, maxIter int, tol float64) []float64 {
	n := g.NumNodes()
	if n == 0 {
		return nil
	}
	cur := make([]float64, n)
	next := make([]float64, n)
	inv := 1 / float64(n)
	for i := range cur {
		cur[i] = inv
	}
	for it := 0; it < maxIter; it++ {
		dangling := 0.0
		for i := range next {
			next[i] = 0
		}
		for i := 0; i < n; i++ {
			lo, hi := g.csr.offsets[i], g.csr.offsets[i+1]
			if lo == hi {
				dangling += cur[i]
				continue
			}
			share := cur[i] / float64(hi-lo)
			for _, t := range g.csr.targets[lo:hi] {
				next[t] += share
			}
		}
		base := (1-damping)*inv + damping*dangling*inv
		delta := 0.0
		for i := range next {
			v := base + damping*next[i]
			delta += math.Abs(v - cur[i])
			next[i] = v
		}
		cur, next = next, cur
		if delta < tol {
			break
		}
	}
	return cur
}
