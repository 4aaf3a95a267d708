package analysis

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/m1nd-go/m1nd/core/graph"
)

// CounterfactualParams configures Counterfactual.
type CounterfactualParams struct {
	// IncludeCascade follows the removal past its first ring: dependents of
	// dependents in the breakage wave, and what is left unused
	// transitively. Without it only direct effects are reported (the
	// reachability numbers are always complete).
	IncludeCascade bool
	// Level: LevelAuto answers in files when every removed node is a
	// file, directory or package, in entities otherwise.
	Level Level
	// MaxListed bounds each list of the result (counts stay exact);
	// 0 lists everything.
	MaxListed int
	// Deps is a dependency view to reuse; it is used when its level is
	// the one the call resolves to, and built otherwise.
	Deps *DepGraph
}

// DefaultCounterfactualParams: cascade on, automatic level, 50 per list.
func DefaultCounterfactualParams() CounterfactualParams {
	return CounterfactualParams{IncludeCascade: true, MaxListed: 50}
}

// CounterfactualNode is one node a removal touches.
type CounterfactualNode struct {
	Node graph.NodeID `json:"node"`
	// Depth: for a broken node, the dependency hops to the removed set
	// (1: it uses removed code directly); for an orphaned node, the hops
	// from the removed set down to it.
	Depth int `json:"depth"`
	// Lost of Total: for a broken node, its dependencies that were removed
	// and all of them; for an orphaned or weakened node, its dependents
	// that are gone (removed or orphaned) and all of them.
	Lost         int     `json:"lost"`
	Total        int     `json:"total"`
	LostFraction float32 `json:"lost_fraction"`
	// Via is a dependency that links the node to what is gone.
	Via Usage `json:"via"`
}

// CascadeLevel counts the nodes the breakage reaches at one depth.
type CascadeLevel struct {
	Depth    int `json:"depth"`
	Affected int `json:"affected"`
	// Nodes are the most central of them (PageRank, then NodeID), at most
	// MaxListed.
	Nodes []graph.NodeID `json:"nodes"`
}

// Reachability compares what the entry points reach before and after the
// removal. Entry points are the units that take part in some dependency
// and that nothing depends on: mains, tests, scripts, handlers called by
// a framework.
type Reachability struct {
	EntryPoints int `json:"entry_points"`
	Before      int `json:"reachable_before"`
	After       int `json:"reachable_after"`
	// Lost counts the units reachable before, not after, and not removed
	// themselves: code nothing would use any more.
	Lost int `json:"lost"`
}

// CounterfactualResult is what removing nodes would do.
type CounterfactualResult struct {
	Level string `json:"level"`
	// Requested are the nodes asked about; Removed the units the removal
	// takes away (those nodes and everything they contain), ascending.
	Requested []graph.NodeID `json:"requested"`
	Removed   []graph.NodeID `json:"removed"`
	// Broken are the direct dependents of the removed units: code that
	// would no longer build or run. Fully dependent ones (LostFraction 1)
	// first.
	Broken      []CounterfactualNode `json:"broken"`
	BrokenCount int                  `json:"broken_count"`
	// Cascade is the breakage wave by depth; TotalAffected its size.
	Cascade       []CascadeLevel `json:"cascade"`
	TotalAffected int            `json:"total_affected"`
	// Orphaned are units nothing would use any more (no longer reachable
	// from an entry point), nearest first.
	Orphaned      []CounterfactualNode `json:"orphaned"`
	OrphanedCount int                  `json:"orphaned_count"`
	// Weakened keep some dependents but lose others.
	Weakened      []CounterfactualNode `json:"weakened"`
	WeakenedCount int                  `json:"weakened_count"`
	Reachability  Reachability         `json:"reachability"`
	// PctActivationLost is the share of reachable units that are gone
	// (removed or orphaned), in [0, 1].
	PctActivationLost float32 `json:"pct_activation_lost"`
}

// CounterfactualLevel is the level LevelAuto resolves to for removing
// nodes: files when each is a file, directory or package.
func CounterfactualLevel(g *graph.Graph, nodes []graph.NodeID) Level {
	for _, v := range nodes {
		if g.Valid(v) && g.Type(v) != graph.File && !isContainer(g, v) {
			return LevelEntity
		}
	}
	return LevelFile
}

// Counterfactual answers "what if these nodes were gone?" without
// touching the graph: the removal takes the nodes and everything they
// contain; their dependents break (and, with the cascade, the dependents
// of those); what only they used is orphaned — found as the units the
// entry points no longer reach, so cycles of otherwise unused code count
// too; what they shared with others is weakened. Only dependency relations
// count, never containment or co-change. The work is a few passes over the
// DepGraph, linear in its size.
func Counterfactual(g *graph.Graph, nodes []graph.NodeID, p CounterfactualParams) (CounterfactualResult, error) {
	res := CounterfactualResult{Requested: slices.Clone(nodes)}
	if err := checkGraph(g); err != nil {
		return res, err
	}
	if len(nodes) == 0 {
		return res, errors.New("analysis: no node to remove")
	}
	if p.MaxListed < 0 || p.Level > LevelEntity {
		return res, fmt.Errorf("analysis: invalid counterfactual params (max_listed %d, level %v)", p.MaxListed, p.Level)
	}
	level := p.Level
	if level == LevelAuto {
		level = CounterfactualLevel(g, nodes)
	}
	res.Level = level.String()
	d := p.Deps
	if d == nil || d.g != g || d.fileLevel != (level == LevelFile) {
		var err error
		if d, err = NewDepGraph(g, level == LevelFile); err != nil {
			return res, err
		}
	}
	removed, _, err := d.scopeUnits(nodes)
	if err != nil {
		return res, err
	}
	res.Removed = removed
	cf := &cfRun{d: d, p: p, res: &res, n: g.NumNodes()}
	cf.gone = make([]bool, cf.n)
	for _, u := range removed {
		cf.gone[u] = true
	}
	cf.breakage()
	cf.reach()
	cf.weaken()
	return res, nil
}

type cfRun struct {
	d   *DepGraph
	p   CounterfactualParams
	res *CounterfactualResult
	n   int
	// gone marks removed units, then orphaned ones as they are found.
	gone []bool
}

func (cf *cfRun) limit(k int) int {
	if cf.p.MaxListed > 0 {
		return min(k, cf.p.MaxListed)
	}
	return k
}

// breakage walks the dependents of the removed units, depth by depth.
func (cf *cfRun) breakage() {
	d, res := cf.d, cf.res
	seen := slices.Clone(cf.gone)
	frontier := slices.Clone(res.Removed)
	for depth := 1; len(frontier) > 0; depth++ {
		var next []graph.NodeID
		for _, u := range frontier {
			for _, v := range d.Dependents(u) {
				if !seen[v] {
					seen[v] = true
					next = append(next, v)
				}
			}
		}
		if len(next) == 0 {
			break
		}
		if depth == 1 {
			cf.broken(next)
		}
		cf.sortCentral(next)
		res.Cascade = append(res.Cascade, CascadeLevel{Depth: depth, Affected: len(next), Nodes: next[:cf.limit(len(next))]})
		res.TotalAffected += len(next)
		if !cf.p.IncludeCascade {
			break
		}
		frontier = next
	}
}

// broken describes the direct dependents: how much of what each uses is
// removed.
func (cf *cfRun) broken(direct []graph.NodeID) {
	d := cf.d
	out := make([]CounterfactualNode, 0, len(direct))
	for _, v := range direct {
		deps := d.Dependencies(v)
		c := CounterfactualNode{Node: v, Depth: 1, Total: len(deps)}
		for _, t := range deps {
			if cf.gone[t] {
				if c.Lost == 0 {
					e, _, _ := d.link(v, t)
					c.Via = usageOf(d.g, e)
				}
				c.Lost++
			}
		}
		c.LostFraction = fraction(c.Lost, c.Total)
		out = append(out, c)
	}
	cf.sortByLoss(out)
	cf.res.BrokenCount = len(out)
	cf.res.Broken = out[:cf.limit(len(out))]
}

// reach runs the entry points' reachability before and after the removal;
// what is lost is orphaned, at the depth a walk down from the removed
// units finds it.
func (cf *cfRun) reach() {
	d, res := cf.d, cf.res
	var entries []graph.NodeID
	for u := 0; u < cf.n; u++ {
		id := graph.NodeID(u)
		if d.unit[u] == id && len(d.Dependents(id)) == 0 && len(d.Dependencies(id)) > 0 {
			entries = append(entries, id)
		}
	}
	res.Reachability.EntryPoints = len(entries)
	before := cf.walk(entries, nil)
	after := cf.walk(entries, cf.gone)
	res.Reachability.Before, res.Reachability.After = count(before), count(after)
	lost := make([]bool, cf.n)
	for u := range lost {
		if before[u] && !after[u] && !cf.gone[u] {
			lost[u] = true
			res.Reachability.Lost++
		}
	}
	if b := res.Reachability.Before; b > 0 {
		res.PctActivationLost = graph.Finite(float32(b-res.Reachability.After) / float32(b))
	}
	// Orphans by depth below the removed units.
	var orphans []CounterfactualNode
	frontier := res.Removed
	for depth := 1; len(frontier) > 0 && (depth == 1 || cf.p.IncludeCascade); depth++ {
		var next []graph.NodeID
		for _, u := range frontier {
			for _, t := range d.Dependencies(u) {
				if lost[t] {
					lost[t] = false
					next = append(next, t)
					orphans = append(orphans, CounterfactualNode{Node: t, Depth: depth})
				}
			}
		}
		frontier = next
	}
	for _, o := range orphans {
		cf.gone[o.Node] = true
	}
	for i := range orphans {
		cf.lostDependents(&orphans[i])
	}
	slices.SortFunc(orphans, func(a, b CounterfactualNode) int {
		if a.Depth != b.Depth {
			return a.Depth - b.Depth
		}
		return cf.central(a.Node, b.Node)
	})
	res.OrphanedCount = len(orphans)
	res.Orphaned = orphans[:cf.limit(len(orphans))]
}

// walk marks what the entries reach along dependencies, never entering a
// unit blocked marks.
func (cf *cfRun) walk(entries []graph.NodeID, blocked []bool) []bool {
	seen := make([]bool, cf.n)
	stack := make([]graph.NodeID, 0, len(entries))
	for _, e := range entries {
		if blocked == nil || !blocked[e] {
			seen[e] = true
			stack = append(stack, e)
		}
	}
	for len(stack) > 0 {
		u := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, t := range cf.d.Dependencies(u) {
			if !seen[t] && (blocked == nil || !blocked[t]) {
				seen[t] = true
				stack = append(stack, t)
			}
		}
	}
	return seen
}

// weaken lists what the gone units used and that keeps other users.
func (cf *cfRun) weaken() {
	d := cf.d
	seen := map[graph.NodeID]bool{}
	var out []CounterfactualNode
	for u := 0; u < cf.n; u++ {
		if !cf.gone[u] {
			continue
		}
		for _, t := range d.Dependencies(graph.NodeID(u)) {
			if cf.gone[t] || seen[t] {
				continue
			}
			seen[t] = true
			c := CounterfactualNode{Node: t, Depth: 1}
			cf.lostDependents(&c)
			// Losing every dependent is orphaning, reported as such
			// (without the cascade, orphans past the first ring are not
			// reported at all).
			if c.Lost < c.Total {
				out = append(out, c)
			}
		}
	}
	cf.sortByLoss(out)
	cf.res.WeakenedCount = len(out)
	cf.res.Weakened = out[:cf.limit(len(out))]
}

// lostDependents fills Lost, Total, LostFraction and Via from the
// node's dependents that are gone.
func (cf *cfRun) lostDependents(c *CounterfactualNode) {
	deps := cf.d.Dependents(c.Node)
	c.Total, c.Lost = len(deps), 0
	for i, v := range deps {
		if cf.gone[v] {
			if c.Lost == 0 {
				c.Via = usageOf(cf.d.g, cf.d.dependentEdge(c.Node, i))
			}
			c.Lost++
		}
	}
	c.LostFraction = fraction(c.Lost, c.Total)
}

// sortByLoss: the largest share lost first, then the most central.
func (cf *cfRun) sortByLoss(l []CounterfactualNode) {
	slices.SortFunc(l, func(a, b CounterfactualNode) int {
		if a.LostFraction != b.LostFraction {
			return cmp.Compare(b.LostFraction, a.LostFraction)
		}
		return cf.central(a.Node, b.Node)
	})
}

func (cf *cfRun) sortCentral(l []graph.NodeID) { slices.SortFunc(l, cf.central) }

// central orders by PageRank, descending, then NodeID.
func (cf *cfRun) central(a, b graph.NodeID) int {
	pa, pb := cf.d.g.PageRank(a), cf.d.g.PageRank(b)
	if pa != pb {
		return cmp.Compare(pb, pa)
	}
	return cmp.Compare(a, b)
}

// usageOf reads a dependency edge as "dependent relation dependency": a
// passive edge (x imported_by y) reads as its active form (y imports x).
func usageOf(g *graph.Graph, e graph.EdgeIdx) Usage {
	rel := g.RelationName(e)
	src, dst := g.Source(e), g.Target(e)
	if ClassifyRelation(rel) == DependedOnBy {
		base, qual, _ := strings.Cut(rel, "::")
		rel = PassiveRelation(base)
		if qual != "" {
			rel += "::" + qual
		}
		src, dst = dst, src
	}
	return Usage{Dependent: src, Dependency: dst, Relation: rel}
}

func fraction(a, b int) float32 {
	if b == 0 {
		return 0
	}
	return graph.Finite(float32(a) / float32(b))
}

func count(b []bool) int {
	n := 0
	for _, x := range b {
		if x {
			n++
		}
	}
	return n
}
