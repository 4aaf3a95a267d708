// Package plasticity makes the graph learn: the Hebbian cycle run after
// every activation, explicit feedback (Learn), query memory with the
// priming and feedback signals it produces, export/import of per-edge
// learned state, drift reports, and temporary warmup boosts.
//
// The cycle (docs/design.md#hebbian-cycle), with the defaults of Params:
//
//  1. Hebbian strengthening: every edge whose source and target were both
//     activated gains lr·act_src·act_tgt (lr 0.08), capped at 3.0.
//  2. Synaptic decay, limited to the query's neighbourhood: every edge that
//     leads into an activated node from one that stayed silent is
//     multiplied by 1 − 0.005, never below the floor 0.05 (and never raised
//     by it). Such an edge is also a weaken event (the signal reached its
//     target, not through it).
//  3. LTP/LTD: after 5 consecutive strengthen events an edge receives a
//     one-time +0.15; after 5 consecutive weaken events a one-time −0.15.
//     A strengthen event resets the weaken streak and vice versa.
//     Learn(Wrong) produces weaken events too.
//  4. Homeostasis: when the incoming weights of a node whose input grew sum
//     to more than max(5.0, their sum at ingest), the learned gains of
//     those edges (weight above the original) shrink in proportion until
//     the sum is back at that limit.
//  5. Query memory: the query, its strongest seeds and activated nodes
//     enter a ring of 1000 records with node frequencies and seed bigrams
//     (decremented on eviction); Priming turns it into a boost for later
//     queries that share seeds.
//
// Each write step of one activation touches at most MaxEdgesPerQuery (256)
// edges, so a read changes a bounded neighbourhood and UpdateStats says
// exactly what it changed.
//
// Explicit feedback (Learn) adjusts the edges around the judged nodes and
// is remembered in feedback memory under the query's Context (its words and
// strongest seeds). Relevance turns that memory into a signed per-node
// signal for the same and similar queries, which the query engine applies
// to its candidates: feedback changes answers directly, whatever path the
// activation took to a node (most of a query's best results are its own
// seeds, whose scores no edge weight reaches).
//
// Where this departs from a plain Hebbian design, and why
// (docs/design.md#hebbian-cycle):
//
//   - A global decay, of every edge whose source was silent, on every
//     query, made one read rewrite thousands of weights of a code graph
//     (the "one read decays thousands of edges") under other
//     agents' analyses, mostly edges no query ever reaches. Decay here is
//     limited to the edges that compete with the query's own paths (step
//     2), and capped. An edge far from every query keeps its weight; paths
//     stop mattering by losing that competition or by explicit Wrong
//     feedback.
//   - Homeostasis that scales every incoming weight of a node whose input
//     sums to more than 5.0 does not fit code graphs: many nodes have more
//     than five importers at weight 1, so the first co-activation would
//     have crushed every edge into them — ingest-time structure, not
//     learning. Step 4 bounds what learning added instead.
//   - The confirmed (rejected) nodes of Learn calls are recorded in
//     feedback memory, kept apart from the activation ring of query memory
//     so that the automatic records of later queries do not dilute them,
//     signed, and applied to seeds too.
//
// Concurrency: weights are written only through graph.UpdateWeight (atomic
// compare-and-swap), so activations may read the graph while the engine
// writes. The per-edge counters (graph.EdgePlasticity) and per-node
// plasticity (graph.NodeStorage.Plasticity) are guarded by the Engine's own
// mutex; code outside this package that touches them (a snapshot writer)
// should do so inside Engine.Locked.
package plasticity

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"
	"sync/atomic"
	"time"
	"weak"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/internal/finite"
)

// Engine runs the plasticity cycle. One Engine serves one session; it takes
// the graph on every call, so it keeps working when the session swaps in a
// re-ingested graph (query memory is keyed by external IDs for that reason).
// All methods are safe for concurrent use.
type Engine struct {
	mu  sync.Mutex
	p   Params
	mem memory
	fb  feedbackMemory
	now func() time.Time
	// fbRecords mirrors fb.ring.size, written under mu and read without
	// it: seek asks on every call, and must not wait the second a large
	// graph's snapshot encodes under mu (Locked).
	fbRecords atomic.Int32

	// Scratch, guarded by mu.
	act          []float32 // per-node activation of the current call
	mark         []uint32  // per-node stamp (homeostasis set, learn sets)
	stamp        uint32
	homeo        []graph.NodeID
	strengthened []graph.EdgeIdx
	weakened     []graph.EdgeIdx
	cand         []edgeDelta
	primed       primedCount
}

// edgeDelta is an edge the cycle may write and its priority.
type edgeDelta struct {
	edge graph.EdgeIdx
	v    float32
}

// New returns an engine with validated parameters.
func New(p Params) (*Engine, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	return &Engine{p: p, mem: newMemory(p.MemoryCapacity), fb: newFeedbackMemory(p.FeedbackCapacity), now: time.Now}, nil
}

// Params returns the engine's parameters.
func (e *Engine) Params() Params { return e.p }

// SetClock replaces the engine's clock (tests, replay). Nil restores time.Now.
func (e *Engine) SetClock(now func() time.Time) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if now == nil {
		now = time.Now
	}
	e.now = now
}

// Locked runs f while holding the engine's lock, so f may read or write the
// graph's per-edge plasticity counters consistently with the engine.
func (e *Engine) Locked(f func()) {
	e.mu.Lock()
	defer e.mu.Unlock()
	f()
}

// Query is one activation as the plasticity cycle sees it.
type Query struct {
	// Text is the query string (kept in query memory).
	Text string
	// Seeds are the seed nodes the query resolved to.
	Seeds []graph.NodeID
	// Activated are the activation results (any order). Scores are clamped
	// to [0, 1]; non-finite scores count as 0. A node listed twice keeps
	// its largest score.
	Activated []graph.Scored
	// Time of the query; zero means the engine's clock.
	Time time.Time
}

// UpdateStats reports what one cycle did (the "plasticity" object of the
// activate response).
type UpdateStats struct {
	EdgesStrengthened int `json:"edges_strengthened"`
	EdgesDecayed      int `json:"edges_decayed"`
	// EdgesCapped counts edges that qualified for strengthening or decay
	// but were left alone because the step reached MaxEdgesPerQuery.
	EdgesCapped int `json:"edges_capped"`
	LTPEvents   int `json:"ltp_events"`
	LTDEvents   int `json:"ltd_events"`
	// HomeostaticNodes is the number of nodes whose incoming weights were
	// scaled down to the ceiling.
	HomeostaticNodes int `json:"homeostatic_nodes"`
	// PrimingNodes is the number of nodes query memory primes for this
	// query's seeds (computed before the query itself is recorded).
	PrimingNodes int `json:"priming_nodes"`
	// FeedbackNodes is the number of candidates whose score explicit
	// feedback on this or similar queries changed (set by the query
	// engine, which applies Relevance).
	FeedbackNodes int `json:"feedback_nodes"`
	// CASFailures counts weight writes abandoned after CASRetryLimit
	// contended attempts (the edge keeps its weight).
	CASFailures int `json:"cas_failures,omitempty"`
}

// ErrBadNode reports a node ID outside the graph.
var ErrBadNode = errors.New("node id out of range")

func checkGraph(g *graph.Graph) error {
	if g == nil {
		return errors.New("plasticity: nil graph")
	}
	if !g.Finalized() {
		return graph.ErrNotFinalized
	}
	return nil
}

func checkNodes(g *graph.Graph, ids []graph.NodeID) error {
	for _, id := range ids {
		if !g.Valid(id) {
			return fmt.Errorf("%w: %d (graph has %d nodes)", ErrBadNode, id, g.NumNodes())
		}
	}
	return nil
}

// Update runs the five-step cycle for one activation. It validates its
// input first and changes nothing on error.
func (e *Engine) Update(g *graph.Graph, q Query) (UpdateStats, error) {
	var st UpdateStats
	if err := checkGraph(g); err != nil {
		return st, err
	}
	if err := checkNodes(g, q.Seeds); err != nil {
		return st, err
	}
	for _, s := range q.Activated {
		if !g.Valid(s.Node) {
			return st, fmt.Errorf("%w: activated node %d (graph has %d nodes)", ErrBadNode, s.Node, g.NumNodes())
		}
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	at := q.Time
	if at.IsZero() {
		at = e.now()
	}
	e.ensure(g.NumNodes())
	active := e.loadActivation(q.Activated)
	defer e.clearActivation(active)

	p := &e.p
	pl := g.EdgePlasticity()
	e.strengthened = e.strengthened[:0]
	e.weakened = e.weakened[:0]
	e.homeo = e.homeo[:0]
	e.nextStamp()

	// 1. Hebbian strengthening between co-activated nodes.
	e.cand = e.cand[:0]
	for _, s := range active {
		as := e.act[s]
		lo, hi := g.OutRange(s)
		for edge := lo; edge < hi; edge++ {
			if at := e.act[g.Target(edge)]; at > 0 {
				e.cand = append(e.cand, edgeDelta{edge, p.LearningRate * as * at})
			}
		}
	}
	for _, c := range e.capped(&st.EdgesCapped) {
		if _, _, ok := e.add(g, c.edge, c.v, &st.CASFailures); !ok {
			continue
		}
		strengthenEvent(pl, c.edge)
		e.strengthened = append(e.strengthened, c.edge)
		e.addHomeo(g.Target(c.edge))
		st.EdgesStrengthened++
	}

	// 2. Decay of the edges that lead into an activated node from a silent
	// one: they competed with the query's paths and lost.
	e.cand = e.cand[:0]
	for _, t := range active {
		lo, hi := g.InRange(t)
		for pos := lo; pos < hi; pos++ {
			if e.act[g.InSource(pos)] == 0 {
				e.cand = append(e.cand, edgeDelta{g.InEdge(pos), e.act[t]})
			}
		}
	}
	factor := 1 - p.DecayRate
	for _, c := range e.capped(&st.EdgesCapped) {
		weakenEvent(pl, c.edge)
		e.weakened = append(e.weakened, c.edge)
		if g.Weight(c.edge) > p.WeightFloor && e.scale(g, c.edge, factor, &st.CASFailures) {
			st.EdgesDecayed++
		}
	}

	// 3. LTP / LTD.
	st.LTPEvents = e.applyLTP(g, e.strengthened, &st.CASFailures)
	st.LTDEvents = e.applyLTD(g, e.weakened, &st.CASFailures)

	// 4. Homeostatic normalisation of the nodes whose input grew.
	st.HomeostaticNodes = e.homeostasis(g, &st.CASFailures)

	// Per-node firing statistics.
	unix := uint32(max(at.Unix(), 0))
	ps := g.Nodes().Plasticity
	for _, id := range active {
		if ps[id].FireCount < math.MaxUint32 {
			ps[id].FireCount++
		}
		ps[id].LastFired = unix
	}

	// 5. Query memory (priming is measured before this query is recorded).
	if n, ok := e.primed.count(g, q.Seeds, e.mem.changes); ok {
		st.PrimingNodes = n
	} else {
		st.PrimingNodes = e.mem.primingCount(g, q.Seeds, p.MemorySeedsPerQuery, p.PrimingLimit, p.BigramBoost)
	}
	nodes := make([]graph.Scored, 0, len(active))
	for _, id := range active {
		nodes = append(nodes, graph.Scored{Node: id, Score: e.act[id]})
	}
	graph.SortScored(nodes)
	e.mem.record(g, q.Text, q.Seeds, nodes, at, p.MemorySeedsPerQuery, p.MemoryNodesPerQuery)
	return st, nil
}

// capped returns e.cand limited to MaxEdgesPerQuery entries (the largest
// priorities first, ties by edge index), in edge order, and adds what it
// left out to *skipped.
func (e *Engine) capped(skipped *int) []edgeDelta {
	c := e.cand
	if len(c) > e.p.MaxEdgesPerQuery {
		slices.SortFunc(c, func(a, b edgeDelta) int {
			if a.v != b.v {
				if a.v > b.v {
					return -1
				}
				return 1
			}
			return int(a.edge) - int(b.edge)
		})
		*skipped += len(c) - e.p.MaxEdgesPerQuery
		c = c[:e.p.MaxEdgesPerQuery]
	}
	slices.SortFunc(c, func(a, b edgeDelta) int { return int(a.edge) - int(b.edge) })
	return c
}

// ensure sizes the per-node scratch.
func (e *Engine) ensure(n int) {
	if len(e.act) < n {
		e.act = append(e.act, make([]float32, n-len(e.act))...)
	}
	if len(e.mark) < n {
		e.mark = append(e.mark, make([]uint32, n-len(e.mark))...)
	}
}

func (e *Engine) nextStamp() {
	e.stamp++
	if e.stamp == 0 {
		clear(e.mark)
		e.stamp = 1
	}
}

// loadActivation writes activations above the threshold into e.act and
// returns the active nodes in NodeID order.
func (e *Engine) loadActivation(list []graph.Scored) []graph.NodeID {
	var active []graph.NodeID
	for _, s := range list {
		v := finite.Clamp(s.Score, 0, 1)
		if v <= e.p.ActiveThreshold {
			continue
		}
		if e.act[s.Node] == 0 {
			active = append(active, s.Node)
		}
		e.act[s.Node] = max(e.act[s.Node], v)
	}
	slices.Sort(active)
	return active
}

func (e *Engine) clearActivation(active []graph.NodeID) {
	for _, id := range active {
		e.act[id] = 0
	}
}

func (e *Engine) addHomeo(n graph.NodeID) {
	if e.mark[n] != e.stamp {
		e.mark[n] = e.stamp
		e.homeo = append(e.homeo, n)
	}
}

// add raises an edge by delta, capped at WeightCap. It reports the old and
// new weight and whether the write happened.
func (e *Engine) add(g *graph.Graph, edge graph.EdgeIdx, delta float32, casFail *int) (old, nw float32, ok bool) {
	limit := e.p.WeightCap
	nw, err := g.UpdateWeight(edge, func(w float32) float32 {
		old = w
		return min(w+delta, limit)
	})
	if err != nil {
		*casFail++
		return old, old, false
	}
	return old, nw, true
}

// sub lowers an edge by delta after multiplying it by factor, floored at
// WeightFloor; it never raises a weight that was already below the floor.
// It reports whether the weight changed.
func (e *Engine) sub(g *graph.Graph, edge graph.EdgeIdx, factor, delta float32, casFail *int) (old, nw float32, ok bool) {
	floor := e.p.WeightFloor
	nw, err := g.UpdateWeight(edge, func(w float32) float32 {
		old = w
		v := max(w*factor-delta, floor)
		return min(v, w)
	})
	if err != nil {
		*casFail++
		return old, old, false
	}
	return old, nw, nw != old
}

// scale multiplies an edge by factor (floored, never raised) and reports
// whether it changed.
func (e *Engine) scale(g *graph.Graph, edge graph.EdgeIdx, factor float32, casFail *int) bool {
	_, _, ok := e.sub(g, edge, factor, 0, casFail)
	return ok
}

func strengthenEvent(pl *graph.EdgePlasticity, e graph.EdgeIdx) {
	if pl.Strengthen[e] < math.MaxUint16 {
		pl.Strengthen[e]++
	}
	pl.Weaken[e] = 0
}

func weakenEvent(pl *graph.EdgePlasticity, e graph.EdgeIdx) {
	if pl.Weaken[e] < math.MaxUint16 {
		pl.Weaken[e]++
	}
	pl.Strengthen[e] = 0
}

// applyLTP grants the one-time bonus to listed edges whose strengthen streak
// reached the threshold. Targets that gain weight join the homeostasis set.
func (e *Engine) applyLTP(g *graph.Graph, edges []graph.EdgeIdx, casFail *int) int {
	pl := g.EdgePlasticity()
	n := 0
	for _, edge := range edges {
		if pl.LTP[edge] || pl.Strengthen[edge] < e.p.LTPThreshold {
			continue
		}
		if _, _, ok := e.add(g, edge, e.p.LTPBonus, casFail); !ok {
			continue
		}
		pl.LTP[edge] = true
		e.addHomeo(g.Target(edge))
		n++
	}
	return n
}

// applyLTD applies the one-time penalty to listed edges whose weaken streak
// reached the threshold.
func (e *Engine) applyLTD(g *graph.Graph, edges []graph.EdgeIdx, casFail *int) int {
	pl := g.EdgePlasticity()
	n := 0
	for _, edge := range edges {
		if pl.LTD[edge] || pl.Weaken[edge] < e.p.LTDThreshold {
			continue
		}
		e.sub(g, edge, 1, e.p.LTDPenalty, casFail)
		pl.LTD[edge] = true
		n++
	}
	return n
}

// homeostasis bounds the incoming weight of every node in e.homeo: when it
// sums to more than max(HomeostaticCeiling, its sum at ingest), the learned
// gains of the incoming edges (current weight above the original) are
// scaled down together until the sum is back at that limit. Ingest-time
// weights are never scaled. It returns the number of nodes trimmed.
func (e *Engine) homeostasis(g *graph.Graph, casFail *int) int {
	slices.Sort(e.homeo)
	pl := g.EdgePlasticity()
	trimmed := 0
	ceiling := float64(e.p.HomeostaticCeiling)
	for _, n := range e.homeo {
		lo, hi := g.InRange(n)
		var sum, orig, gain float64
		for pos := lo; pos < hi; pos++ {
			edge := g.InEdge(pos)
			w, o := float64(g.Weight(edge)), float64(pl.Original[edge])
			sum += w
			orig += o
			gain += max(0, w-o)
		}
		limit := max(ceiling, orig)
		if sum <= limit || gain <= 0 {
			continue
		}
		keep := float32(max(0, gain-(sum-limit)) / gain)
		for pos := lo; pos < hi; pos++ {
			edge := g.InEdge(pos)
			o := pl.Original[edge]
			if _, err := g.UpdateWeight(edge, func(w float32) float32 {
				if w <= o {
					return w
				}
				return o + (w-o)*keep
			}); err != nil {
				*casFail++
			}
		}
		trimmed++
	}
	return trimmed
}

// Priming returns the nodes query memory associates with seeds: nodes that
// appeared in remembered activations sharing seeds with these, weighted by
// the seed overlap (Jaccard, raised by shared seed bigrams) and by how
// strongly they were activated there. Only the first MemorySeedsPerQuery
// seeds count, as only those are remembered per query (give them strongest
// first), so a query repeated with all its seeds overlaps its own record
// fully. Scores are in (0, 1], sorted, seeds excluded, at most
// Params.PrimingLimit nodes. Explicit feedback is not here: see Relevance.
func (e *Engine) Priming(g *graph.Graph, seeds []graph.NodeID) ([]graph.Scored, error) {
	if err := checkGraph(g); err != nil {
		return nil, err
	}
	if err := checkNodes(g, seeds); err != nil {
		return nil, err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	out := e.mem.priming(g, seeds, e.p.MemorySeedsPerQuery, e.p.PrimingLimit, e.p.BigramBoost)
	e.primed.remember(g, seeds, e.mem.changes, len(out))
	return out, nil
}

// primedCount is the size of the last Priming answer and what it was
// asked on: Activate asks Priming for a query's seeds and then Update
// for the same seeds, which reports the same size (UpdateStats.
// PrimingNodes) and summed all of memory again for it (≈ 0.5 ms of an
// activate on go-std, on its answer's path). Any change of query memory
// between the two (another query recorded, a reset, an import) makes
// Update sum again.
type primedCount struct {
	g       weak.Pointer[graph.Graph]
	seeds   []graph.NodeID
	changes uint64 // memory.changes when counted
	n       int
	ok      bool
}

func (c *primedCount) remember(g *graph.Graph, seeds []graph.NodeID, changes uint64, n int) {
	c.g, c.seeds, c.changes, c.n, c.ok = weak.Make(g), append(c.seeds[:0], seeds...), changes, n, true
}

// count is the remembered size if it was counted for these seeds of g
// with memory as it is (changes).
func (c *primedCount) count(g *graph.Graph, seeds []graph.NodeID, changes uint64) (int, bool) {
	if !c.ok || c.changes != changes || c.g != weak.Make(g) || !slices.Equal(c.seeds, seeds) {
		return 0, false
	}
	return c.n, true
}

// MemoryStats summarises query memory.
type MemoryStats struct {
	Records       int `json:"records"`
	Capacity      int `json:"capacity"`
	DistinctNodes int `json:"distinct_nodes"`
	SeedBigrams   int `json:"seed_bigrams"`
	// FeedbackRecords is the number of Learn calls feedback memory holds.
	FeedbackRecords int `json:"feedback_records"`
}

// MemoryStats reports the size of query memory.
func (e *Engine) MemoryStats() MemoryStats {
	e.mu.Lock()
	defer e.mu.Unlock()
	return MemoryStats{Records: e.mem.ring.size, Capacity: len(e.mem.ring.items), DistinctNodes: len(e.mem.freq), SeedBigrams: len(e.mem.bigrams), FeedbackRecords: e.fb.ring.size}
}

// NodeFrequency is the number of remembered queries (and feedback records)
// in which the node with this external ID appears.
func (e *Engine) NodeFrequency(externalID string) int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return int(e.mem.freq[externalID])
}

// Bigram is a pair of seeds (external IDs, A < B) with the number of
// remembered queries in which both were seeds.
type Bigram struct {
	A     string `json:"a"`
	B     string `json:"b"`
	Count int    `json:"count"`
}

// TopBigrams returns the n most frequent seed bigrams (count descending,
// then lexicographic).
func (e *Engine) TopBigrams(n int) []Bigram {
	e.mu.Lock()
	defer e.mu.Unlock()
	out := make([]Bigram, 0, len(e.mem.bigrams))
	for k, c := range e.mem.bigrams {
		out = append(out, Bigram{A: e.mem.seeds[k>>32].key, B: e.mem.seeds[uint32(k)].key, Count: int(c)})
	}
	slices.SortFunc(out, func(a, b Bigram) int {
		if a.Count != b.Count {
			return b.Count - a.Count
		}
		if a.A != b.A {
			if a.A < b.A {
				return -1
			}
			return 1
		}
		if a.B < b.B {
			return -1
		} else if a.B > b.B {
			return 1
		}
		return 0
	})
	if n >= 0 && len(out) > n {
		out = out[:n]
	}
	return out
}

// ResetMemory forgets every remembered query and every remembered Learn
// call (learned edge weights stay).
func (e *Engine) ResetMemory() {
	e.mu.Lock()
	defer e.mu.Unlock()
	changes := e.mem.changes + 1 // a count taken before the reset is void
	e.mem = newMemory(e.p.MemoryCapacity)
	e.mem.changes = changes
	e.fb = newFeedbackMemory(e.p.FeedbackCapacity)
	e.fbRecords.Store(0)
}
