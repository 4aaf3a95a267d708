package structure

import (
	"cmp"
	"slices"
)

// Layer defaults (docs/design.md#structure-family).
const (
	// DefaultMaxLayers caps the number of layers: deeper stacks are
	// compressed level by level into this many.
	DefaultMaxLayers = 8
	// DefaultMinLayerSize: a layer with fewer units is merged into the
	// layer below it (the bottom one into the layer above).
	DefaultMinLayerSize = 2
	// skipGap: an edge that goes down this many levels or more skips a
	// layer (a SkipLayer when it also bypasses one, see bypasses).
	skipGap = 2
)

// LayerOptions tune DetectLayers; zero values take the defaults.
type LayerOptions struct {
	MaxLayers    int
	MinLayerSize int
}

// ViolationKind names what a violating dependency does.
type ViolationKind uint8

const (
	// UpwardDependency: a unit depends on a unit in a higher layer.
	UpwardDependency ViolationKind = iota
	// CircularDependency: units that depend on each other in a cycle.
	CircularDependency
	// SkipLayer: a dependency that skips a layer around an abstraction
	// the unit already uses: A depends on C and on B, B on C, with B's
	// layer between them — A reaches under B. Skipping down to a unit
	// with no such intermediary, or to a cross-cutting one, is normal.
	SkipLayer
)

func (k ViolationKind) String() string {
	return [...]string{"UpwardDependency", "CircularDependency", "SkipLayer"}[k]
}

// Severity ranks violations: Critical first.
type Severity uint8

const (
	Critical Severity = iota
	High
	Medium
	Low
)

func (s Severity) String() string { return [...]string{"Critical", "High", "Medium", "Low"}[s] }

// Violation is one dependency that breaks the layering. For a
// CircularDependency, From → To is the cycle's heaviest feedback edge and
// Cycle indexes Layering.Cycles.
type Violation struct {
	Kind             ViolationKind
	Severity         Severity
	From, To         int
	FromLevel, Level int // the levels of From and To
	Weight           int
	Cycle            int // -1 unless Kind is CircularDependency or the edge lies in a cycle
}

// Health describes one layer's dependencies (weighted by file links).
type Health struct {
	Internal, Down, Up, Skip int
	// Separation is the share of the layer's dependencies that stay in it
	// or point down: 1 for a clean layer.
	Separation float64
}

// Layer is one level: 0 is the bottom (depends on no other layer).
type Layer struct {
	Level  int
	Units  []int
	Health Health
}

// UtilityKind classifies a unit that does not sit cleanly in one layer.
type UtilityKind uint8

const (
	// CrossCutting: depended on from three layers or more.
	CrossCutting UtilityKind = iota
	// Bridge: removing it splits the dependency graph in two.
	Bridge
	// Orphan: no dependency in or out; it belongs to no layer.
	Orphan
)

func (k UtilityKind) String() string { return [...]string{"CrossCutting", "Bridge", "Orphan"}[k] }

// Utility is a unit that serves several layers or none.
type Utility struct {
	Unit int
	Kind UtilityKind
	// Layers counts the distinct layers of its dependents (CrossCutting)
	// or of its neighbours (Bridge).
	Layers, Dependents, Dependencies int
}

// Layering is DetectLayers' answer.
type Layering struct {
	Units *Units
	// Level[u] is unit u's layer, -1 for an orphan.
	Level  []int
	Layers []Layer
	// Cycles are the strongly connected components of two units or more,
	// largest first; CycleOf[u] indexes it (-1 outside every cycle).
	Cycles  [][]int
	CycleOf []int
	// Violations: Critical first, then by kind, units.
	Violations []Violation
	Utility    []Utility
	// crossCutting[u]: u is a CrossCutting utility.
	crossCutting []bool
	// Edges, Clean: weighted dependencies between layered units and those
	// that stay in their layer or point down.
	Edges, Clean int
	// Separation is Clean/Edges (1 without edges).
	Separation float64
}

// DetectLayers orders units into layers: iterative Tarjan SCC, a greedy
// feedback order inside each cycle, longest-path levels over the
// remaining acyclic graph (a unit sits one level above its highest
// dependency), compression to MaxLayers, sparse layers merged.
func DetectLayers(u *Units, opt LayerOptions) *Layering {
	if opt.MaxLayers <= 0 {
		opt.MaxLayers = DefaultMaxLayers
	}
	if opt.MinLayerSize <= 0 {
		opt.MinLayerSize = DefaultMinLayerSize
	}
	n := u.Len()
	L := &Layering{Units: u, CycleOf: make([]int, n)}
	adj := make([][]int, n)
	for v := range n {
		for _, l := range u.Out[v] {
			adj[v] = append(adj[v], l.To)
		}
	}
	comps := StronglyConnected(adj)
	feedback := map[[2]int]bool{}
	for i := range L.CycleOf {
		L.CycleOf[i] = -1
	}
	inComp := make([]bool, n)
	for _, c := range comps {
		if len(c) < 2 {
			continue
		}
		L.Cycles = append(L.Cycles, c)
		for _, v := range c {
			inComp[v] = true
		}
		pos := feedbackOrder(u, c, inComp)
		for _, v := range c {
			for _, l := range u.Out[v] {
				if inComp[l.To] && pos[l.To] < pos[v] {
					feedback[[2]int{v, l.To}] = true
				}
			}
		}
		for _, v := range c {
			inComp[v] = false
		}
	}
	slices.SortStableFunc(L.Cycles, func(a, b []int) int { return cmp.Or(len(b)-len(a), a[0]-b[0]) })
	for i, c := range L.Cycles {
		for _, v := range c {
			L.CycleOf[v] = i
		}
	}
	L.Level = longestPath(u, feedback)
	L.compress(opt)
	L.utilities()
	L.violations(feedback)
	L.health()
	return L
}

// longestPath gives each unit 1 + the highest level of its dependencies
// (0 for none), ignoring feedback edges; orphans get -1.
func longestPath(u *Units, feedback map[[2]int]bool) []int {
	n := u.Len()
	level := make([]int, n)
	pending := make([]int, n)
	var queue []int
	for v := range n {
		for _, l := range u.Out[v] {
			if !feedback[[2]int{v, l.To}] {
				pending[v]++
			}
		}
		if pending[v] == 0 {
			queue = append(queue, v)
		}
	}
	for len(queue) > 0 {
		v := queue[0]
		queue = queue[1:]
		for _, l := range u.In[v] {
			p := l.To
			if feedback[[2]int{p, v}] {
				continue
			}
			level[p] = max(level[p], level[v]+1)
			if pending[p]--; pending[p] == 0 {
				queue = append(queue, p)
			}
		}
	}
	for v := range n {
		if len(u.Out[v]) == 0 && len(u.In[v]) == 0 {
			level[v] = -1
		}
	}
	return level
}

// compress maps levels into at most MaxLayers (monotonically, so no edge
// turns upward), then merges layers with fewer than MinLayerSize units
// into their lower neighbour (the bottom one into the layer above).
func (L *Layering) compress(opt LayerOptions) {
	top := -1
	for _, l := range L.Level {
		top = max(top, l)
	}
	count := top + 1
	remap := make([]int, count)
	for l := range remap {
		remap[l] = l
		if count > opt.MaxLayers {
			remap[l] = l * opt.MaxLayers / count
		}
	}
	size := map[int]int{}
	for _, l := range L.Level {
		if l >= 0 {
			size[remap[l]]++
		}
	}
	// levels in use, bottom up, merged while sparse
	var used []int
	for l := 0; l < count; l++ {
		if (l == 0 || remap[l] != remap[l-1]) && size[remap[l]] > 0 {
			used = append(used, remap[l])
		}
	}
	final := map[int]int{}
	var groups [][]int // groups of compressed levels forming one layer
	for _, c := range used {
		if len(groups) > 0 && (sum(size, groups[len(groups)-1]) < opt.MinLayerSize || size[c] < opt.MinLayerSize && len(groups) > 0) {
			groups[len(groups)-1] = append(groups[len(groups)-1], c)
			continue
		}
		groups = append(groups, []int{c})
	}
	if len(groups) == 1 && len(used) > 1 && len(L.Cycles) == 0 {
		// Merged into one layer, every dependency would be internal and
		// the answer would say nothing (alecthomas/kong: one package and
		// the examples using it): the levels of an acyclic graph stay as
		// they are. (A cycle's levels are only its feedback order.)
		groups = groups[:0]
		for _, c := range used {
			groups = append(groups, []int{c})
		}
	}
	for i, gr := range groups {
		for _, c := range gr {
			final[c] = i
		}
	}
	L.Layers = make([]Layer, len(groups))
	for i := range L.Layers {
		L.Layers[i].Level = i
	}
	for v, l := range L.Level {
		if l < 0 {
			continue
		}
		f := final[remap[l]]
		L.Level[v] = f
		L.Layers[f].Units = append(L.Layers[f].Units, v)
	}
}

func sum(size map[int]int, ls []int) int {
	s := 0
	for _, l := range ls {
		s += size[l]
	}
	return s
}
