package graph

import (
	"math"
	"runtime"
	"sync"
	"sync/atomic"
)

// PageRank parameters (docs/design.md#pagerank).
const (
	PageRankDamping     = 0.85
	PageRankMaxIter     = 50
	PageRankConvergence = 1e-6
)

// computePageRank runs power iteration over the forward CSR. Dangling nodes
// spread their rank uniformly. The result is divided by its maximum so the
// most central node scores 1: PageRank is a ranking signal in [0, 1], not a
// probability (docs/design.md#pagerank).
func (g *Graph) computePageRank() {
	if g.NumNodes() == 0 {
		return
	}
	raw, last, rounds := pageRankIterate(g, uniform(g.NumNodes()), PageRankDamping, PageRankMaxIter, PageRankConvergence)
	g.prResidual, g.prRounds = last, rounds
	g.storePageRank(raw)
}

func uniform(n int) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = 1 / float64(n)
	}
	return v
}

// storePageRank normalises raw ranks by their maximum into the node array.
func (g *Graph) storePageRank(raw []float64) {
	pr := g.nodes.PageRank[:g.NumNodes()]
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
	raw, _, _ := pageRankIterate(g, uniform(n), damping, maxIter, tol)
	return raw
}

// pageRankIterate runs power iteration from cur (summing to 1) until the
// L1 change of a round is below tol or maxIter rounds ran; it also returns
// the change of the last round and the rounds run.
//
// Each round pulls along the reverse CSR: a node's new rank is the sum of
// its in-neighbours' shares, so blocks of nodes are computed in parallel
// without write conflicts, and every sum runs in the same order whatever
// the scheduling (the result does not depend on the number of workers).
func pageRankIterate(g *Graph, cur []float64, damping float64, maxIter int, tol float64) ([]float64, float64, int) {
	return pageRankIterateIn(g, cur, nil, damping, maxIter, tol)
}

// pageRankIterateIn is pageRankIterate with its two working vectors taken
// from sc (and left there, resized) when sc is not nil. The result is cur
// or sc.next.
func pageRankIterateIn(g *Graph, cur []float64, sc *spliceScratch, damping float64, maxIter int, tol float64) ([]float64, float64, int) {
	n := len(cur)
	if sc == nil {
		sc = &spliceScratch{}
	}
	sc.next, sc.share = zeroed(sc.next, n), zeroed(sc.share, n)
	next, share := sc.next, sc.share
	inv := 1 / float64(n)
	c := &g.csr
	workers := 1
	if len(c.targets) >= pageRankParallelEdges {
		workers = min(runtime.GOMAXPROCS(0), 8)
	}
	const block = 4096
	blocks := (n + block - 1) / block
	deltas := make([]float64, blocks)
	var wg sync.WaitGroup
	last, rounds := 0.0, 0
	run := func(f func(b int)) {
		if workers == 1 {
			for b := 0; b < blocks; b++ {
				f(b)
			}
			return
		}
		var nextBlock atomic.Int64
		wg.Add(workers)
		for w := 0; w < workers; w++ {
			go func() {
				defer wg.Done()
				for b := int(nextBlock.Add(1) - 1); b < blocks; b = int(nextBlock.Add(1) - 1) {
					f(b)
				}
			}()
		}
		wg.Wait()
	}
	for it := 0; it < maxIter; it++ {
		run(func(b int) {
			lo, hi := b*block, min((b+1)*block, n)
			dangling := 0.0
			for i := lo; i < hi; i++ {
				if d := c.offsets[i+1] - c.offsets[i]; d > 0 {
					share[i] = cur[i] / float64(d)
				} else {
					share[i] = 0
					dangling += cur[i]
				}
			}
			deltas[b] = dangling
		})
		dangling := 0.0
		for _, d := range deltas {
			dangling += d
		}
		base := (1-damping)*inv + damping*dangling*inv
		run(func(b int) {
			lo, hi := b*block, min((b+1)*block, n)
			delta := 0.0
			for i := lo; i < hi; i++ {
				sum := 0.0
				for _, s := range c.revSources[c.revOffsets[i]:c.revOffsets[i+1]] {
					sum += share[s]
				}
				v := base + damping*sum
				delta += math.Abs(v - cur[i])
				next[i] = v
			}
			deltas[b] = delta
		})
		delta := 0.0
		for _, d := range deltas {
			delta += d
		}
		cur, next = next, cur
		sc.next = next
		last, rounds = delta, it+1
		if delta < tol {
			break
		}
	}
	return cur, last, rounds
}

// pageRankParallelEdges is the graph size from which a round is split
// over several cores.
const pageRankParallelEdges = 100_000

// computePageRankFrom is computePageRank starting from init (per node,
// any positive scale; zeros for nodes without an estimate): after a small
// change the previous ranks are close to the new fixed point, so far fewer
// rounds reach the same tolerance.
//
// tol is the accuracy to reach: a cold start on a large graph stops at
// PageRankMaxIter rounds with its last round still changing by more than
// PageRankConvergence (about 5e-5 on a 100K-node code graph), so a warm
// start from it stops once it is as settled as its base was instead of
// iterating far past it. The graph keeps tol as its own accuracy: a warm
// start that happens to land below it must not make the next one aim
// lower (every patch of a session would take more rounds than the last,
// up to PageRankMaxIter). 0 (a base loaded from disk, whose accuracy is
// not known) aims at warmUnknownTolerance.
//
// init becomes the first round's ranks (it is overwritten): a large graph
// is spared one more array of its size. touched are the nodes whose
// in-sums the change moved (settleLocally), ascending; nil when unknown.
// sc, when not nil, lends the working vectors (pageRankIterateIn).
func (g *Graph) computePageRankFrom(init []float64, tol float64, touched []NodeID, sc *spliceScratch) {
	n := g.NumNodes()
	if n == 0 {
		return
	}
	sum := 0.0
	for _, v := range init {
		sum += max(v, 0)
	}
	if sum == 0 {
		g.computePageRank()
		return
	}
	for i, v := range init {
		init[i] = max(v, 0) / sum
	}
	g.estimateNew(init)
	g.settleLocally(init, touched)
	if tol <= 0 {
		tol = warmUnknownTolerance
	}
	tol = max(PageRankConvergence, tol)
	raw, last, rounds := pageRankIterateIn(g, init, sc, PageRankDamping, PageRankMaxIter, tol)
	g.prResidual, g.prRounds = max(last, tol), rounds
	g.storePageRank(raw)
	if sc != nil {
		sc.init = raw // sc.next holds the other vector
	}
}

// estimateNew gives the nodes without an estimate (new nodes, 0 in p)
// the rank one round of iteration gives them from their in-neighbours'
// estimates, then scales p to sum to 1. A new node is mostly a leaf
// (a function added to a file); starting it at the mean rank, pulled up
// by the hubs, put most of a patch's initial error on the new nodes, and
// a 64-file change took twice the rounds.
func (g *Graph) estimateNew(p []float64) {
	c := &g.csr
	n := len(p)
	total := 1.0
	var fresh []int
	for j, v := range p {
		if v == 0 {
			fresh = append(fresh, j)
		}
	}
	if len(fresh) == 0 {
		return
	}
	for _, j := range fresh {
		in := 0.0
		for _, s := range c.revSources[c.revOffsets[j]:c.revOffsets[j+1]] {
			if d := c.offsets[s+1] - c.offsets[s]; d > 0 {
				in += p[s] / float64(d)
			}
		}
		v := (1-PageRankDamping)/float64(n) + PageRankDamping*in
		p[j] = v
		total += v
	}
	for i := range p {
		p[i] /= total
	}
}

// settleLocally runs localSweeps in-place rounds over the nodes a change
// touched (touched: ascending, their in-sums moved), then scales p to sum
// to 1. A patch's error sits around those nodes; settling them first
// leaves the global rounds a smaller start (go-std, 64 edited files: 3
// rounds instead of 9–11). The global rounds still decide when to stop,
// so the accuracy is what it was.
func (g *Graph) settleLocally(p []float64, touched []NodeID) {
	if len(touched) == 0 {
		return
	}
	c := &g.csr
	n := len(p)
	dangling := 0.0
	for i := range n {
		if c.offsets[i+1] == c.offsets[i] {
			dangling += p[i]
		}
	}
	base := (1-PageRankDamping)/float64(n) + PageRankDamping*dangling/float64(n)
	for range localSweeps {
		for _, j := range touched {
			in := 0.0
			for _, s := range c.revSources[c.revOffsets[j]:c.revOffsets[j+1]] {
				in += p[s] / float64(c.offsets[s+1]-c.offsets[s])
			}
			p[j] = base + PageRankDamping*in
		}
	}
	total := 0.0
	for _, v := range p {
		total += v
	}
	for i := range p {
		p[i] /= total
	}
}

// localSweeps: more gave no fewer global rounds on go-std. A variable
// only so that a test can compare with none.
var localSweeps = 3

// warmUnknownTolerance is the accuracy a warm start aims at when its
// base's is not known: about where a cold start on a 100K-node code graph
// stands after PageRankMaxIter rounds.
const warmUnknownTolerance = 5e-5
