// Package temporal is the D3 (temporal) dimension: what changed recently,
// what changes often, and what changes together.
//
//   - Recency: exp(−ln2·age_hours/half_life) with a half-life per node type
//     (File 7 d, Function 14 d, Module/Directory 30 d); a node that changes
//     again after more than 35 dormant days gets a resurrection floor.
//   - Velocity: the z-score of a node's change frequency against the graph.
//   - CoChange: a budgeted sparse matrix of pairs that change together,
//     bootstrapped from 3-hop structure and refined with git commit groups.
//
// A query's temporal result (Activate) scores the seeds and their
// co-change partners by relevance × temporal score.
package temporal

import (
	"math"
	"slices"
	"sync"
	"time"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/internal/finite"
	"github.com/m1nd-go/m1nd/core/internal/freelist"
)

// Commit is one change set: the nodes that changed together and when
// (Unix seconds).
type Commit struct {
	Time  float64
	Nodes []graph.NodeID
}

// Index is the temporal dimension of one graph generation. Safe for
// concurrent use; Observe and ObserveCommits may run alongside queries.
type Index struct {
	g    *graph.Graph
	gen  graph.Generation
	opts Options

	mean, std float32      // change-frequency statistics for velocity
	halfLife  [256]float32 // hours, by node type (a lookup per scored node)

	// Change history beyond the graph's LastModified: the latest and the
	// previous observed change of each node (Unix seconds, 0 = unknown).
	mu     sync.RWMutex
	last   []float64
	prev   []float64
	seenLM []float64 // LastModified when the index was built
	// ref is the newest change time the index knows (the graph's
	// LastModified, observed commits): the "now" of Activate. It is the
	// graph's own clock, so the same question gets the same answer
	// whenever it is asked and after a restart from the snapshot.
	ref float64

	co *CoChange

	scratch freelist.List[*activateScratch]
}

// New builds the temporal index of a finalized graph: velocity statistics
// and the structural co-change bootstrap.
func New(g *graph.Graph, o Options) (*Index, error) {
	if err := o.Validate(); err != nil {
		return nil, err
	}
	if !g.Finalized() {
		return nil, graph.ErrNotFinalized
	}
	n := g.NumNodes()
	x := &Index{
		g: g, gen: g.Generation(), opts: o,
		last: make([]float64, n), prev: make([]float64, n), seenLM: make([]float64, n),
	}
	for t := range x.halfLife {
		x.halfLife[t] = o.halfLife(graph.NodeType(t))
	}
	var sum, ss float64
	for i := 0; i < n; i++ {
		f := float64(g.ChangeFrequency(graph.NodeID(i)))
		sum += f
		x.seenLM[i] = g.LastModified(graph.NodeID(i))
		x.ref = max(x.ref, x.seenLM[i])
	}
	if n > 0 {
		mean := sum / float64(n)
		for i := 0; i < n; i++ {
			d := float64(g.ChangeFrequency(graph.NodeID(i))) - mean
			ss += d * d
		}
		x.mean = float32(mean)
		x.std = max(float32(math.Sqrt(ss/float64(n))), o.StddevFloor)
	} else {
		x.std = o.StddevFloor
	}
	x.co = bootstrapCoChange(g, &x.opts)
	return x, nil
}

// Generation is the graph generation the index was built for.
func (x *Index) Generation() graph.Generation { return x.gen }

// Options returns the index's parameters.
func (x *Index) Options() Options { return x.opts }

// CoChange is the co-change matrix.
func (x *Index) CoChange() *CoChange { return x.co }

// Reference is the time Activate scores recency at: the newest change
// the index knows — the newest LastModified of the graph (with git
// history, the last commit of the newest file; without, the newest file
// mtime) or of a commit given to ObserveCommits. It is not the wall
// clock: a recency measured against the clock would move between two
// identical questions asked minutes apart. Zero when the graph carries
// no times (recency is then 0 for every node anyway).
func (x *Index) Reference() time.Time {
	x.mu.RLock()
	defer x.mu.RUnlock()
	return unixTime(x.ref)
}

// unixTime converts Unix seconds to a time without losing the fraction.
func unixTime(s float64) time.Time {
	sec := math.Floor(s)
	return time.Unix(int64(sec), int64((s-sec)*1e9))
}

// Observe feeds commit groups (sets of nodes that changed together, as
// ingest extracts them from git) into the co-change matrix. It returns how
// many new pairs the budget or full rows turned away.
func (x *Index) Observe(commitGroups [][]graph.NodeID) (dropped int) {
	return x.co.Observe(commitGroups)
}

// ObserveCommits is Observe for commits that carry a time: besides the
// co-change pairs it records each node's latest two change times, which is
// what detects resurrection (a change after a long dormant gap).
func (x *Index) ObserveCommits(commits []Commit) (dropped int) {
	groups := make([][]graph.NodeID, len(commits))
	for i, c := range commits {
		groups[i] = c.Nodes
	}
	dropped = x.co.Observe(groups)
	x.mu.Lock()
	defer x.mu.Unlock()
	for _, c := range commits {
		t := graph.Finite64(c.Time)
		if t <= 0 {
			continue
		}
		x.ref = max(x.ref, t)
		for _, n := range c.Nodes {
			if int(n) >= len(x.last) {
				continue
			}
			switch {
			case t > x.last[n]:
				x.prev[n], x.last[n] = x.last[n], t
			case t < x.last[n] && t > x.prev[n]:
				x.prev[n] = t
			}
		}
	}
	return dropped
}

// InheritFrom carries what prev learned into x when both index the same
// Graph (a new generation after an incremental update, where NodeIDs are
// stable): observed co-change pairs and counts, and change history. A node
// whose LastModified moved forward since prev was built gets prev's latest
// change as its previous one, so a file edited again after a long pause is
// recognised as resurrected. Returns false (and does nothing) for a
// different graph.
func (x *Index) InheritFrom(prev *Index) bool {
	if prev == nil || prev.g != x.g || prev == x {
		return false
	}
	prev.mu.RLock()
	x.mu.Lock()
	n := min(len(prev.last), len(x.last))
	x.ref = max(x.ref, prev.ref)
	for i := 0; i < n; i++ {
		pl := max(prev.last[i], prev.seenLM[i])
		x.last[i], x.prev[i] = prev.last[i], prev.prev[i]
		if x.seenLM[i] > pl && pl > 0 {
			x.prev[i] = pl
		}
	}
	x.mu.Unlock()
	prev.mu.RUnlock()

	prev.co.mu.RLock()
	defer prev.co.mu.RUnlock()
	x.co.mu.Lock()
	defer x.co.mu.Unlock()
	copy(x.co.counts, prev.co.counts[:min(len(prev.co.counts), len(x.co.counts))])
	for a := 0; a < min(len(prev.co.rows), len(x.co.rows)); a++ {
		for _, e := range prev.co.rows[a] {
			if e.co == 0 || int(e.target) >= len(x.co.rows) {
				continue
			}
			for range e.co {
				if !x.co.record(graph.NodeID(a), e.target) {
					break
				}
			}
		}
	}
	return true
}

// changeTimes returns n's latest and previous known change times. Caller
// holds x.mu (read).
func (x *Index) changeTimes(n graph.NodeID) (last, prev float64) {
	last, prev = x.last[n], x.prev[n]
	if lm := x.g.LastModified(n); lm > last {
		if last > 0 && last > prev {
			prev = last
		}
		last = lm
	}
	return last, prev
}

// Recency is n's recency in [0, 1] at now: exp(−ln2·age_hours/half_life)
// for its type, raised to the resurrection floor when n changed after a
// dormant gap and has not gone dormant again. 0 when n's change time is
// unknown.
func (x *Index) Recency(n graph.NodeID, now time.Time) float32 {
	x.mu.RLock()
	defer x.mu.RUnlock()
	return x.recency(n, float64(now.UnixNano())/1e9)
}

func (x *Index) recency(n graph.NodeID, now float64) float32 {
	last, prev := x.changeTimes(n)
	if last <= 0 {
		return 0
	}
	o := &x.opts
	ageH := max(0, (now-last)/3600)
	r := math.Exp(-math.Ln2 * ageH / float64(x.halfLife[x.g.Type(n)]))
	dormant := float64(o.DormantAfterHours)
	if prev > 0 && ageH <= dormant {
		if gapH := (last - prev) / 3600; gapH > dormant {
			res := float64(o.ResurrectionFloor) + float64(o.ResurrectionScale)*math.Log1p(gapH/dormant)
			r = max(r, res)
		}
	}
	return finite.Clamp(float32(r), 0, 1)
}

// Velocity is the z-score of n's change frequency against the whole graph
// (positive: changes more often than average).
func (x *Index) Velocity(n graph.NodeID) float32 {
	return graph.Finite((x.g.ChangeFrequency(n) - x.mean) / x.std)
}

// velocityScore maps the z-score onto [0, 1]: 0.5 for an average node,
// 1 at two standard deviations above. A node that never changed scores 0
// whatever the average, so a graph without history has no velocity signal.
func (x *Index) velocityScore(n graph.NodeID) float32 {
	if x.g.ChangeFrequency(n) <= 0 {
		return 0
	}
	return finite.Clamp(0.5+x.Velocity(n)/4, 0, 1)
}

// Score is n's temporal score in [0, 1] at now: RecencyWeight·recency +
// VelocityWeight·velocity, normalised by the weights' sum.
func (x *Index) Score(n graph.NodeID, now time.Time) float32 {
	x.mu.RLock()
	defer x.mu.RUnlock()
	return x.score(n, float64(now.UnixNano())/1e9)
}

func (x *Index) score(n graph.NodeID, now float64) float32 {
	o := &x.opts
	s := (o.RecencyWeight*x.recency(n, now) + o.VelocityWeight*x.velocityScore(n)) / (o.RecencyWeight + o.VelocityWeight)
	return finite.Clamp(s, 0, 1)
}

// Activate is the D3 result for a query's seeds at the index's Reference
// time (the graph's clock, not the wall clock): see ActivateAt.
func (x *Index) Activate(seeds []graph.Scored) []graph.Scored {
	return x.ActivateAt(seeds, x.Reference())
}

// ActivateAt scores, at time now, every seed and the PartnersPerSeed
// strongest co-change partners of each: relevance × temporal score, where
// a seed's relevance is its seed score and a partner's is the best
// seed score × coupling. Results below MinScore are dropped; the rest are
// returned best first (ties by NodeID).
func (x *Index) ActivateAt(seeds []graph.Scored, now time.Time) []graph.Scored {
	if len(seeds) == 0 {
		return nil
	}
	return x.appendAt([]graph.Scored{}, seeds, now) // a fresh slice, empty rather than nil
}

// AppendActivate appends Activate's result for seeds to dst and returns
// the extended slice: a caller that keeps a buffer between queries (the
// engine) allocates nothing for the answer.
func (x *Index) AppendActivate(dst, seeds []graph.Scored) []graph.Scored {
	if len(seeds) == 0 {
		return dst
	}
	return x.appendAt(dst, seeds, x.Reference())
}

// appendAt appends ActivateAt's answer for seeds at now to dst.
func (x *Index) appendAt(dst, seeds []graph.Scored, now time.Time) []graph.Scored {
	sc, ok := x.scratch.Get()
	if !ok {
		sc = &activateScratch{}
	}
	defer x.scratch.Put(sc)
	x.scoreAt(sc, seeds, now)
	return append(dst, sc.out...)
}

// scoreAt leaves ActivateAt's answer in sc.out.
func (x *Index) scoreAt(sc *activateScratch, seeds []graph.Scored, now time.Time) {
	x.candidates(sc, seeds)
	// Keep each node's best relevance.
	slices.SortFunc(sc.cand, func(a, b graph.Scored) int {
		if a.Node != b.Node {
			return int(a.Node) - int(b.Node)
		}
		return graph.CompareScored(a, b)
	})
	nowS := float64(now.UnixNano()) / 1e9
	sc.out = sc.out[:0]
	x.mu.RLock()
	for i, c := range sc.cand {
		if i > 0 && sc.cand[i-1].Node == c.Node {
			continue // a weaker duplicate: the sort put each node's best first
		}
		if v := finite.Clamp(c.Score*x.score(c.Node, nowS), 0, 1); v >= x.opts.MinScore && v > 0 {
			sc.out = append(sc.out, graph.Scored{Node: c.Node, Score: v})
		}
	}
	x.mu.RUnlock()
	graph.SortScored(sc.out)
}

// activateScratch is ActivateAt's working memory, kept between calls in
// the index's free list (issue 29: candidates, partner lists and the
// answer's buffer were ≈ 57 KB of garbage a call on go-std).
type activateScratch struct {
	ids   []graph.NodeID
	cand  []graph.Scored
	buf   []graph.Scored
	parts []Partner
	out   []graph.Scored
}

// candidates fills sc.cand with every seed (relevance = its score) and
// its PartnersPerSeed strongest co-change partners (seed score ×
// coupling), in seed order.
func (x *Index) candidates(sc *activateScratch, seeds []graph.Scored) {
	sc.ids = sc.ids[:0]
	for _, s := range seeds {
		sc.ids = append(sc.ids, s.Node)
	}
	x.co.ensureAll(sc.ids...)
	sc.cand = sc.cand[:0]
	x.co.mu.RLock()
	defer x.co.mu.RUnlock()
	for _, s := range seeds {
		if int(s.Node) >= len(x.last) {
			continue
		}
		r := finite.Clamp(s.Score, 0, 1)
		sc.cand = append(sc.cand, graph.Scored{Node: s.Node, Score: r})
		sc.parts, sc.buf = x.co.appendPartners(sc.parts[:0], s.Node, x.opts.PartnersPerSeed, sc.buf)
		for _, p := range sc.parts {
			sc.cand = append(sc.cand, graph.Scored{Node: p.Node, Score: r * p.Strength})
		}
	}
}
