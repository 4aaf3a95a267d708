package semantic

import (
	"context"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"

	"golang.org/x/sync/errgroup"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/internal/finite"
)

// CoOccurrence holds per-node Positive Pointwise Mutual Information vectors
// learned from short random walks (DeepWalk without the embedding step).
// Two nodes whose walks visit the same neighbourhood get similar vectors
// even when their names share no characters. Vectors are sparse and sorted
// by NodeID so similarity is a linear merge. Immutable after build and
// safe for concurrent use.
type CoOccurrence struct {
	enabled bool
	off     []uint32 // per node, into cols/vals
	cols    []graph.NodeID
	vals    []float32
	norm    []float32
}

// BuildCoOccurrence runs o.WalksPerNode walks of o.WalkLength steps from
// every node and counts, for each start node, the nodes that appear within
// o.Window positions of one another on its walks; counts become PPMI.
//
// Walks step to a uniformly chosen neighbour over outgoing and incoming
// edges alike: code graphs are mostly trees of "contains" and "imports"
// edges, and following only outgoing edges would end most walks at the
// first leaf. Uniform steps (not weighted by edge weight) also keep the
// index independent of plasticity, which changes weights concurrently.
// Each start node has its own RNG stream seeded from (o.WalkSeed, node), so
// the result does not depend on how the work is split across goroutines.
//
// Above o.CoOccurrenceMaxNodes nodes the index is built empty (Enabled
// reports false): the walk cost grows linearly but the vectors stop paying
// for themselves and their memory grows with it.
func BuildCoOccurrence(g *graph.Graph, o Options) *CoOccurrence {
	n := g.NumNodes()
	c := &CoOccurrence{off: make([]uint32, n+1), norm: make([]float32, n)}
	if n == 0 || n > o.CoOccurrenceMaxNodes || o.WalksPerNode <= 0 || o.WalkLength < 2 {
		return c
	}
	c.enabled = true

	workers := min(runtime.GOMAXPROCS(0), 8, max(1, n/512))
	type chunk struct {
		lo, hi int
		off    []uint32 // len hi-lo+1, relative
		cols   []graph.NodeID
		cnt    []float32
	}
	chunks := make([]chunk, workers)
	per := (n + workers - 1) / workers
	eg, _ := errgroup.WithContext(context.Background())
	for w := range chunks {
		lo, hi := w*per, min((w+1)*per, n)
		chunks[w].lo, chunks[w].hi = lo, hi
		ch := &chunks[w]
		eg.Go(func() error {
			count := make([]uint32, n)
			var touched []graph.NodeID
			walk := make([]graph.NodeID, o.WalkLength)
			ch.off = make([]uint32, 1, hi-lo+1)
			for s := lo; s < hi; s++ {
				var pcg rand.PCG
				pcg.Seed(o.WalkSeed, uint64(s)^0x5851f42d4c957f2d)
				src := graph.NodeID(s)
				for range o.WalksPerNode {
					l := randomWalk(g, src, &pcg, walk)
					for i := 0; i < l; i++ {
						lo2, hi2 := max(0, i-o.Window), min(l-1, i+o.Window)
						for j := lo2; j <= hi2; j++ {
							v := walk[j]
							if j == i || v == src || v == walk[i] {
								continue
							}
							if count[v] == 0 {
								touched = append(touched, v)
							}
							count[v]++
						}
					}
				}
				slices.Sort(touched)
				for _, v := range touched {
					ch.cols = append(ch.cols, v)
					ch.cnt = append(ch.cnt, float32(count[v]))
					count[v] = 0
				}
				touched = touched[:0]
				ch.off = append(ch.off, uint32(len(ch.cols)))
			}
			return nil
		})
	}
	_ = eg.Wait() // workers cannot fail

	// Concatenate chunks, then PPMI: pmi(i,j) = ln(c_ij · total / (row_i · col_j)).
	total := 0
	for _, ch := range chunks {
		total += len(ch.cols)
	}
	cols := make([]graph.NodeID, 0, total)
	cnt := make([]float32, 0, total)
	for _, ch := range chunks {
		base := uint32(len(cols))
		for k := 1; k < len(ch.off); k++ {
			c.off[ch.lo+k] = base + ch.off[k]
		}
		cols = append(cols, ch.cols...)
		cnt = append(cnt, ch.cnt...)
	}
	row := make([]float64, n)
	col := make([]float64, n)
	var sum float64
	for i := 0; i < n; i++ {
		for e := c.off[i]; e < c.off[i+1]; e++ {
			v := float64(cnt[e])
			row[i] += v
			col[cols[e]] += v
			sum += v
		}
	}
	// Compact in place, keeping positive PMI only — and of those the
	// CoOccurrenceTopK strongest, still sorted by column for the
	// merge-intersection in Similarity.
	w := uint32(0)
	start := uint32(0)
	var keep []graph.Scored
	for i := 0; i < n; i++ {
		end := c.off[i+1]
		rowStart := w
		for e := start; e < end; e++ {
			pmi := math.Log(float64(cnt[e]) * sum / (row[i] * col[cols[e]]))
			if pmi > 0 && !math.IsInf(pmi, 0) && !math.IsNaN(pmi) {
				cols[w] = cols[e]
				cnt[w] = float32(pmi)
				w++
			}
		}
		if k := o.CoOccurrenceTopK; k > 0 && int(w-rowStart) > k {
			keep = keep[:0]
			for e := rowStart; e < w; e++ {
				keep = append(keep, graph.Scored{Node: cols[e], Score: cnt[e]})
			}
			keep = graph.SelectTop(keep, k)
			slices.SortFunc(keep, func(a, b graph.Scored) int { return int(a.Node) - int(b.Node) })
			for j, s := range keep {
				cols[rowStart+uint32(j)] = s.Node
				cnt[rowStart+uint32(j)] = s.Score
			}
			w = rowStart + uint32(len(keep))
		}
		var ss float64
		for e := rowStart; e < w; e++ {
			ss += float64(cnt[e]) * float64(cnt[e])
		}
		start = end
		c.off[i+1] = w
		c.norm[i] = float32(math.Sqrt(ss))
	}
	// Copy rather than clip: the walk counts are much larger than what
	// survives, and a clipped slice would keep them alive.
	c.cols = slices.Clone(cols[:w])
	c.vals = slices.Clone(cnt[:w])
	return c
}

// randomWalk fills walk starting at src and returns its length (shorter
// than len(walk) when it reaches a node without neighbours).
func randomWalk(g *graph.Graph, src graph.NodeID, pcg *rand.PCG, walk []graph.NodeID) int {
	walk[0] = src
	cur := src
	for step := 1; step < len(walk); step++ {
		olo, ohi := g.OutRange(cur)
		ilo, ihi := g.InRange(cur)
		out := uint64(ohi - olo)
		deg := out + uint64(ihi-ilo)
		if deg == 0 {
			return step
		}
		// Lemire's multiply-shift maps 32 random bits onto [0, deg).
		r := ((pcg.Uint64() >> 32) * deg) >> 32
		if r < out {
			cur = g.Target(olo + graph.EdgeIdx(r))
		} else {
			cur = g.InSource(ilo + uint32(r-out))
		}
		walk[step] = cur
	}
	return len(walk)
}

// Enabled reports whether vectors were built (false above the node limit).
func (c *CoOccurrence) Enabled() bool { return c.enabled }

// Row returns node n's PPMI vector: neighbours ascending and their
// weights. Do not modify the slices.
func (c *CoOccurrence) Row(n graph.NodeID) ([]graph.NodeID, []float32) {
	if int(n)+1 >= len(c.off) {
		return nil, nil
	}
	lo, hi := c.off[n], c.off[n+1]
	return c.cols[lo:hi], c.vals[lo:hi]
}

// Similarity is the cosine of the PPMI vectors of a and b, in [0, 1].
func (c *CoOccurrence) Similarity(a, b graph.NodeID) float32 {
	if !c.enabled || int(a) >= len(c.norm) || int(b) >= len(c.norm) {
		return 0
	}
	if a == b {
		if c.norm[a] > 0 {
			return 1
		}
		return 0
	}
	na, nb := c.norm[a], c.norm[b]
	if na <= 0 || nb <= 0 {
		return 0
	}
	ac, av := c.Row(a)
	bc, bv := c.Row(b)
	var dot float32
	i, j := 0, 0
	for i < len(ac) && j < len(bc) {
		switch {
		case ac[i] == bc[j]:
			dot += av[i] * bv[j]
			i++
			j++
		case ac[i] < bc[j]:
			i++
		default:
			j++
		}
	}
	return finite.Clamp(dot/(na*nb), 0, 1)
}

// addScaled adds scale × n's unit-normalised PPMI vector to the dense vec,
// recording first touches in touched.
func (c *CoOccurrence) addScaled(n graph.NodeID, scale float32, vec []float32, touched []graph.NodeID) []graph.NodeID {
	if !c.enabled || int(n) >= len(c.norm) || c.norm[n] <= 0 {
		return touched
	}
	cols, vals := c.Row(n)
	s := scale / c.norm[n]
	for i, j := range cols {
		if vec[j] == 0 {
			touched = append(touched, j)
		}
		vec[j] += s * vals[i]
	}
	return touched
}

// dotDense is the dot product of n's unit-normalised PPMI vector with vec.
func (c *CoOccurrence) dotDense(n graph.NodeID, vec []float32) float32 {
	if !c.enabled || int(n) >= len(c.norm) || c.norm[n] <= 0 {
		return 0
	}
	cols, vals := c.Row(n)
	var dot float32
	for i, j := range cols {
		dot += vec[j] * vals[i]
	}
	return graph.Finite(dot / c.norm[n])
}
