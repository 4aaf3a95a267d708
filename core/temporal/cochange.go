package temporal

import (
	"slices"
	"sync"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/internal/finite"
)

// Partner is a node that tends to change together with another.
type Partner struct {
	Node graph.NodeID
	// Strength is the coupling in [0, 1].
	Strength float32
	// Observed counts the commits in which both changed (0 for a pair known
	// only from the structural bootstrap).
	Observed uint32
}

type coEntry struct {
	target graph.NodeID
	boot   float32 // structural guess
	co     uint32  // observed joint changes
}

// CoChange is a sparse, budgeted matrix of how strongly pairs of nodes
// change together. It starts from structure (nodes a few hops apart are
// likely to change together) and is refined by observed commit groups.
// Safe for concurrent use: Observe takes the write lock, reads the read
// lock.
type CoChange struct {
	mu sync.RWMutex
	// rows are per node. A row fresh from the bootstrap is ordered by
	// strength (then target), so its strongest partners are a prefix;
	// observed rows are not kept in order and are ranked on demand.
	rows     [][]coEntry
	observed []uint16 // per row: entries with co > 0
	counts   []uint32 // per node: commits it changed in
	entries  int
	budget   int
	rowCap   int
	k        float32 // Jaccard smoothing
	maxGrp   int

	// Lazy structural bootstrap (see ensure); scratch guarded by mu.
	g          *graph.Graph
	built      []bool
	perRow     int
	scanBudget int
	hop        float32
	depth      int
	stamp      []uint32
	best       []float32
	epoch      uint32
	// walk is ensure's frontier, next and reached lists and its
	// candidates, kept between rows: a row is built on the first activate
	// that meets its node, all through a server's life, and these lists
	// made anew were ≈ 35 KB a call on go-std (issue 29).
	walk struct {
		frontier, next, reached []graph.NodeID
		cand                    []graph.Scored
	}
}

// bootstrapCoChange prepares the structural starting point: for a node,
// the strongest nodes within o.BootstrapDepth hops over edges in either
// direction, each at the best path's product of
// min(weight, 1)·BootstrapHopDecay·BootstrapWeight. Rows are computed on
// first use (ensure) rather than for every node up front: a query reads the
// rows of its seeds only, and eager rows for every node were most of the
// engine's memory. The budget is shared fairly — each row gets at most
// min(BootstrapRowCap, RowCap, Budget/N) structural entries.
func bootstrapCoChange(g *graph.Graph, o *Options) *CoChange {
	n := g.NumNodes()
	c := &CoChange{
		rows:     make([][]coEntry, n),
		observed: make([]uint16, n),
		counts:   make([]uint32, n),
		built:    make([]bool, n),
		budget:   o.CoChangeBudget,
		rowCap:   o.CoChangeRowCap,
		k:        o.JaccardSmoothing,
		maxGrp:   o.MaxCommitGroup,
		g:        g,
	}
	if n == 0 || o.BootstrapDepth == 0 || o.CoChangeBudget == 0 {
		return c
	}
	c.perRow = min(o.CoChangeRowCap, o.CoChangeBudget/n)
	if o.BootstrapRowCap > 0 {
		c.perRow = min(c.perRow, o.BootstrapRowCap)
	}
	c.scanBudget = o.BootstrapScanFactor * c.perRow
	c.hop = o.BootstrapWeight * o.BootstrapHopDecay
	c.depth = o.BootstrapDepth
	return c
}

// ensure computes a's structural row if it has not been yet. Caller holds
// the write lock.
func (c *CoChange) ensure(a graph.NodeID) {
	if int(a) >= len(c.built) || c.built[a] {
		return
	}
	c.built[a] = true
	if c.perRow == 0 {
		return
	}
	g, n := c.g, len(c.built)
	if c.stamp == nil {
		c.stamp = make([]uint32, n)
		c.best = make([]float32, n)
	}
	c.epoch++
	if c.epoch == 0 { // wrapped: old stamps could collide
		clear(c.stamp)
		c.epoch = 1
	}
	st := c.epoch
	stamp, best := c.stamp, c.best
	// The structural prior uses ingest-time weights, not learned ones:
	// rows are built whenever first asked for, and must not depend on how
	// much learning happened before that.
	orig := g.EdgePlasticity().Original
	frontier := append(c.walk.frontier[:0], a)
	next, reached := c.walk.next[:0], c.walk.reached[:0]
	stamp[a] = st
	best[a] = 1
	scanned := 0
	visit := func(from, to graph.NodeID, w float32) {
		scanned++
		v := best[from] * min(finite.Clamp(w, 0, 1), 1) * c.hop
		if stamp[to] != st {
			stamp[to] = st
			best[to] = v
			reached = append(reached, to)
			next = append(next, to)
		} else if v > best[to] && to != a {
			best[to] = v
		}
	}
depth:
	for d := 0; d < c.depth && len(frontier) > 0; d++ {
		next = next[:0]
		for _, u := range frontier {
			elo, ehi := g.OutRange(u)
			for e := elo; e < ehi; e++ {
				if scanned >= c.scanBudget {
					break depth
				}
				visit(u, g.Target(e), orig[e])
			}
			ilo, ihi := g.InRange(u)
			for p := ilo; p < ihi; p++ {
				if scanned >= c.scanBudget {
					break depth
				}
				ie := g.InEdge(p)
				if g.EdgeDirection(ie) == graph.Bidirectional {
					continue // its mirror is an outgoing edge of u
				}
				visit(u, g.InSource(p), orig[ie])
			}
		}
		frontier, next = next, frontier
	}
	cand := c.walk.cand[:0]
	for _, v := range reached {
		if best[v] > 0.001 {
			cand = append(cand, graph.Scored{Node: v, Score: best[v]})
		}
	}
	top := graph.SelectTop(cand, c.perRow)
	row := make([]coEntry, len(top), len(top)+1)
	for i, t := range top {
		row[i] = coEntry{target: t.Node, boot: t.Score}
	}
	c.walk.frontier, c.walk.next, c.walk.reached, c.walk.cand = frontier[:0], next[:0], reached[:0], cand[:0]
	c.rows[a] = row
	c.entries += len(row)
}

// ensureAll computes the rows of ids that are missing, taking the write
// lock only when there is one.
func (c *CoChange) ensureAll(ids ...graph.NodeID) {
	c.mu.RLock()
	missing := false
	for _, id := range ids {
		if int(id) < len(c.built) && !c.built[id] {
			missing = true
			break
		}
	}
	c.mu.RUnlock()
	if !missing {
		return
	}
	c.mu.Lock()
	for _, id := range ids {
		c.ensure(id)
	}
	c.mu.Unlock()
}

// strength is the effective coupling of an entry of row a: the smoothed
// Jaccard co/(|A ∪ B| + k) once the pair has been observed, the structural
// guess before. Caller holds the lock.
func (c *CoChange) strength(a graph.NodeID, e coEntry) float32 {
	if e.co == 0 {
		return e.boot
	}
	union := float32(c.counts[a]) + float32(c.counts[e.target]) - float32(e.co)
	union = max(union, float32(e.co))
	return finite.Clamp(float32(e.co)/(union+c.k), 0, 1)
}

// Strength is the coupling of a and b in [0, 1] (0 when unknown).
func (c *CoChange) Strength(a, b graph.NodeID) float32 {
	c.ensureAll(a)
	c.mu.RLock()
	defer c.mu.RUnlock()
	if int(a) >= len(c.rows) {
		return 0
	}
	if i := find(c.rows[a], b); i >= 0 {
		return c.strength(a, c.rows[a][i])
	}
	return 0
}

// find returns the index of target in row, or -1. Rows hold at most
// RowCap (100) entries, so a scan is as fast as keeping them sorted.
func find(row []coEntry, target graph.NodeID) int {
	for i := range row {
		if row[i].target == target {
			return i
		}
	}
	return -1
}

// Partners returns at most k partners of n, strongest first (ties by
// NodeID).
func (c *CoChange) Partners(n graph.NodeID, k int) []Partner {
	c.ensureAll(n)
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.partners(n, k, nil)
}

func (c *CoChange) partners(n graph.NodeID, k int, buf []graph.Scored) []Partner {
	out, _ := c.appendPartners(nil, n, k, buf)
	return out
}

// appendPartners appends n's at most k strongest partners to dst; buf is
// scratch for an observed row's strengths, returned for reuse. Caller
// holds the lock.
func (c *CoChange) appendPartners(dst []Partner, n graph.NodeID, k int, buf []graph.Scored) ([]Partner, []graph.Scored) {
	if int(n) >= len(c.rows) || k <= 0 {
		return dst, buf
	}
	row := c.rows[n]
	if c.observed[n] == 0 {
		// Bootstrap order is strength order.
		for _, e := range row[:min(k, len(row))] {
			dst = append(dst, Partner{Node: e.target, Strength: e.boot})
		}
		return dst, buf
	}
	buf = buf[:0]
	for _, e := range row {
		buf = append(buf, graph.Scored{Node: e.target, Score: c.strength(n, e)})
	}
	for _, t := range graph.SelectTop(buf, k) {
		dst = append(dst, Partner{Node: t.Node, Strength: t.Score, Observed: row[find(row, t.Node)].co})
	}
	return dst, buf
}

// Entries is the number of stored pairs (each direction counts once);
// structural rows count once they have been computed.
func (c *CoChange) Entries() int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.entries
}

// Budget is the entry budget.
func (c *CoChange) Budget() int { return c.budget }

// Observe records commit groups: each group is the set of nodes that
// changed in one commit. Every node's change count goes up once per group;
// every pair in a group of at most MaxCommitGroup nodes gains one joint
// observation in both directions. A new pair enters a full row only by
// replacing a weaker entry, and no pair enters once the budget is spent.
// It returns how many new pairs had to be dropped. IDs outside the graph
// are ignored.
func (c *CoChange) Observe(groups [][]graph.NodeID) (dropped int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	var ids []graph.NodeID
	for _, grp := range groups {
		ids = ids[:0]
		for _, id := range grp {
			if int(id) < len(c.rows) {
				ids = append(ids, id)
			}
		}
		slices.Sort(ids)
		ids = slices.Compact(ids)
		for _, id := range ids {
			c.counts[id]++
		}
		if len(ids) > c.maxGrp {
			continue
		}
		for i, a := range ids {
			for j, b := range ids {
				if i != j && !c.record(a, b) {
					dropped++
				}
			}
		}
	}
	return dropped
}

// record adds one joint observation of (a, b) to a's row. Caller holds
// the write lock.
func (c *CoChange) record(a, b graph.NodeID) bool {
	c.ensure(a)
	row := c.rows[a]
	if i := find(row, b); i >= 0 {
		if row[i].co == 0 {
			c.observed[a]++
		}
		if row[i].co < ^uint32(0) {
			row[i].co++
		}
		return true
	}
	ne := coEntry{target: b, co: 1}
	if len(row) >= c.rowCap {
		// Replace the weakest entry only if the new pair is stronger, so a
		// full row does not churn between equally weak pairs.
		weakest, ws := -1, float32(2)
		for j, e := range row {
			if s := c.strength(a, e); s < ws || (s == ws && e.target > row[weakest].target) {
				weakest, ws = j, s
			}
		}
		if c.strength(a, ne) <= ws {
			return false
		}
		if row[weakest].co == 0 {
			c.observed[a]++
		}
		row[weakest] = ne
		return true
	}
	if c.entries >= c.budget {
		return false
	}
	c.rows[a] = append(row, ne)
	c.observed[a]++
	c.entries++
	return true
}
