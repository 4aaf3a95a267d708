package analysis

import (
	"slices"
	"strings"
	"sync"

	"github.com/m1nd-go/m1nd/core/graph"
)

// search is the outcome of a path search.
type search struct {
	found, overlap, exhausted bool
	nodes                     []graph.NodeID
	rels                      []string
	weight                    float32
	count                     int // shortest paths, capped at PathBudget
	reached, hops, expanded   int
}

// searchScratch holds per-node marks of one search, reset by bumping a
// stamp rather than clearing (a search touches a small part of a large
// graph).
type searchScratch struct {
	seen, goal []uint32
	cur        uint32
	dist       []uint8
	count      []int32
	best       []float32
	parent     []graph.NodeID
	edge       []graph.EdgeIdx
	frontier   []graph.NodeID
	next       []graph.NodeID
}

var searchPool = sync.Pool{New: func() any { return &searchScratch{} }}

func getScratch(n int) *searchScratch {
	s := searchPool.Get().(*searchScratch)
	if len(s.seen) < n {
		*s = searchScratch{seen: make([]uint32, n), goal: make([]uint32, n), dist: make([]uint8, n), count: make([]int32, n),
			best: make([]float32, n), parent: make([]graph.NodeID, n), edge: make([]graph.EdgeIdx, n)}
	}
	if s.cur++; s.cur == 0 {
		clear(s.seen)
		clear(s.goal)
		s.cur = 1
	}
	s.frontier, s.next = s.frontier[:0], s.next[:0]
	return s
}

func (s *searchScratch) mark(v graph.NodeID) bool {
	if s.seen[v] == s.cur {
		return false
	}
	s.seen[v] = s.cur
	return true
}

// unitSearch looks for a dependency chain from a's units to b's units.
func (h *hypo) unitSearch(a, b graph.NodeID) search { return h.unitSearchIn(h.d, a, b) }

// cycleSearch looks for a dependency chain from a's units back to them
// through something outside a: a's first steps out seed the search, and
// the one found is put in front of its path.
func (h *hypo) cycleSearch(a graph.NodeID) search {
	d := h.d
	units, _, _ := d.scopeUnits([]graph.NodeID{a})
	in := setOf(units)
	first := map[graph.NodeID]graph.NodeID{} // first step → the unit of a it leaves from
	var from []graph.NodeID
	for _, u := range units {
		for _, t := range d.Dependencies(u) {
			if _, ok := first[t]; ok || in[t] || (h.runtime && d.TypeOnly(u, t)) {
				continue
			}
			first[t] = u
			from = append(from, t)
		}
	}
	slices.Sort(from)
	s := h.searchUnits(d, from, units)
	if !s.found {
		return s
	}
	u := first[s.nodes[0]]
	e, w, _ := d.link(u, s.nodes[0])
	s.nodes = append([]graph.NodeID{u}, s.nodes...)
	s.rels = append([]string{usageOf(h.g, e).Relation}, s.rels...)
	s.weight *= w
	return s
}

// unitSearchIn searches d breadth first, so the chain found is a shortest
// one; among the shortest, the strongest (product of link strengths), and
// it counts them (up to PathBudget).
func (h *hypo) unitSearchIn(d *DepGraph, a, b graph.NodeID) search {
	from, _, _ := d.scopeUnits([]graph.NodeID{a})
	to, _, _ := d.scopeUnits([]graph.NodeID{b})
	return h.searchUnits(d, from, to)
}

// searchUnits is unitSearchIn between unit lists. With h.runtime a
// type-only link (DepGraph.TypeOnly) is no step: it never runs.
func (h *hypo) searchUnits(d *DepGraph, from, to []graph.NodeID) search {
	var s search
	sc := getScratch(h.g.NumNodes())
	defer searchPool.Put(sc)
	if s.overlap = sc.seed(from, to); s.overlap {
		return s
	}
	for _, u := range sc.frontier {
		sc.dist[u], sc.count[u], sc.best[u] = 0, 1, 1
	}
	budget := int32(h.p.PathBudget)
	var hit []graph.NodeID
	for depth := 1; depth <= h.p.MaxHops && len(sc.frontier) > 0 && len(hit) == 0; depth++ {
		sc.next = sc.next[:0]
		for _, u := range sc.frontier {
			s.expanded++
			lo := int(d.fwdOff[u])
			for i, t := range d.Dependencies(u) {
				if h.runtime && d.TypeOnly(u, t) {
					continue
				}
				if sc.mark(t) {
					sc.dist[t], sc.count[t], sc.best[t], sc.parent[t] = uint8(depth), 0, -1, u
					sc.next = append(sc.next, t)
					s.reached++
					if sc.goal[t] == sc.cur {
						hit = append(hit, t)
					}
				}
				if int(sc.dist[t]) != depth {
					continue
				}
				sc.count[t] = min(sc.count[t]+sc.count[u], budget)
				if w := sc.best[u] * d.fwdStr[lo+i]; w > sc.best[t] {
					sc.best[t], sc.parent[t] = w, u
				}
			}
		}
		sc.frontier, sc.next = sc.next, sc.frontier
		s.hops = depth
	}
	h.res.PathsExplored += s.expanded
	if len(hit) == 0 {
		s.exhausted = len(sc.frontier) == 0
		return s
	}
	end := hit[0]
	for _, t := range hit {
		s.count = min(s.count+int(sc.count[t]), h.p.PathBudget)
		if sc.best[t] > sc.best[end] || (sc.best[t] == sc.best[end] && t < end) {
			end = t
		}
	}
	s.found, s.weight = true, sc.best[end]
	s.nodes = pathBack(sc, end)
	for i := 1; i < len(s.nodes); i++ {
		e, _, _ := d.link(s.nodes[i-1], s.nodes[i])
		s.rels = append(s.rels, usageOf(h.g, e).Relation)
	}
	return s
}

// seed marks to as the goals and from as the first frontier, each with no
// parent; overlap: a node is in both, and there is nothing to search.
func (sc *searchScratch) seed(from, to []graph.NodeID) (overlap bool) {
	for _, u := range to {
		sc.goal[u] = sc.cur
	}
	for _, u := range from {
		if sc.goal[u] == sc.cur {
			return true
		}
		sc.mark(u)
		sc.parent[u] = graph.NoNode
		sc.frontier = append(sc.frontier, u)
	}
	return false
}

// pathBack follows parents from end to the start of its search.
func pathBack(sc *searchScratch, end graph.NodeID) []graph.NodeID {
	var rev []graph.NodeID
	for u := end; u != graph.NoNode && len(rev) <= 64; u = sc.parent[u] {
		rev = append(rev, u)
	}
	for i, j := 0, len(rev)-1; i < j; i, j = i+1, j-1 {
		rev[i], rev[j] = rev[j], rev[i]
	}
	return rev
}

// relSet holds active relation names (their base, before "::").
type relSet map[string]bool

// relMatch classifies relation handles against a relSet once each: 0 no,
// 1 active (the edge's source does it), 2 passive ("x called_by y").
type relMatch struct {
	g    *graph.Graph
	rels relSet
	memo map[graph.Str]uint8
}

func (m *relMatch) of(e graph.EdgeIdx) uint8 {
	s := m.g.Relation(e)
	if r, ok := m.memo[s]; ok {
		return r
	}
	base, _, _ := strings.Cut(strings.ToLower(m.g.Strings().String(s)), "::")
	r := uint8(0)
	if m.rels[base] {
		r = 1
	} else if stem, ok := strings.CutSuffix(base, "_by"); ok && stem != "" && m.rels[activeForm(stem)] {
		r = 2
	}
	m.memo[s] = r
	return r
}

// relSearch looks for a chain of rels edges from a (or what it contains)
// to b (or what it contains), node by node, within maxHops.
func (h *hypo) relSearch(a, b graph.NodeID, rels relSet, maxHops int) search {
	g := h.g
	var s search
	_, fromScope, _ := h.d.scopeUnits([]graph.NodeID{a})
	_, toScope, _ := h.d.scopeUnits([]graph.NodeID{b})
	sc := getScratch(g.NumNodes())
	defer searchPool.Put(sc)
	if s.overlap = sc.seed(fromScope, toScope); s.overlap {
		return s
	}
	m := &relMatch{g: g, rels: rels, memo: map[graph.Str]uint8{}}
	end := graph.NoNode
	visit := func(u, t graph.NodeID, e graph.EdgeIdx) {
		if !sc.mark(t) {
			return
		}
		sc.parent[t], sc.edge[t] = u, e
		sc.next = append(sc.next, t)
		s.reached++
		if sc.goal[t] == sc.cur && (end == graph.NoNode || t < end) {
			end = t
		}
	}
	for depth := 1; depth <= maxHops && len(sc.frontier) > 0 && end == graph.NoNode; depth++ {
		sc.next = sc.next[:0]
		for _, u := range sc.frontier {
			s.expanded++
			lo, hi := g.OutRange(u)
			for e := lo; e < hi; e++ {
				if !g.IsMirror(e) && m.of(e) == 1 {
					visit(u, g.Target(e), e)
				}
			}
			ilo, ihi := g.InRange(u)
			for pos := ilo; pos < ihi; pos++ {
				if e := g.InEdge(pos); !g.IsMirror(e) && m.of(e) == 2 {
					visit(u, g.InSource(pos), e)
				}
			}
		}
		sc.frontier, sc.next = sc.next, sc.frontier
		s.hops = depth
	}
	if end == graph.NoNode {
		s.exhausted = len(sc.frontier) == 0
		return s
	}
	s.found, s.count, s.weight = true, 1, 1
	s.nodes = pathBack(sc, end)
	for _, v := range s.nodes[1:] {
		e := sc.edge[v]
		s.rels = append(s.rels, usageOf(g, e).Relation)
		s.weight *= h.d.rels.of(e).strength * structuralWeight(g, e)
	}
	s.weight = graph.Finite(s.weight)
	return s
}
