package analysis

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"

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
	// miss is Π(1 − signal) unrounded: it orders nodes whose signals
	// round to the same float32 (a file's saturates at 1).
	miss float64
	// members reached it at its hop (Via is made of them once the list
	// is cut: of ≈ 2,000 affected files 15 are listed); end is its
	// strongest, where its chain ends. Both are cleared before Impact
	// returns.
	members []reached
	end     endRef
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
	run := &impactRun{g: g, p: p, source: source, rels: newRelTable(g), res: &res}
	run.files = newUnits(g, run.rels)
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
	for _, d := range dirs {
		s := impactPool.Get().(*impactScratch)
		defer impactPool.Put(s)
		w := &impactWalk{impactRun: run, s: s, dir: d}
		w.scope()
		w.propagate()
		run.walks = append(run.walks, w)
	}
	res.Scope = len(run.walks[0].scopeNodes)
	nodes := run.rollup()
	if p.Keep != nil {
		nodes = slices.DeleteFunc(nodes, func(n ImpactNode) bool { return !p.Keep(n.Node) })
	}
	run.rank(nodes)
	if p.IncludeCausalChains && p.MaxChains > 0 {
		res.CausalChains = run.chains()
	}
	all := res.BlastRadius
	if p.TopK > 0 && len(res.BlastRadius) > p.TopK {
		res.BlastRadius = res.BlastRadius[:p.TopK]
	}
	for i := range all {
		if i < len(res.BlastRadius) {
			all[i].Via = run.via(all[i].members)
		}
		all[i].members, all[i].end = nil, endRef{}
	}
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
	files  *units
}

type endRef struct {
	walk *impactWalk
	node graph.NodeID
}

// impactWalk is the propagation in one direction.
type impactWalk struct {
	*impactRun
	s          *impactScratch
	dir        ImpactDirection
	scopeNodes []graph.NodeID
}

type impactScratch struct {
	stamp    []uint32 // reached in this walk when == cur
	inScope  []uint32 // part of the change when == cur
	cur      uint32
	sig      []float32
	hop      []uint8
	parent   []graph.NodeID
	pedge    []graph.EdgeIdx
	prev     []bool
	inNext   []uint32 // per-layer "already in next" stamp
	lstamp   uint32
	touched  []graph.NodeID
	frontier []graph.NodeID
	fsig     []float32
	next     []graph.NodeID
}

var impactPool = sync.Pool{New: func() any { return &impactScratch{} }}

func (s *impactScratch) reset(n int) {
	if len(s.stamp) < n {
		s.stamp = make([]uint32, n)
		s.inScope = make([]uint32, n)
		s.inNext = make([]uint32, n)
		s.sig = make([]float32, n)
		s.hop = make([]uint8, n)
		s.parent = make([]graph.NodeID, n)
		s.pedge = make([]graph.EdgeIdx, n)
		s.prev = make([]bool, n)
		s.cur = 0
		s.lstamp = 0
	}
	s.cur++
	if s.cur == 0 {
		clear(s.stamp)
		clear(s.inScope)
		s.cur = 1
	}
	s.touched = s.touched[:0]
}

// scope marks the source and everything it contains (breadth first over
// containment edges), and what a declaration in it declares (a stub's
// module), as the change; parents record the path for chains.
func (w *impactWalk) scope() {
	g, s := w.g, w.s
	s.reset(g.NumNodes())
	s.inScope[w.source] = s.cur
	s.parent[w.source] = graph.NoNode
	w.scopeNodes = append(w.scopeNodes[:0], w.source)
	for i := 0; i < len(w.scopeNodes); i++ {
		u := w.scopeNodes[i]
		lo, hi := g.OutRange(u)
		for e := lo; e < hi; e++ {
			v := g.Target(e)
			if k := w.rels.of(e).kind; g.IsMirror(e) || s.inScope[v] == s.cur || (k != Contains && k != Declares) {
				continue
			}
			s.inScope[v] = s.cur
			s.parent[v], s.pedge[v], s.prev[v] = u, e, false
			w.scopeNodes = append(w.scopeNodes, v)
		}
	}
}

// propagate relaxes signals layer by layer (hop-limited Bellman–Ford) from
// the scope along dependency edges in the walk's direction.
func (w *impactWalk) propagate() {
	g, s, p := w.g, w.s, w.p
	cur := s.cur
	s.frontier = s.frontier[:0]
	for _, u := range w.scopeNodes {
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

// reached is one affected node of one walk.
type reached struct {
	walk *impactWalk
	node graph.NodeID
}

func (r reached) sig() float32 { return r.walk.s.sig[r.node] }
func (r reached) hop() int     { return int(r.walk.s.hop[r.node]) }

// rollup turns the walks' affected nodes into the listed nodes: each
// entity itself at entity level, its file at file level (a file in the
// change's scope is never listed). A node reached both ways keeps the
// closer, then stronger, reach.
func (r *impactRun) rollup() []ImpactNode {
	type agg struct {
		node     ImpactNode
		miss     float64 // Π(1 − signal) of the members at the best hop
		members  []reached
		bestSig  float32
		bestNode reached
	}
	byNode := map[graph.NodeID]*agg{}
	var order []graph.NodeID
	for _, w := range r.walks {
		for _, v := range w.s.touched {
			rc := reached{w, v}
			key := v
			if r.level == LevelFile {
				key = r.files.of(v)
				if w.s.inScope[key] == w.s.cur {
					continue
				}
			}
			a := byNode[key]
			if a == nil {
				a = &agg{node: ImpactNode{Node: key, HopDistance: math.MaxInt}, miss: 1}
				byNode[key] = a
				order = append(order, key)
			}
			switch h := rc.hop(); {
			case h < a.node.HopDistance || (h == a.node.HopDistance && a.node.Direction != w.dir && rc.sig() > a.bestSig):
				a.node.HopDistance, a.node.Direction = h, w.dir
				a.miss, a.members, a.bestSig = 1, nil, 0
				fallthrough
			case h == a.node.HopDistance && a.node.Direction == w.dir:
				a.miss *= 1 - float64(rc.sig())
				a.members = append(a.members, rc)
				if rc.sig() > a.bestSig || (rc.sig() == a.bestSig && rc.node < a.bestNode.node) {
					a.bestSig, a.bestNode = rc.sig(), rc
				}
			}
			a.node.Entities++
		}
	}
	out := make([]ImpactNode, 0, len(order))
	for _, k := range order {
		a := byNode[k]
		a.node.SignalStrength = graph.Finite(float32(1 - a.miss))
		a.node.miss = a.miss
		if r.level != LevelFile {
			a.node.Entities = 0
		}
		a.node.members, a.node.end = a.members, endRef{a.bestNode.walk, a.bestNode.node}
		out = append(out, a.node)
	}
	return out
}

// via lists the usages that brought the impact to members (the strongest
// first, then by NodeID), at most MaxVia, one per member.
func (r *impactRun) via(members []reached) []Usage {
	if r.p.MaxVia == 0 {
		return nil
	}
	slices.SortFunc(members, func(a, b reached) int {
		if a.sig() != b.sig() {
			if a.sig() > b.sig() {
				return -1
			}
			return 1
		}
		return int(a.node) - int(b.node)
	})
	var out []Usage
	for _, m := range members[:min(len(members), r.p.MaxVia)] {
		s := m.walk.s
		e := s.pedge[m.node]
		from, to := r.g.Source(e), r.g.Target(e)
		out = append(out, Usage{Dependent: from, Dependency: to, Relation: r.g.RelationName(e)})
	}
	return out
}

// rank orders the listed nodes: direct first, then signal as answers show
// it (three decimals), a test counting testMargin lower, then production
// before tests, then the stronger unrounded evidence, then NodeID.
//
// Why the margin: a file's signal is the noisy-or of its affected entities,
// so above ~0.95 it counts call sites, not how much breaks — a test file
// with forty calls of Config shows 1.000, the server that runs it 0.993.
// What breaks (production) comes before what checks it (tests) unless the
// test's evidence is clearly stronger. Shifting one class by a constant
// keeps the order total and deterministic.
func (r *impactRun) rank(nodes []ImpactNode) {
	key := make(map[graph.NodeID]float64, len(nodes))
	test := make(map[graph.NodeID]bool, len(nodes))
	for _, n := range nodes {
		test[n.Node] = r.g.HasTag(n.Node, "test") || IsTestPath(r.g.SourcePath(n.Node))
		key[n.Node] = shown(n.SignalStrength)
		if test[n.Node] {
			key[n.Node] -= testMargin
		}
	}
	slices.SortFunc(nodes, func(a, b ImpactNode) int {
		switch {
		case a.HopDistance != b.HopDistance:
			return a.HopDistance - b.HopDistance
		case key[a.Node] != key[b.Node]:
			return cmp.Compare(key[b.Node], key[a.Node])
		case test[a.Node] != test[b.Node]:
			if test[b.Node] {
				return -1
			}
			return 1
		case a.miss != b.miss:
			return cmp.Compare(a.miss, b.miss)
		}
		return int(a.Node) - int(b.Node)
	})
	res := r.res
	energy := 0.0
	for _, n := range nodes {
		energy += float64(n.SignalStrength)
		res.MaxHopsReached = max(res.MaxHopsReached, n.HopDistance)
		for len(res.ByHop) < n.HopDistance {
			res.ByHop = append(res.ByHop, 0)
		}
		res.ByHop[n.HopDistance-1]++
	}
	res.TotalEnergy = graph.Finite(float32(energy))
	res.Affected = len(nodes)
	res.BlastRadius = nodes
}

// testMargin is how much stronger (in thousandths of signal, as shown) a
// test's signal must be to rank before a production dependent at the same
// hop: 0.05, the gap between one direct call (≈0.95) and saturation.
const testMargin = 50

// shown is a signal as answers print it (three decimals), in thousandths.
func shown(s float32) float64 { return math.Round(float64(s) * 1000) }

// chains reconstructs the strongest propagation paths: to the listed nodes
// at two hops or more first (a one-hop chain says little the blast radius
// does not), then to one-hop nodes. A path starts at the source, goes
// down the containment to the changed entity, then along the dependency
// edges; at file level it ends at the file's strongest affected entity.
func (r *impactRun) chains() []Chain {
	var ends []endRef
	for _, far := range []bool{true, false} {
		for _, n := range r.res.BlastRadius {
			if len(ends) == r.p.MaxChains {
				break
			}
			if (n.HopDistance >= 2) == far {
				ends = append(ends, n.end)
			}
		}
	}
	out := make([]Chain, 0, len(ends))
	for _, ref := range ends {
		if ref.walk == nil {
			continue
		}
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
