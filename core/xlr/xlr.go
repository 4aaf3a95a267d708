// Package xlr implements XLR noise cancellation: differential processing of
// activation results with a hot channel (pulses from the seeds, f = 1.0)
// and a cold channel (pulses from anti-seeds, f = 3.7). Nodes that both
// channels reach alike — hubs such as config, logger, utils, database —
// are common-mode noise and are gated down; nodes the hot channel reaches
// and the cold one does not keep their score.
//
// The six stages, as this package implements them:
//
//  1. Anti-seeds: up to 3 nodes, not seeds, not immune, not hubs, whose
//     degree is at least 0.3× the seeds' average and whose neighbourhood has
//     Jaccard similarity ≤ 0.2 with the seeds' neighbourhood; among those,
//     the closest in degree to the seeds (|ln ratio|, then NodeID). The scan
//     examines at most AntiSeedScanBudget nodes, starting at an offset
//     derived from the seeds.
//  2. Immunity: BFS from the seeds, ImmunityHops (2) hops over forward and
//     reverse edges. Immune nodes are never cancelled.
//  3. Hot pulses from the seeds (amplitude = seed score, frequency FHot),
//  4. cold pulses from the anti-seeds (amplitude 1, frequency FCold). A
//     pulse crossing edge e carries amplitude·weight(e)·Decay (capped at 1,
//     ×InhibitoryAttenuation on inhibitory edges) along forward and reverse
//     edges, up to MaxHops, and remembers the last three nodes it visited
//     ([3]NodeID) so it never doubles back into them. A node keeps the
//     strongest arrival per channel, and a pulse is only sent on when it
//     improves its target; pulses travel in BFS order and a node waits in
//     the next layer at most once (a stronger arrival replaces its pending
//     pulse), so a hub is expanded at most once per hop. Each channel may
//     send PulseBudget/2 pulses.
//  5. Differential: each channel deposits its amplitude in a spectrum of
//     SpectralBuckets buckets through a Gaussian kernel (bandwidth 0.8)
//     centred on its frequency. The spectral overlap Σmin(H,C)/ΣH is the
//     common-mode fraction: 0 without cold signal, growing as the cold
//     amplitude approaches and exceeds the hot one. The effective cold is
//     cold·(1 + overlap) (0 for immune nodes), net = (hot − effective
//     cold)·density, density = degree/average degree clamped to [0.3, 2.0]
//     (total degree: code hubs are hubs by in-degree).
//  6. Gate: sigmoid(6·net) ∈ (0, 1); a candidate's score is multiplied by
//     its gate (net 0, i.e. no evidence either way, halves it; cancelled
//     nodes fall towards 0; clearly hot nodes keep almost all of it).
//
// Over-cancellation: when the hot channel reached at least one
// candidate but no candidate has a positive net signal, the result is
// recomputed without the cold channel and FallbackToHotOnly is set.
//
// Hubs: taken literally, 2-hop immunity would protect the hubs next to the
// seeds — the very nodes XLR exists to cancel — and, relayed through a hub,
// would make most of a code graph immune; and a Jaccard filter over
// neighbourhoods that include hubs rejects every anti-seed that shares the
// hubs, i.e. every anti-seed whose cold signal could cancel them. So hubs
// (degree > HubDegreeRatio × average) are not immune, do not relay
// immunity, and are left out of the Jaccard neighbourhoods.
package xlr

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sync/atomic"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/internal/finite"
	"github.com/m1nd-go/m1nd/core/internal/freelist"
)

// Engine applies XLR. It is immutable after New and safe for concurrent use.
type Engine struct {
	p      Params
	kHot   []float64 // kernel of the hot frequency over the buckets
	kCold  []float64
	sumHot float64 // Σ kHot
	// pool keeps the per-call scratch (≈ 28 bytes a node) across
	// collections: a sync.Pool's was dropped every few activate calls on a
	// large graph (issue 29: on go-std 43 MB of 270 MB allocated in 200
	// calls through the server was this scratch made anew).
	pool freelist.List[*scratch]
	// hubs is the hub set of the last graph queried (hubsOf).
	hubs atomic.Pointer[hubSet]
}

// New returns an engine with validated parameters.
func New(p Params) (*Engine, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	e := &Engine{p: p}
	bw := float64(p.SpectralBandwidth)
	fmax := float64(max(p.FHot, p.FCold)) + 3*bw
	e.kHot = make([]float64, p.SpectralBuckets)
	e.kCold = make([]float64, p.SpectralBuckets)
	for b := range e.kHot {
		f := (float64(b) + 0.5) * fmax / float64(p.SpectralBuckets)
		e.kHot[b] = gauss(f, float64(p.FHot), bw)
		e.kCold[b] = gauss(f, float64(p.FCold), bw)
		e.sumHot += e.kHot[b]
	}
	return e, nil
}

func gauss(x, mu, bw float64) float64 {
	d := (x - mu) / bw
	return math.Exp(-0.5 * d * d)
}

// Params returns the engine's parameters.
func (e *Engine) Params() Params { return e.p }

// NodeDetail explains one candidate's gating.
type NodeDetail struct {
	Node graph.NodeID `json:"node"`
	// Hot and Cold are the strongest arrivals of each channel, in [0, 1].
	Hot  float32 `json:"hot"`
	Cold float32 `json:"cold"`
	// Overlap is the spectral overlap in [0, 1].
	Overlap float32 `json:"overlap"`
	Density float32 `json:"density"`
	// Net is the density-modulated differential; Gate = sigmoid(6·Net).
	Net    float32 `json:"net"`
	Gate   float32 `json:"gate"`
	Immune bool    `json:"immune"`
}

// Stats reports the work done.
type Stats struct {
	HotPulses  int `json:"hot_pulses"`
	ColdPulses int `json:"cold_pulses"`
	// BudgetExhausted is true when a channel hit its half of PulseBudget.
	BudgetExhausted bool `json:"budget_exhausted"`
	ImmuneNodes     int  `json:"immune_nodes"`
	// Suppressed counts candidates with a negative net signal (before any
	// fallback).
	Suppressed       int `json:"suppressed"`
	AntiSeedsScanned int `json:"anti_seeds_scanned"`
}

// Result is the rescored candidate list.
type Result struct {
	// Scores are the candidates, each multiplied by its gate, sorted
	// (score descending, NodeID ascending).
	Scores []graph.Scored `json:"scores"`
	// Details explain Scores, in the same order.
	Details           []NodeDetail   `json:"details"`
	AntiSeeds         []graph.NodeID `json:"anti_seeds"`
	FallbackToHotOnly bool           `json:"xlr_fallback_used"`
	Stats             Stats          `json:"stats"`
}

// scratch holds per-call dense buffers; touched lists make reset O(work).
type scratch struct {
	nodes     []pulseNode
	immune    []uint32
	mark      []uint32
	seen      []uint32
	stamp     uint32
	seenStamp uint32
	runStamp  uint32
	touched   []graph.NodeID
	queue     []pulse
	frontier  []graph.NodeID
	next      []graph.NodeID
	// pos is dedupe's node → index in its output (valid where seen has
	// the current stamp). origins, cands, order, scores and details are
	// a call's lists, kept with the scratch: they were most of XLR's
	// allocation in an activate (issue 29).
	pos     []int32
	origins []graph.Scored
	cands   []graph.Scored
	order   []int32
	scores  []graph.Scored
	details []NodeDetail
	best    []antiCand
}

// Channels index pulseNode.amp.
const (
	hotChannel = iota
	coldChannel
)

// pulseNode is what propagation reads and writes at a node a pulse
// reaches: kept together, as that node lands at random.
type pulseNode struct {
	amp       [2]float32 // strongest arrival per channel
	pendIdx   int32      // queue index of the node's pending pulse
	pendStamp uint32     // pendIdx is valid when == runStamp
}

func (s *scratch) reset(n int) {
	if len(s.nodes) < n {
		s.nodes = make([]pulseNode, n)
		s.immune = make([]uint32, n)
		s.mark = make([]uint32, n)
		s.seen = make([]uint32, n)
		s.pos = make([]int32, n)
		s.stamp = 0
		s.seenStamp = 0
		s.runStamp = 0
	}
	s.stamp++
	if s.stamp == 0 {
		clear(s.immune)
		clear(s.mark)
		s.stamp = 1
	}
}

func (s *scratch) release() {
	for _, n := range s.touched {
		s.nodes[n].amp = [2]float32{}
	}
	s.touched = s.touched[:0]
}

// pulse is a spectral pulse: amplitude, channel frequency, hop count and
// the last three nodes visited (recent[0] is the current node).
type pulse struct {
	amp    float32
	freq   float32
	hops   uint8
	recent [3]graph.NodeID
}

// Apply rescores candidates (typically the merged activation results) for
// the query whose seeds are given. Non-finite scores count as 0; a seed
// without a positive score has amplitude 1. Node IDs outside g are an
// error. With no seeds or no candidates the candidates come back sorted
// and unchanged. Apply is Prepare followed by Field.Gate.
func (e *Engine) Apply(g *graph.Graph, seeds, candidates []graph.Scored) (Result, error) {
	if err := checkNodes(g, seeds, candidates); err != nil {
		return Result{}, err
	}
	if len(candidates) == 0 {
		return e.Prepare(g, nil).Gate(candidates)
	}
	return e.Prepare(g, seeds).Gate(candidates)
}

// checkNodes rejects a nil or unfinalized graph and node IDs outside it.
func checkNodes(g *graph.Graph, lists ...[]graph.Scored) error {
	if g == nil {
		return errors.New("xlr: nil graph")
	}
	if !g.Finalized() {
		return graph.ErrNotFinalized
	}
	for _, list := range lists {
		for _, s := range list {
			if !g.Valid(s.Node) {
				return fmt.Errorf("xlr: node %d out of range (graph has %d nodes)", s.Node, g.NumNodes())
			}
		}
	}
	return nil
}

// Field is what stages 1–4 compute from a query's seeds alone (immunity,
// anti-seeds, the hot and cold channels), so that they can run while the
// candidates are still being ranked; Gate applies stages 5–6 to the
// candidates. A Field holds pooled scratch until Gate or Release.
type Field struct {
	e       *Engine
	g       *graph.Graph
	sc      *scratch
	err     error
	avgDeg  float64
	anti    []graph.NodeID
	stats   Stats
	origins bool
}

// Prepare runs stages 1–4 for seeds on g (see Apply for how seeds are
// read). Errors are reported by Gate.
func (e *Engine) Prepare(g *graph.Graph, seeds []graph.Scored) *Field {
	return e.PrepareWith(g, nil, seeds)
}

// PrepareWith is Prepare reading incoming edges from imp, g's packed
// reverse adjacency (graph.NewImporters), when imp describes g as it is
// now; otherwise, and when imp is nil, it reads the CSR. The result is
// the same either way.
func (e *Engine) PrepareWith(g *graph.Graph, imp *graph.Importers, seeds []graph.Scored) *Field {
	f := &Field{e: e, g: g}
	if f.err = checkNodes(g, seeds); f.err != nil {
		return f
	}
	sc, ok := e.pool.Get()
	if !ok {
		sc = &scratch{}
	}
	sc.reset(g.NumNodes())
	origins := sc.dedupe(sc.origins, seeds, true)
	sc.origins = origins
	if len(origins) == 0 {
		e.pool.Put(sc)
		return f
	}
	f.origins = true
	f.sc = sc

	n := g.NumNodes()
	if n > 0 {
		f.avgDeg = 2 * float64(g.NumEdges()) / float64(n)
	}
	hub := e.hubsOf(g, f.avgDeg)

	if !imp.For(g) {
		imp = nil
	}
	// 2. Immunity.
	f.stats.ImmuneNodes = e.immunity(g, sc, origins, hub)
	// 1. Anti-seeds.
	f.anti, f.stats.AntiSeedsScanned = e.antiSeeds(g, sc, origins, hub)
	// 3–4. Hot and cold propagation.
	half := e.p.PulseBudget / 2
	var exh bool
	f.stats.HotPulses, exh = e.propagate(g, imp, sc, hotChannel, origins, e.p.FHot, half)
	f.stats.BudgetExhausted = exh
	if len(f.anti) > 0 {
		cold := make([]graph.Scored, len(f.anti))
		for i, a := range f.anti {
			cold[i] = graph.Scored{Node: a, Score: 1}
		}
		f.stats.ColdPulses, exh = e.propagate(g, imp, sc, coldChannel, cold, e.p.FCold, e.p.PulseBudget-half)
		f.stats.BudgetExhausted = f.stats.BudgetExhausted || exh
	}
	return f
}

// Release returns the field's scratch to the engine's pool (Gate does it
// too); the field cannot gate afterwards. Safe to call more than once.
func (f *Field) Release() {
	if f.sc != nil {
		f.sc.release()
		f.e.pool.Put(f.sc)
		f.sc = nil
	}
}

// Gate applies stages 5–6 to the candidates and releases the field.
func (f *Field) Gate(candidates []graph.Scored) (Result, error) {
	defer f.Release()
	var res Result
	if f.err != nil {
		return res, f.err
	}
	if err := checkNodes(f.g, candidates); err != nil {
		return res, err
	}
	if !f.origins || len(candidates) == 0 {
		res.Scores = dedupe(candidates, false)
		graph.SortScored(res.Scores)
		return res, nil
	}
	if f.sc == nil {
		return res, errors.New("xlr: field already released")
	}
	e, g, sc, avgDeg := f.e, f.g, f.sc, f.avgDeg
	cands := sc.dedupe(sc.cands, candidates, false)
	sc.cands = cands
	res.AntiSeeds, res.Stats = f.anti, f.stats

	// 5–6. Differential, density, gate.
	res.Details = slices.Grow(sc.details[:0], len(cands))[:len(cands)]
	sc.details = res.Details
	anyHot, anyPositive := false, false
	for i, c := range cands {
		d := e.detail(g, sc, c.Node, avgDeg, false)
		res.Details[i] = d
		anyHot = anyHot || d.Hot > 0
		anyPositive = anyPositive || d.Net > 0
		if d.Net < 0 {
			res.Stats.Suppressed++
		}
	}
	if anyHot && !anyPositive {
		res.FallbackToHotOnly = true
		for i, c := range cands {
			res.Details[i] = e.detail(g, sc, c.Node, avgDeg, true)
		}
	}
	res.Scores = slices.Grow(sc.scores[:0], len(cands))[:len(cands)]
	sc.scores = res.Scores
	for i, c := range cands {
		res.Scores[i] = graph.Scored{Node: c.Node, Score: graph.Finite(c.Score * res.Details[i].Gate)}
	}
	// Sort scores and details together (into the two lists the result
	// owns; the unsorted ones are the scratch's).
	idx := sc.order[:0]
	for i := range cands {
		idx = append(idx, int32(i))
	}
	sc.order = idx
	slices.SortFunc(idx, func(a, b int32) int { return graph.CompareScored(res.Scores[a], res.Scores[b]) })
	scores := make([]graph.Scored, len(idx))
	details := make([]NodeDetail, len(idx))
	for i, j := range idx {
		scores[i], details[i] = res.Scores[j], res.Details[j]
	}
	res.Scores, res.Details = scores, details
	return res, nil
}

// dedupe keeps each node once with its largest finite score. For seeds a
// non-positive score becomes 1 and scores are capped at 1.
func dedupe(in []graph.Scored, seeds bool) []graph.Scored {
	out := make([]graph.Scored, 0, len(in))
	pos := make(map[graph.NodeID]int, len(in))
	for _, s := range in {
		v := dedupeScore(s.Score, seeds)
		if i, ok := pos[s.Node]; ok {
			out[i].Score = max(out[i].Score, v)
			continue
		}
		pos[s.Node] = len(out)
		out = append(out, graph.Scored{Node: s.Node, Score: v})
	}
	return out
}

// dedupeScore is the score dedupe keeps for one input: finite; for a
// seed in (0, 1], a non-positive one counting as 1 (a seed given without a
// weight); for a candidate, never negative.
func dedupeScore(score float32, seeds bool) float32 {
	v := graph.Finite(score)
	if seeds {
		if v <= 0 {
			return 1
		}
		return min(v, 1)
	}
	if v < 0 {
		return 0
	}
	return v // (a -0 stays as it came)
}

// dedupe is the package's dedupe into dst, with the scratch's seen and
// pos arrays in place of a map (in's nodes must be in the graph).
func (s *scratch) dedupe(dst, in []graph.Scored, seeds bool) []graph.Scored {
	out := dst[:0]
	st := s.nextSeen()
	for _, x := range in {
		v := dedupeScore(x.Score, seeds)
		if s.seen[x.Node] == st {
			i := s.pos[x.Node]
			out[i].Score = max(out[i].Score, v)
			continue
		}
		s.seen[x.Node], s.pos[x.Node] = st, int32(len(out))
		out = append(out, graph.Scored{Node: x.Node, Score: v})
	}
	return out
}

// nextSeen returns a fresh stamp for seen.
func (s *scratch) nextSeen() uint32 {
	s.seenStamp++
	if s.seenStamp == 0 {
		clear(s.seen)
		s.seenStamp = 1
	}
	return s.seenStamp
}

// detail computes stages 5 and 6 for one node.
func (e *Engine) detail(g *graph.Graph, sc *scratch, v graph.NodeID, avgDeg float64, hotOnly bool) NodeDetail {
	d := NodeDetail{Node: v, Hot: sc.nodes[v].amp[hotChannel], Cold: sc.nodes[v].amp[coldChannel], Immune: sc.immune[v] == sc.stamp}
	d.Overlap = float32(e.overlap(float64(d.Hot), float64(d.Cold)))
	eff := float64(d.Cold) * (1 + float64(d.Overlap))
	if d.Immune || hotOnly {
		eff = 0
	}
	d.Density = 1
	if avgDeg > 0 {
		d.Density = finite.Clamp(float32(float64(g.Degree(v))/avgDeg), e.p.DensityFloor, e.p.DensityCap)
	}
	d.Net = graph.Finite(float32((float64(d.Hot) - eff) * float64(d.Density)))
	d.Gate = sigmoid(float64(e.p.SigmoidSteepness) * float64(d.Net))
	return d
}

// overlap is Σ_b min(h·Kh[b], c·Kc[b]) / Σ_b h·Kh[b].
func (e *Engine) overlap(h, c float64) float64 {
	if c <= 0 {
		return 0
	}
	if h <= 0 {
		return 1
	}
	s := 0.0
	for b := range e.kHot {
		s += min(h*e.kHot[b], c*e.kCold[b])
	}
	return min(s/(h*e.sumHot), 1)
}

// sigmoid is the logistic function of the gate
// (docs/design.md#xlr-noise-cancellation), its exponent clamped to ±20.
func sigmoid(x float64) float32 {
	x = max(-20, min(20, x))
	return float32(1 / (1 + math.Exp(-x)))
}

// immunity marks nodes within ImmunityHops of the seeds (hubs excluded,
// and not relaying) and returns how many were marked.
func (e *Engine) immunity(g *graph.Graph, sc *scratch, seeds []graph.Scored, hub *hubSet) int {
	count := 0
	sc.frontier = sc.frontier[:0]
	for _, s := range seeds {
		if sc.immune[s.Node] != sc.stamp {
			sc.immune[s.Node] = sc.stamp
			sc.frontier = append(sc.frontier, s.Node)
			count++
		}
	}
	budget := e.p.ImmunityBudget
	for hop := 0; hop < e.p.ImmunityHops && len(sc.frontier) > 0; hop++ {
		sc.next = sc.next[:0]
		for _, u := range sc.frontier {
			if hop > 0 && hub.has(u) {
				continue
			}
			// Out- then in-neighbours, as forNeighbors visits them,
			// written out: this is the loop of the BFS.
			lo, hi := g.OutRange(u)
			for ed := lo; ed < hi; ed++ {
				if !sc.immunize(g.Target(ed), hub, &count, budget) {
					return count
				}
			}
			ilo, ihi := g.InRange(u)
			for p := ilo; p < ihi; p++ {
				if !sc.immunize(g.InSource(p), hub, &count, budget) {
					return count
				}
			}
		}
		sc.frontier, sc.next = sc.next, sc.frontier
	}
	return count
}

// immunize marks v immune and queues it for the next hop unless it is
// immune already or a hub; it reports false when the budget is spent.
func (sc *scratch) immunize(v graph.NodeID, hub *hubSet, count *int, budget int) bool {
	if sc.immune[v] == sc.stamp || hub.has(v) {
		return true
	}
	if *count >= budget {
		return false
	}
	sc.immune[v] = sc.stamp
	sc.next = append(sc.next, v)
	*count++
	return true
}

// forNeighbors calls f for each out- then in-neighbour of u until f
// returns false; it reports whether it ran to the end.
func forNeighbors(g *graph.Graph, u graph.NodeID, f func(graph.NodeID) bool) bool {
	lo, hi := g.OutRange(u)
	for e := lo; e < hi; e++ {
		if !f(g.Target(e)) {
			return false
		}
	}
	ilo, ihi := g.InRange(u)
	for p := ilo; p < ihi; p++ {
		if !f(g.InSource(p)) {
			return false
		}
	}
	return true
}

// antiSeeds implements stage 1 (see the package documentation).
func (e *Engine) antiSeeds(g *graph.Graph, sc *scratch, seeds []graph.Scored, hub *hubSet) ([]graph.NodeID, int) {
	n := g.NumNodes()
	// Seed neighbourhood (hubs excluded), marked with the scratch stamp.
	seedNeigh := 0
	avgSeedDeg := 0.0
	h := uint64(0x9e3779b97f4a7c15)
	for _, s := range seeds {
		avgSeedDeg += float64(g.Degree(s.Node))
		h = (h ^ uint64(s.Node)) * 0x100000001b3
		forNeighbors(g, s.Node, func(v graph.NodeID) bool {
			if !hub.has(v) && sc.mark[v] != sc.stamp {
				sc.mark[v] = sc.stamp
				seedNeigh++
			}
			return true
		})
	}
	avgSeedDeg /= float64(len(seeds))

	best := sc.best[:0]
	scanned := 0
	start := int(h % uint64(n))
	for i := 0; i < n && scanned < e.p.AntiSeedScanBudget; i++ {
		v := graph.NodeID((start + i) % n)
		if sc.immune[v] == sc.stamp || hub.has(v) {
			continue
		}
		deg := g.Degree(v)
		if deg == 0 {
			continue
		}
		scanned++
		ratio := 1.0
		if avgSeedDeg > 0 {
			ratio = float64(deg) / avgSeedDeg
			if ratio < float64(e.p.AntiSeedMinDegreeRatio) {
				continue
			}
		}
		// Jaccard of v's non-hub neighbourhood with the seeds'.
		sc.nextSeen()
		inter, size := 0, 0
		forNeighbors(g, v, func(u graph.NodeID) bool {
			if hub.has(u) || sc.seen[u] == sc.seenStamp {
				return true
			}
			sc.seen[u] = sc.seenStamp
			size++
			if sc.mark[u] == sc.stamp {
				inter++
			}
			return true
		})
		union := size + seedNeigh - inter
		jac := 0.0
		if union > 0 {
			jac = float64(inter) / float64(union)
		}
		if jac > float64(e.p.AntiSeedMaxJaccard) {
			continue
		}
		best = keepClosest(best, antiCand{v, math.Abs(math.Log(ratio))}, e.p.AntiSeeds)
	}
	sc.best = best
	out := make([]graph.NodeID, len(best))
	for i, c := range best {
		out[i] = c.node
	}
	return out, scanned
}

// antiCand is an anti-seed candidate: close is how far its degree is from
// the seeds' (|ln ratio|).
type antiCand struct {
	node  graph.NodeID
	close float64
}

// closer orders anti-seed candidates: closest degree first, then node.
func closer(a, b antiCand) bool {
	return a.close < b.close || a.close == b.close && a.node < b.node
}

// keepClosest inserts c into best, sorted by closer and cut to k: the k
// first of all candidates sorted, without keeping (and sorting) the up to
// AntiSeedScanBudget of them.
func keepClosest(best []antiCand, c antiCand, k int) []antiCand {
	if len(best) == k && !closer(c, best[k-1]) {
		return best
	}
	if len(best) < k {
		best = append(best, c)
	} else {
		best[k-1] = c
	}
	for i := len(best) - 1; i > 0 && closer(best[i], best[i-1]); i-- {
		best[i], best[i-1] = best[i-1], best[i]
	}
	return best
}

// propagate spreads pulses of one channel (hotChannel or coldChannel) from
// origins into the nodes' amp (stages 3 and 4) and returns the number of pulses sent and whether the budget ran
// out.
func (e *Engine) propagate(g *graph.Graph, imp *graph.Importers, sc *scratch, ch int, origins []graph.Scored, freq float32, budget int) (int, bool) {
	q := sc.queue[:0]
	sent := 0
	sc.runStamp++
	if sc.runStamp == 0 {
		for i := range sc.nodes {
			sc.nodes[i].pendStamp = 0
		}
		sc.runStamp = 1
	}
	run := sc.runStamp
	nodes := sc.nodes
	deposit := func(v graph.NodeID, a float32) {
		if nodes[v].amp == [2]float32{} {
			sc.touched = append(sc.touched, v)
		}
		nodes[v].amp[ch] = a
	}
	for _, o := range origins {
		if sent >= budget {
			sc.queue = q
			return sent, true
		}
		if o.Score > nodes[o.Node].amp[ch] {
			deposit(o.Node, o.Score)
			q = append(q, pulse{amp: o.Score, freq: freq, recent: [3]graph.NodeID{o.Node, graph.NoNode, graph.NoNode}})
			sent++
		}
	}
	exhausted := false
	wcap := graph.WeightCap
	decay, minAmp, inhib := e.p.Decay, e.p.MinAmplitude, e.p.InhibitoryAttenuation
	// Without inhibitory edges an out-edge's polarity need not be read.
	plain := imp != nil && !imp.HasInhibitory()
	for head := 0; head < len(q) && !exhausted; head++ {
		p := q[head]
		if int(p.hops) >= e.p.MaxHops {
			continue
		}
		u := p.recent[0]
		lo, hi := g.OutRange(u)
		ilo, ihi := g.InRange(u)
		nOut := int(hi - lo)
		var in []graph.Importer
		if imp != nil {
			in = imp.Flagged(u)
		}
		for k, total := 0, nOut+int(ihi-ilo); k < total; k++ {
			// Out-edges first, then in-edges, in CSR order.
			var v graph.NodeID
			var edge graph.EdgeIdx
			var inhibitory bool
			switch {
			case k < nOut:
				edge = lo + graph.EdgeIdx(k)
				v, inhibitory = g.Target(edge), !plain && g.Inhibitory(edge)
			case in != nil:
				im := in[k-nOut]
				v, edge = im.Source, im.Edge&^graph.InhibitoryBit
				inhibitory = im.Edge&graph.InhibitoryBit != 0
			default:
				pos := ilo + uint32(k-nOut)
				v, edge = g.InSource(pos), g.InEdge(pos)
				inhibitory = g.Inhibitory(edge)
			}
			if v == p.recent[0] || v == p.recent[1] || v == p.recent[2] {
				continue
			}
			w := g.Weight(edge) // finite by construction of the graph
			if !(w > 0) {
				continue
			}
			a := p.amp * min(w, wcap) * decay
			if a > 1 {
				a = 1
			}
			if inhibitory {
				a *= inhib
			}
			if a < minAmp || a <= nodes[v].amp[ch] {
				continue
			}
			np := pulse{amp: a, freq: p.freq, hops: p.hops + 1, recent: [3]graph.NodeID{v, p.recent[0], p.recent[1]}}
			if nodes[v].pendStamp == run {
				if i := int(nodes[v].pendIdx); i > head && q[i].hops == np.hops {
					// v already waits in the next layer: the stronger
					// arrival replaces that pulse instead of adding one.
					deposit(v, a)
					q[i] = np
					continue
				}
			}
			if sent >= budget {
				exhausted = true
				break
			}
			deposit(v, a)
			nodes[v].pendStamp, nodes[v].pendIdx = run, int32(len(q))
			q = append(q, np)
			sent++
		}
	}
	sc.queue = q[:0]
	return sent, exhausted
}
