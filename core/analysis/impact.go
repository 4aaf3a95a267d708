package analysis

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/internal/finite"
)

// Direction selects which way Why may walk an edge.
type Direction uint8

const (
	// Forward walks edges source → target.
	Forward Direction = iota
	// Reverse walks edges target → source.
	Reverse
	// Both walks edges either way.
	Both
)

// String returns "forward", "reverse" or "both".
func (d Direction) String() string {
	switch d {
	case Forward:
		return "forward"
	case Reverse:
		return "reverse"
	case Both:
		return "both"
	}
	return fmt.Sprintf("direction(%d)", uint8(d))
}

// ParseDirection accepts "forward", "reverse" or "both" in any case
// ("" is both, "backward" and "upstream" mean reverse).
func ParseDirection(s string) (Direction, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "forward", "downstream":
		return Forward, nil
	case "reverse", "backward", "upstream":
		return Reverse, nil
	case "", "both", "bidirectional":
		return Both, nil
	}
	return 0, fmt.Errorf("unknown direction %q (want \"forward\", \"reverse\" or \"both\")", s)
}

func (d Direction) valid() bool { return d <= Both }

// ImpactDirection is the question Impact answers.
type ImpactDirection uint8

const (
	// Dependents: what breaks if the node changes — everything that
	// depends on it, directly or through other dependents: "what does this
	// affect?", also spelled "forward" (docs/design.md#analyses).
	Dependents ImpactDirection = iota
	// Dependencies: what the node depends on, directly or transitively.
	// "What affects this?", also spelled "reverse".
	Dependencies
	// BothWays: the union, each node tagged with the way it was reached.
	BothWays
)

// String returns "dependents", "dependencies" or "both".
func (d ImpactDirection) String() string {
	switch d {
	case Dependents:
		return "dependents"
	case Dependencies:
		return "dependencies"
	case BothWays:
		return "both"
	}
	return fmt.Sprintf("impact_direction(%d)", uint8(d))
}

// ParseImpactDirection accepts "dependents" (also "", "forward",
// "downstream", "affects": "what does this affect?"),
// "dependencies" (also "reverse", "upstream": "what affects this?") and
// "both", in any case (docs/design.md#analyses).
func ParseImpactDirection(s string) (ImpactDirection, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "dependents", "forward", "downstream", "affects", "callers", "importers":
		return Dependents, nil
	case "dependencies", "reverse", "upstream", "backward", "depends_on":
		return Dependencies, nil
	case "both", "bidirectional":
		return BothWays, nil
	}
	return 0, fmt.Errorf("unknown direction %q (want \"dependents\" — what breaks if this changes, the default — \"dependencies\" — what this depends on — or \"both\")", s)
}

// Level is the granularity of an impact answer.
type Level uint8

const (
	// LevelAuto answers in files for a file, directory or package, and
	// in entities (functions, types, methods) for an entity.
	LevelAuto Level = iota
	// LevelFile lists files; each counts the entities affected in it.
	LevelFile
	// LevelEntity lists entities (and files whose module-level code is
	// affected).
	LevelEntity
)

// String returns "auto", "file" or "entity".
func (l Level) String() string {
	switch l {
	case LevelFile:
		return "file"
	case LevelEntity:
		return "entity"
	}
	return "auto"
}

// ParseLevel accepts "", "auto", "file" or "entity".
func ParseLevel(s string) (Level, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "auto":
		return LevelAuto, nil
	case "file", "files":
		return LevelFile, nil
	case "entity", "entities", "symbol", "symbols":
		return LevelEntity, nil
	}
	return 0, fmt.Errorf("unknown level %q (want \"file\", \"entity\" or \"auto\")", s)
}

// ImpactParams configures Impact.
type ImpactParams struct {
	Direction ImpactDirection
	Level     Level
	// MaxHops bounds how far dependents of dependents are followed
	// (default 3; 1 … 20).
	MaxHops int
	// HopDecay multiplies the signal per hop, on top of the relation's
	// strength and the edge's structural weight. (0, 1].
	HopDecay float32
	// Threshold: weaker signals stop. (0, 1).
	Threshold float32
	// IncludeCausalChains adds the strongest propagation paths.
	IncludeCausalChains bool
	// MaxChains bounds the chains (10).
	MaxChains int
	// TopK bounds BlastRadius (0: every node reached).
	TopK int
	// MaxVia bounds the usages listed per node (3).
	MaxVia int
	// EdgeBudget caps the edges examined.
	EdgeBudget int
	// Keep, when set, limits the answer to the nodes it keeps (a
	// repository or path scope): BlastRadius, ByHop, Affected and the
	// energy count those only. The walk still crosses the others, so a
	// dependent in scope reached through one outside it is listed.
	Keep func(graph.NodeID) bool
}

// DefaultImpactParams: dependents, automatic level, 3 hops, decay 0.85 per
// hop, threshold 0.01, causal chains on, 3 usages per node.
func DefaultImpactParams() ImpactParams {
	return ImpactParams{Direction: Dependents, MaxHops: 3, HopDecay: 0.85, Threshold: 0.01, IncludeCausalChains: true, MaxChains: 10, MaxVia: 3, EdgeBudget: 2_000_000}
}

func (p ImpactParams) validate() error {
	if p.Direction > BothWays {
		return fmt.Errorf("invalid direction %v", p.Direction)
	}
	if p.Level > LevelEntity {
		return fmt.Errorf("invalid level %v", p.Level)
	}
	if p.MaxHops < 1 || p.MaxHops > 20 {
		return fmt.Errorf("max_hops must be in [1, 20], got %d", p.MaxHops)
	}
	if _, err := finite.UnitInterval("hop_decay", p.HopDecay); err != nil {
		return err
	}
	if !graph.IsFinite(p.Threshold) || p.Threshold <= 0 || p.Threshold >= 1 {
		return fmt.Errorf("threshold must be in (0, 1), got %v", p.Threshold)
	}
	if p.MaxChains < 0 || p.TopK < 0 || p.MaxVia < 0 || p.EdgeBudget < 1 {
		return errors.New("max_chains, top_k and max_via must be ≥ 0, edge_budget ≥ 1")
	}
	return nil
}

// Usage is one dependency edge an impact travels: Dependent uses
// Dependency through Relation, read as the edge is stored ("f calls g").
type Usage struct {
	Dependent  graph.NodeID `json:"dependent"`
	Dependency graph.NodeID `json:"dependency"`
	Relation   string       `json:"relation"`
}

// ImpactNode is one node of the blast radius.
type ImpactNode struct {
	Node graph.NodeID `json:"node"`
	// SignalStrength is in (0, 1]: the strongest signal that reached the
	// node (for a file, the noisy-or of its affected entities).
	SignalStrength float32 `json:"signal_strength"`
	// HopDistance is the fewest dependency hops from the changed node.
	HopDistance int `json:"hop_distance"`
	// Direction is the way it was reached (Dependents or Dependencies).
	Direction ImpactDirection `json:"direction"`
	// Via lists the strongest usages that connect it, at most MaxVia.
	Via []Usage `json:"via,omitempty"`
	// Entities counts, at file level, the file's affected nodes.
	Entities int `json:"entities,omitempty"`
}

// Chain is a path from a source: nodes, the relation of each hop (Reversed
// marks hops taken against the edge's direction) and its cumulative
// strength.
type Chain struct {
	Nodes              []graph.NodeID `json:"path"`
	Relations          []string       `json:"relations"`
	Reversed           []bool         `json:"reversed"`
	CumulativeStrength float32        `json:"cumulative_strength"`
}

// ImpactResult is the blast radius of a node.
type ImpactResult struct {
	Source    graph.NodeID `json:"source"`
	Direction string       `json:"direction"`
	Level     string       `json:"level"`
	// Scope counts the nodes the change includes: the source and what it
	// contains. They are never part of the blast radius.
	Scope int `json:"scope"`
	// BlastRadius is sorted by hop distance, then signal (descending; a
	// test ranks after production dependents within 0.05 of it), then
	// NodeID: direct dependents first.
	BlastRadius []ImpactNode `json:"blast_radius"`
	// ByHop[h-1] counts the nodes at hop distance h, before TopK.
	ByHop []int `json:"by_hop"`
	// TotalEnergy is the sum of every reached node's signal.
	TotalEnergy    float32 `json:"total_energy"`
	MaxHopsReached int     `json:"max_hops_reached"`
	CausalChains   []Chain `json:"causal_chains,omitempty"`
	// Affected counts every node reached, before TopK cut BlastRadius.
	Affected int `json:"affected"`
	// Truncated is true when EdgeBudget stopped the propagation.
	Truncated    bool `json:"truncated,omitempty"`
	EdgesVisited int  `json:"edges_visited"`
}

// Impact answers "what breaks if source changes" (Dependents, the
// default) or "what does source rely on" (Dependencies) by following
// dependency edges only — imports, calls, references, inheritance, tests —
// never containment, co-change or package membership. Its phases:
//
//  1. scope: the change is the source and everything it contains (a
//     file's functions, a class's methods, a directory's files);
//  2. propagate: layer by layer, every node with a dependency edge into
//     the affected set is affected, with signal = previous signal ×
//     HopDecay × relation strength × structural edge weight (the best
//     signal per node, within MaxHops; directories and packages are never
//     passed through);
//  3. rollup: at file level each affected entity counts for its file;
//  4. rank: direct dependents first, then by signal (production before
//     tests of near-equal signal), then by NodeID;
//  5. chains: the strongest paths to the farthest and strongest nodes.
//
// Impact reads the weights ingest set, not learned ones: it answers a
// structural question, the same whatever agents taught the graph.
func Impact(g *graph.Graph, source graph.NodeID, p ImpactParams) (ImpactResult, error) {
	res := ImpactResult{Source: source, Direction: p.Direction.String()}
	if err := checkGraph(g); err != nil {
		return res, err
	}
	if err := p.validate(); err != nil {
		return res, err
	}
	if !g.Valid(source) {
		return res, fmt.Errorf("analysis: node %d out of range (graph has %d nodes)", source, g.NumNodes())
	}
	sc := impactScratchShelf.get(g)
	defer impactScratchShelf.put(g, sc)
	run := &impactRun{g: g, p: p, source: source, rels: newRelTable(g), res: &res, roll: &sc.roll}
	run.level = p.Level
	if run.level == LevelAuto {
		run.level = LevelEntity
		if t := g.Type(source); t == graph.File || isContainer(g, source) {
			run.level = LevelFile
		}
	}
	res.Level = run.level.String()
	dirs := []ImpactDirection{p.Direction}
	if p.Direction == BothWays {
		dirs = []ImpactDirection{Dependents, Dependencies}
	}
	for i, d := range dirs {
		w := &impactWalk{impactRun: run, s: &sc.walks[i], dir: d}
		w.scope()
		w.propagate()
		run.walks = append(run.walks, w)
	}
	res.Scope = len(run.walks[0].s.scope)
	run.roll.reset(g.NumNodes())
	defer run.roll.done(run.walks)
	run.rollup()
	top, far := run.rank()
	if p.IncludeCausalChains && p.MaxChains > 0 {
		res.CausalChains = run.chains(top, far)
	}
	if p.TopK > 0 && len(top) > p.TopK {
		top = top[:p.TopK]
	}
	res.BlastRadius = run.list(top)
	return res, nil
}

// impactRun is one Impact call: the walks (one per direction) and what
// the rollup made of them.
type impactRun struct {
	g      *graph.Graph
	p      ImpactParams
	source graph.NodeID
	level  Level
	rels   *relTable
	res    *ImpactResult
	walks  []*impactWalk
	roll   *rollScratch
}

type endRef struct {
	walk *impactWalk
	node graph.NodeID
}

// impactWalk is the propagation in one direction.
type impactWalk struct {
	*impactRun
	s   *walkScratch
	dir ImpactDirection
}

// scope marks the source and everything it contains (breadth first over
// containment edges), and what a declaration in it declares (a stub's
// module), as the change; parents record the path for chains.
func (w *impactWalk) scope() {
	g, s := w.g, w.s
	s.reset(g.NumNodes())
	s.inScope[w.source] = s.cur
	s.parent[w.source] = graph.NoNode
	s.scope = append(s.scope[:0], w.source)
	for i := 0; i < len(s.scope); i++ {
		u := s.scope[i]
		lo, hi := g.OutRange(u)
		for e := lo; e < hi; e++ {
			v := g.Target(e)
			if k := w.rels.of(e).kind; g.IsMirror(e) || s.inScope[v] == s.cur || (k != Contains && k != Declares) {
				continue
			}
			s.inScope[v] = s.cur
			s.parent[v], s.pedge[v], s.prev[v] = u, e, false
			s.scope = append(s.scope, v)
		}
	}
}

// propagate relaxes signals layer by layer (hop-limited Bellman–Ford) from
// the scope along dependency edges in the walk's direction.
func (w *impactWalk) propagate() {
	g, s, p := w.g, w.s, w.p
	cur := s.cur
	s.frontier = s.frontier[:0]
	for _, u := range s.scope {
		s.sig[u] = 1
		s.frontier = append(s.frontier, u)
	}
	for layer := 1; layer <= p.MaxHops && len(s.frontier) > 0 && !w.res.Truncated; layer++ {
		s.fsig = s.fsig[:0]
		for _, u := range s.frontier {
			s.fsig = append(s.fsig, s.sig[u])
		}
		s.next = s.next[:0]
		if s.lstamp++; s.lstamp == 0 {
			clear(s.inNext)
			s.lstamp = 1
		}
		for i, u := range s.frontier {
			su := s.fsig[i]
			ok := w.dependencyEdges(u, func(v graph.NodeID, e graph.EdgeIdx, rev bool, f float32) {
				if s.inScope[v] == cur || isContainer(g, v) {
					return
				}
				sv := su * f * p.HopDecay
				if sv < p.Threshold {
					return
				}
				if s.stamp[v] != cur {
					s.stamp[v], s.sig[v], s.hop[v] = cur, 0, uint8(layer)
					s.touched = append(s.touched, v)
				}
				if sv <= s.sig[v] {
					return
				}
				s.sig[v], s.parent[v], s.pedge[v], s.prev[v] = sv, u, e, rev
				if s.inNext[v] != s.lstamp {
					s.inNext[v] = s.lstamp
					s.next = append(s.next, v)
				}
			})
			if !ok {
				break
			}
		}
		s.frontier, s.next = s.next, s.frontier
	}
}

// dependencyEdges calls f for every node the walk reaches from u in one
// hop: for Dependents, the sources of DependsOn edges into u and the
// targets of DependedOnBy edges out of u; for Dependencies the opposite.
// rev says the hop goes against the stored edge. It reports false when
// the edge budget ran out.
func (w *impactWalk) dependencyEdges(u graph.NodeID, f func(v graph.NodeID, e graph.EdgeIdx, rev bool, strength float32)) bool {
	g := w.g
	wantIn, wantOut := DependsOn, DependedOnBy
	if w.dir == Dependencies {
		wantIn, wantOut = DependedOnBy, DependsOn
	}
	visit := func(v graph.NodeID, e graph.EdgeIdx, rev bool, want RelKind) bool {
		if w.res.EdgesVisited++; w.res.EdgesVisited > w.p.EdgeBudget {
			w.res.Truncated = true
			return false
		}
		if g.IsMirror(e) || v == u {
			return true
		}
		if ri := w.rels.of(e); ri.kind == want {
			if st := ri.strength * structuralWeight(g, e); st > 0 {
				f(v, e, rev, st)
			}
		}
		return true
	}
	lo, hi := g.InRange(u)
	for pos := lo; pos < hi; pos++ {
		if !visit(g.InSource(pos), g.InEdge(pos), true, wantIn) {
			return false
		}
	}
	olo, ohi := g.OutRange(u)
	for e := olo; e < ohi; e++ {
		if !visit(g.Target(e), e, false, wantOut) {
			return false
		}
	}
	return true
}

// rollup turns the walks' affected nodes into the nodes that may be
// listed: each entity itself at entity level, its file at file level (a
// file in the change's scope is never listed). A node reached both ways
// keeps the closer, then stronger, reach. The aggregates live in the
// node-indexed roll scratch; ranks gets one record per aggregate Keep
// keeps.
func (r *impactRun) rollup() {
	ro := r.roll
	for wi, w := range r.walks {
		for i, v := range w.s.touched {
			key := v
			if r.level == LevelFile {
				if key = r.unit(v); w.s.inScope[key] == w.s.cur {
					continue
				}
			}
			h, sv := w.s.hop[v], w.s.sig[v]
			switch {
			case ro.hop[key] == 0:
				ro.keys = append(ro.keys, key)
				fallthrough
			case h < ro.hop[key] || (h == ro.hop[key] && int(ro.walk[key]) != wi && sv > r.bestSig(key)):
				ro.hop[key], ro.walk[key], ro.miss[key], ro.best[key], ro.from[key] = h, uint8(wi), 1, graph.NoNode, int32(i)
				fallthrough
			case h == ro.hop[key] && int(ro.walk[key]) == wi:
				ro.miss[key] *= 1 - float64(sv)
				if b := ro.best[key]; b == graph.NoNode || sv > w.s.sig[b] || (sv == w.s.sig[b] && v < b) {
					ro.best[key] = v
				}
			}
			ro.ents[key]++
		}
	}
	ro.ranks = ro.ranks[:0]
	for _, k := range ro.keys {
		if r.p.Keep != nil && !r.p.Keep(k) {
			continue
		}
		sig := graph.Finite(float32(1 - ro.miss[k]))
		ro.ranks = append(ro.ranks, impactRank{node: k, hop: ro.hop[k], sig: sig, miss: ro.miss[k], key: shown(sig)})
	}
}

// unit is the file holding v (units.of), memoised in the roll scratch.
func (r *impactRun) unit(v graph.NodeID) graph.NodeID {
	if u := r.roll.unit[v]; u != 0 {
		return u - 1
	}
	u := unitOf(r.g, r.rels, v)
	r.roll.unit[v] = u + 1
	return u
}

// bestSig is the signal of key's strongest member.
func (r *impactRun) bestSig(key graph.NodeID) float32 {
	if b := r.roll.best[key]; b != graph.NoNode {
		return r.walks[r.roll.walk[key]].s.sig[b]
	}
	return 0
}

// impactRank is what ranks an aggregate: hop, then signal as shown (a
// test's lowered by testMargin), then production before tests, then the
// unrounded miss Π(1 − signal) (a file's signal saturates at 1), then
// NodeID. Until known, the record ranks as production (see settle).
type impactRank struct {
	key   float64
	miss  float64
	node  graph.NodeID
	sig   float32
	hop   uint8
	test  bool
	known bool
}

// settle finds out, once, whether x is a test, and lowers its key by
// testMargin if so. Reading the tags and the path is most of a record's
// cost, and a record that would not be listed even as production (most:
// of ≈ 2,000 affected files 15 are listed) never needs it.
func (r *impactRun) settle(x *impactRank) {
	if x.known {
		return
	}
	x.known = true
	if x.test = r.g.HasTag(x.node, "test") || IsTestPath(r.g.SourcePath(x.node)); x.test {
		x.key -= testMargin
	}
}

func compareRank(a, b impactRank) int {
	switch {
	case a.hop != b.hop:
		return int(a.hop) - int(b.hop)
	case a.key != b.key:
		return cmp.Compare(b.key, a.key)
	case a.test != b.test:
		if b.test {
			return -1
		}
		return 1
	case a.miss != b.miss:
		return cmp.Compare(a.miss, b.miss)
	}
	return cmp.Compare(a.node, b.node)
}

// rank counts the aggregates (ByHop, energy, Affected) and orders the
// ones an answer shows: direct first, then signal as answers show it
// (three decimals), a test counting testMargin lower, then production
// before tests, then the stronger unrounded evidence, then NodeID. It
// returns the first max(TopK, MaxChains) in that order (all when TopK is
// 0) and the first MaxChains at two hops or more, for chains. A bounded
// heap picks them (of ≈ 2,000 affected files 15 are listed) unless the
// energy, a float64 sum in that order, could depend on it.
//
// Why the margin: a file's signal is the noisy-or of its affected entities,
// so above ~0.95 it counts call sites, not how much breaks — a test file
// with forty calls of Config shows 1.000, the server that runs it 0.993.
// What breaks (production) comes before what checks it (tests) unless the
// test's evidence is clearly stronger. Shifting one class by a constant
// keeps the order total and deterministic.
func (r *impactRun) rank() (top, far []impactRank) {
	ro, res := r.roll, r.res
	nodes := ro.ranks
	for _, n := range nodes {
		h := int(n.hop)
		res.MaxHopsReached = max(res.MaxHopsReached, h)
		for len(res.ByHop) < h {
			res.ByHop = append(res.ByHop, 0)
		}
		res.ByHop[h-1]++
	}
	res.Affected = len(nodes)
	want, chains := r.p.TopK, 0
	if r.p.IncludeCausalChains {
		chains = r.p.MaxChains
	}
	if want == 0 {
		want = len(nodes)
	}
	want = max(want, chains)
	energy := 0.0
	if want >= len(nodes) || !sumIsExact(nodes) {
		for i := range nodes {
			r.settle(&nodes[i])
		}
		slices.SortFunc(nodes, compareRank)
		for _, n := range nodes {
			energy += float64(n.sig)
		}
		near := 0
		if len(res.ByHop) > 0 {
			near = res.ByHop[0]
		}
		top, far = nodes[:min(want, len(nodes))], nodes[near:min(near+chains, len(nodes))]
	} else {
		for _, n := range nodes {
			energy += float64(n.sig)
		}
		top = smallest(&ro.heap, nodes, want, r.settle, nil)
		far = smallest(&ro.far, nodes, chains, r.settle, func(n *impactRank) bool { return n.hop >= 2 })
	}
	res.TotalEnergy = graph.Finite(float32(energy))
	return top, far
}

// sumIsExact reports whether adding the signals in float64 gives the same
// sum in any order. Each is a float32, so a multiple of 2^q for q the
// smallest one's exponent − 24; while the total stays below 2^(q+53),
// every partial sum is such a multiple that a float64 holds exactly.
func sumIsExact(nodes []impactRank) bool {
	lo, hi := float32(math.MaxFloat32), float32(0)
	for _, n := range nodes {
		if n.sig > 0 {
			lo, hi = min(lo, n.sig), max(hi, n.sig)
		}
	}
	if hi == 0 {
		return true
	}
	_, e := math.Frexp(float64(lo))
	return float64(len(nodes))*float64(hi) < math.Ldexp(1, e-24+53)
}

// smallest returns, sorted, the first n of nodes in listing order among
// those keep keeps (all when keep is nil), through a bounded max-heap in
// *buf: O(len(nodes)·log n). A node is settled only when it would enter
// the heap as production: settling can only move it later.
func smallest(buf *[]impactRank, nodes []impactRank, n int, settle func(*impactRank), keep func(*impactRank) bool) []impactRank {
	h := (*buf)[:0]
	for i := range nodes {
		x := &nodes[i]
		switch {
		case n <= 0 || (keep != nil && !keep(x)):
		case len(h) < n:
			settle(x)
			h = append(h, *x)
			for j := len(h) - 1; j > 0 && compareRank(h[j], h[(j-1)/2]) > 0; j = (j - 1) / 2 {
				h[j], h[(j-1)/2] = h[(j-1)/2], h[j]
			}
		case compareRank(*x, h[0]) < 0:
			if settle(x); compareRank(*x, h[0]) < 0 {
				h[0] = *x
				siftDown(h)
			}
		}
	}
	slices.SortFunc(h, compareRank)
	*buf = h
	return h
}

// siftDown restores the max-heap order of h after its root changed.
func siftDown(h []impactRank) {
	for i := 0; ; {
		c := 2*i + 1
		if c >= len(h) {
			return
		}
		if c+1 < len(h) && compareRank(h[c+1], h[c]) > 0 {
			c++
		}
		if compareRank(h[c], h[i]) <= 0 {
			return
		}
		h[i], h[c] = h[c], h[i]
		i = c
	}
}

// testMargin is how much stronger (in thousandths of signal, as shown) a
// test's signal must be to rank before a production dependent at the same
// hop: 0.05, the gap between one direct call (≈0.95) and saturation.
const testMargin = 50

// shown is a signal as answers print it (three decimals), in thousandths.
func shown(s float32) float64 { return math.Round(float64(s) * 1000) }

// list makes the listed nodes' answer: each with the usages that brought
// the impact to it (Via), made for these nodes only.
func (r *impactRun) list(top []impactRank) []ImpactNode {
	ro := r.roll
	out := make([]ImpactNode, len(top))
	for i, n := range top {
		out[i] = ImpactNode{Node: n.node, SignalStrength: n.sig, HopDistance: int(n.hop), Direction: r.walks[ro.walk[n.node]].dir}
		if r.level == LevelFile {
			out[i].Entities = int(ro.ents[n.node])
		}
		ro.slot[n.node] = int32(i + 1)
	}
	if r.p.MaxVia > 0 {
		r.via(out)
	}
	return out
}

// memberRef is an affected node that brought the impact to a listed one:
// reached at that node's hop in its walk.
type memberRef struct {
	slot int32
	walk uint8
	sig  float32
	node graph.NodeID
}

// via lists for each listed node the usages that brought the impact to
// it (the strongest first, then by NodeID), at most MaxVia, one per
// member. Its members are the nodes of its walk at its hop reached from
// the one that set that reach on: those the rollup multiplied into its
// signal (a reach the other way that was weaker before the switch is
// not).
func (r *impactRun) via(out []ImpactNode) {
	ro := r.roll
	ms := ro.member[:0]
	for wi, w := range r.walks {
		for i, v := range w.s.touched {
			key := v
			if r.level == LevelFile {
				key = r.unit(v)
			}
			if sl := ro.slot[key]; sl != 0 && int(ro.walk[key]) == wi && w.s.hop[v] == ro.hop[key] && int32(i) >= ro.from[key] {
				ms = append(ms, memberRef{slot: sl - 1, walk: uint8(wi), sig: w.s.sig[v], node: v})
			}
		}
	}
	slices.SortFunc(ms, func(a, b memberRef) int {
		switch {
		case a.slot != b.slot:
			return int(a.slot) - int(b.slot)
		case a.sig != b.sig:
			return cmp.Compare(b.sig, a.sig)
		}
		return cmp.Compare(a.node, b.node)
	})
	for _, m := range ms {
		n := &out[m.slot]
		if len(n.Via) == r.p.MaxVia {
			continue
		}
		e := r.walks[m.walk].s.pedge[m.node]
		n.Via = append(n.Via, Usage{Dependent: r.g.Source(e), Dependency: r.g.Target(e), Relation: r.g.RelationName(e)})
	}
	ro.member = ms
}

// chains reconstructs the strongest propagation paths: to the listed nodes
// at two hops or more first (a one-hop chain says little the blast radius
// does not), then to one-hop nodes. A path starts at the source, goes
// down the containment to the changed entity, then along the dependency
// edges; at file level it ends at the file's strongest affected entity.
// top and far are rank's: the first nodes in listing order, and the first
// at two hops or more.
func (r *impactRun) chains(top, far []impactRank) []Chain {
	var ends []endRef
	add := func(n impactRank) {
		if len(ends) < r.p.MaxChains {
			ends = append(ends, endRef{r.walks[r.roll.walk[n.node]], r.roll.best[n.node]})
		}
	}
	for _, n := range far {
		add(n)
	}
	for _, n := range top {
		if n.hop < 2 {
			add(n)
		}
	}
	out := make([]Chain, 0, len(ends))
	for _, ref := range ends {
		if c, ok := ref.walk.chainTo(ref.node); ok {
			out = append(out, c)
		}
	}
	return out
}

// chainTo follows parent pointers from v back to the source.
func (w *impactWalk) chainTo(v graph.NodeID) (Chain, bool) {
	s := w.s
	var rev []graph.NodeID
	for u := v; u != w.source; u = s.parent[u] {
		if len(rev) > 64 || u == graph.NoNode || (s.stamp[u] != s.cur && s.inScope[u] != s.cur) {
			return Chain{}, false
		}
		rev = append(rev, u)
	}
	c := Chain{Nodes: []graph.NodeID{w.source}, CumulativeStrength: 1}
	for i := len(rev) - 1; i >= 0; i-- {
		u := rev[i]
		e := s.pedge[u]
		c.Nodes = append(c.Nodes, u)
		c.Relations = append(c.Relations, w.g.RelationName(e))
		c.Reversed = append(c.Reversed, s.prev[u])
		if ri := w.rels.of(e); ri.kind != Contains && ri.kind != Declares {
			c.CumulativeStrength *= ri.strength * structuralWeight(w.g, e) * w.p.HopDecay
		}
	}
	c.CumulativeStrength = graph.Finite(c.CumulativeStrength)
	return c, true
}
