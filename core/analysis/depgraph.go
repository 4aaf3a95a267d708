package analysis

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/m1nd-go/m1nd/core/graph"
)

// DepGraph is a graph read as "who depends on whom", one link per pair, at
// one level: file level (a file stands for everything it contains, so a
// call from one of its functions is a dependency of the file) or entity
// level (each node for itself). Only dependency relations count (imports,
// calls, references, inherits, implements, tests, …, passive forms read
// the right way round); containment, co-change and similarity never do,
// and directories and packages take no part. Each link keeps the
// strongest edge that makes it.
//
// Building one costs a pass over the nodes and edges. It is read-only
// afterwards and safe for concurrent use: reuse it while the graph it was
// built from is served (Counterfactual and Hypothesize take one).
type DepGraph struct {
	g         *graph.Graph
	fileLevel bool
	// unit[v] is the unit v belongs to, graph.NoNode for a container.
	unit []graph.NodeID
	// u depends on fwd[fwdOff[u]:fwdOff[u+1]] (ascending), through
	// fwdEdge with strength fwdStr; rev is the same read backwards.
	fwdOff  []uint32
	fwd     []graph.NodeID
	fwdEdge []graph.EdgeIdx
	fwdStr  []float32
	revOff  []uint32
	rev     []graph.NodeID
	revEdge []graph.EdgeIdx
	rels    relCache
	// typeOnly holds the links {a, b} where every import of b by a is
	// type-only (nil when the graph has no type-only import).
	typeOnly map[[2]graph.NodeID]struct{}
}

// NewDepGraph builds the dependency view of a finalized graph at file
// level (fileLevel) or entity level.
func NewDepGraph(g *graph.Graph, fileLevel bool) (*DepGraph, error) {
	if err := checkGraph(g); err != nil {
		return nil, err
	}
	d := &DepGraph{g: g, fileLevel: fileLevel, rels: newRelCache(g)}
	d.assignUnits()
	d.build()
	d.markTypeOnly()
	d.rels.frozen = true // shared from now on: lookups only read
	return d, nil
}

// Graph is the graph d was built from.
func (d *DepGraph) Graph() *graph.Graph { return d.g }

// FileLevel reports whether d's units are files.
func (d *DepGraph) FileLevel() bool { return d.fileLevel }

// Unit is the unit v belongs to: its file at file level (v itself for a
// node no file holds), v at entity level; graph.NoNode for a directory or
// package, or a node out of range.
func (d *DepGraph) Unit(v graph.NodeID) graph.NodeID {
	if int(v) >= len(d.unit) {
		return graph.NoNode
	}
	return d.unit[v]
}

// Dependencies are the units u depends on, ascending.
func (d *DepGraph) Dependencies(u graph.NodeID) []graph.NodeID {
	return d.fwd[d.fwdOff[u]:d.fwdOff[u+1]]
}

// Dependents are the units that depend on u, ascending.
func (d *DepGraph) Dependents(u graph.NodeID) []graph.NodeID {
	return d.rev[d.revOff[u]:d.revOff[u+1]]
}

// TypeOnly reports whether unit a depends on unit b for types alone: a
// imports from b, and only type-only (TypeImports: Python's `if
// TYPE_CHECKING:`, TypeScript's `import type`), so a's other links to b —
// annotations, type references — are read by the type checker alone too.
// It is a dependency for impact, none at run time (cycles, layers).
func (d *DepGraph) TypeOnly(a, b graph.NodeID) bool {
	_, ok := d.typeOnly[[2]graph.NodeID{a, b}]
	return ok
}

// markTypeOnly finds the links TypeOnly reports: the unit pairs joined by
// a type-only import and by no runtime one.
func (d *DepGraph) markTypeOnly() {
	g := d.g
	typeRel, ok := g.Strings().Lookup(TypeImports)
	if !ok {
		return // the common case: no language with type-only imports
	}
	impRel, _ := g.Strings().Lookup("imports")
	const runtime, typed = 1, 2
	seen := map[[2]graph.NodeID]uint8{}
	for v, u := range d.unit {
		if u == graph.NoNode {
			continue
		}
		lo, hi := g.OutRange(graph.NodeID(v))
		for e := lo; e < hi; e++ {
			r := g.Relation(e)
			if g.IsMirror(e) || (r != typeRel && r != impRel) {
				continue
			}
			t := d.unit[g.Target(e)]
			if t == graph.NoNode || t == u {
				continue
			}
			k := [2]graph.NodeID{u, t}
			if r == typeRel {
				seen[k] |= typed
			} else {
				seen[k] |= runtime
			}
		}
	}
	for k, f := range seen {
		if f == typed {
			if d.typeOnly == nil {
				d.typeOnly = map[[2]graph.NodeID]struct{}{}
			}
			d.typeOnly[k] = struct{}{}
		}
	}
}

// link returns the edge that makes "a depends on b" and its strength.
func (d *DepGraph) link(a, b graph.NodeID) (graph.EdgeIdx, float32, bool) {
	lo, hi := d.fwdOff[a], d.fwdOff[a+1]
	i, ok := slices.BinarySearch(d.fwd[lo:hi], b)
	if !ok {
		return 0, 0, false
	}
	return d.fwdEdge[int(lo)+i], d.fwdStr[int(lo)+i], true
}

// dependentEdge is the edge that makes the i-th dependent of u depend on u.
func (d *DepGraph) dependentEdge(u graph.NodeID, i int) graph.EdgeIdx {
	return d.revEdge[int(d.revOff[u])+i]
}

const unassigned = graph.NoNode - 1

// assignUnits gives every node its unit: at file level each file's
// containment descendants belong to it; containers belong to nothing.
func (d *DepGraph) assignUnits() {
	g := d.g
	n := g.NumNodes()
	d.unit = make([]graph.NodeID, n)
	for v := range d.unit {
		d.unit[v] = unassigned
		if isContainer(g, graph.NodeID(v)) {
			d.unit[v] = graph.NoNode
		}
	}
	if d.fileLevel {
		var stack []graph.NodeID
		for f := 0; f < n; f++ {
			if g.Type(graph.NodeID(f)) != graph.File || d.unit[f] != unassigned {
				continue
			}
			d.unit[f] = graph.NodeID(f)
			stack = append(stack[:0], graph.NodeID(f))
			for len(stack) > 0 {
				u := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				lo, hi := g.OutRange(u)
				for e := lo; e < hi; e++ {
					v := g.Target(e)
					if g.IsMirror(e) || d.unit[v] != unassigned || g.Type(v) == graph.File || d.rels.of(e).kind != Contains {
						continue
					}
					d.unit[v] = graph.NodeID(f)
					stack = append(stack, v)
				}
			}
		}
	}
	for v, u := range d.unit {
		if u == unassigned {
			d.unit[v] = graph.NodeID(v)
		}
	}
}

// build builds the forward and reverse adjacency of the units.
func (d *DepGraph) build() {
	g := d.g
	n := g.NumNodes()
	// Members of each unit, grouped by a counting sort.
	memOff := make([]uint32, n+1)
	for _, u := range d.unit {
		if u != graph.NoNode {
			memOff[u+1]++
		}
	}
	for i := 1; i <= n; i++ {
		memOff[i] += memOff[i-1]
	}
	members := make([]graph.NodeID, memOff[n])
	fill := slices.Clone(memOff[:n])
	for v, u := range d.unit {
		if u != graph.NoNode {
			members[fill[u]] = graph.NodeID(v)
			fill[u]++
		}
	}
	d.fwdOff = make([]uint32, n+1)
	slot := make([]int32, n)
	stamp := make([]uint32, n)
	for u := 0; u < n; u++ {
		d.fwdOff[u] = uint32(len(d.fwd))
		if d.unit[u] != graph.NodeID(u) {
			continue
		}
		start := len(d.fwd)
		tag := uint32(u) + 1
		for _, m := range members[memOff[u]:memOff[u+1]] {
			d.dependencyEdges(m, func(x graph.NodeID, e graph.EdgeIdx, st float32) {
				t := d.unit[x]
				if t == graph.NoNode || t == graph.NodeID(u) {
					return
				}
				if stamp[t] != tag {
					stamp[t], slot[t] = tag, int32(len(d.fwd))
					d.fwd, d.fwdEdge, d.fwdStr = append(d.fwd, t), append(d.fwdEdge, e), append(d.fwdStr, st)
				} else if i := slot[t]; st > d.fwdStr[i] || (st == d.fwdStr[i] && e < d.fwdEdge[i]) {
					d.fwdEdge[i], d.fwdStr[i] = e, st
				}
			})
		}
		sortLinks(d.fwd[start:], d.fwdEdge[start:], d.fwdStr[start:])
	}
	d.fwdOff[n] = uint32(len(d.fwd))
	d.revOff = make([]uint32, n+1)
	for _, t := range d.fwd {
		d.revOff[t+1]++
	}
	for i := 1; i <= n; i++ {
		d.revOff[i] += d.revOff[i-1]
	}
	d.rev = make([]graph.NodeID, len(d.fwd))
	d.revEdge = make([]graph.EdgeIdx, len(d.fwd))
	pos := slices.Clone(d.revOff[:n])
	for u := 0; u < n; u++ { // sources ascending, so each rev list is too
		for i := d.fwdOff[u]; i < d.fwdOff[u+1]; i++ {
			t := d.fwd[i]
			d.rev[pos[t]], d.revEdge[pos[t]] = graph.NodeID(u), d.fwdEdge[i]
			pos[t]++
		}
	}
}

// sortLinks sorts one unit's links by target, keeping the three slices
// together: insertion sort for the usual short lists, a sort of records
// for long ones.
func sortLinks(t []graph.NodeID, e []graph.EdgeIdx, s []float32) {
	if len(t) > 32 {
		type rec struct {
			t graph.NodeID
			e graph.EdgeIdx
			s float32
		}
		rs := make([]rec, len(t))
		for i := range rs {
			rs[i] = rec{t[i], e[i], s[i]}
		}
		slices.SortFunc(rs, func(a, b rec) int { return cmp.Compare(a.t, b.t) })
		for i, r := range rs {
			t[i], e[i], s[i] = r.t, r.e, r.s
		}
		return
	}
	for i := 1; i < len(t); i++ {
		for j := i; j > 0 && t[j] < t[j-1]; j-- {
			t[j], t[j-1] = t[j-1], t[j]
			e[j], e[j-1] = e[j-1], e[j]
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// dependencyEdges calls f for every node m depends on: the targets of its
// active dependency edges (m imports x) and the sources of passive ones
// that name m (x imported_by m). Mirrors and zero-strength edges are
// skipped.
func (d *DepGraph) dependencyEdges(m graph.NodeID, f func(x graph.NodeID, e graph.EdgeIdx, strength float32)) {
	g := d.g
	lo, hi := g.OutRange(m)
	for e := lo; e < hi; e++ {
		if g.IsMirror(e) {
			continue
		}
		if ri := d.rels.of(e); ri.kind == DependsOn {
			if st := ri.strength * structuralWeight(g, e); st > 0 {
				f(g.Target(e), e, st)
			}
		}
	}
	ilo, ihi := g.InRange(m)
	for pos := ilo; pos < ihi; pos++ {
		e := g.InEdge(pos)
		if g.IsMirror(e) {
			continue
		}
		if ri := d.rels.of(e); ri.kind == DependedOnBy {
			if st := ri.strength * structuralWeight(g, e); st > 0 {
				f(g.InSource(pos), e, st)
			}
		}
	}
}

// scopeUnits returns the units of the given nodes and of everything they
// contain (a directory's files, a class's methods), ascending, and the
// nodes of that scope.
func (d *DepGraph) scopeUnits(roots []graph.NodeID) (units, scope []graph.NodeID, err error) {
	g := d.g
	seen := make(map[graph.NodeID]bool, len(roots))
	for _, r := range roots {
		if !g.Valid(r) {
			return nil, nil, fmt.Errorf("analysis: node %d out of range (graph has %d nodes)", r, g.NumNodes())
		}
		if !seen[r] {
			seen[r] = true
			scope = append(scope, r)
		}
	}
	for i := 0; i < len(scope); i++ {
		lo, hi := g.OutRange(scope[i])
		for e := lo; e < hi; e++ {
			if v := g.Target(e); !g.IsMirror(e) && !seen[v] && d.rels.of(e).kind == Contains {
				seen[v] = true
				scope = append(scope, v)
			}
		}
	}
	us := map[graph.NodeID]bool{}
	for _, v := range scope {
		if u := d.unit[v]; u != graph.NoNode && !us[u] {
			us[u] = true
			units = append(units, u)
		}
	}
	slices.Sort(units)
	return units, scope, nil
}

// relCache classifies relation handles with a slice lookup (the hot loops
// of DepGraph classify every edge twice).
type relCache struct {
	g      *graph.Graph
	info   []relInfo
	known  []bool
	frozen bool
}

func newRelCache(g *graph.Graph) relCache {
	n := g.Strings().Len()
	return relCache{g: g, info: make([]relInfo, n), known: make([]bool, n)}
}

func (c *relCache) of(e graph.EdgeIdx) relInfo {
	s := c.g.Relation(e)
	if int(s) >= len(c.known) || (c.frozen && !c.known[s]) {
		k, f := classify(c.g.Strings().String(s))
		return relInfo{k, f}
	}
	if !c.known[s] {
		k, f := classify(c.g.Strings().String(s))
		c.info[s], c.known[s] = relInfo{k, f}, true
	}
	return c.info[s]
}

// HoldsCode reports whether a node is a file that contains functions,
// types or classes, directly or inside its modules (Ruby wraps a file's
// code in `module Rack`, Rust in `mod x {}`): not a README, changelog,
// key, lock or TOML file (whose tables are modules holding no code),
// which change with everything and explain nothing about the code.
func HoldsCode(g *graph.Graph, id graph.NodeID) bool {
	return g.Type(id) == graph.File && containsCode(g, id, maxModuleDepth)
}

// dataTags are the language tags ingest gives files that hold no code.
var dataTags = []string{"doc", "build", "json", "yaml", "toml", "xml", "csv", "css", "html", "md", "mod", "sum", "work", "ini", "text", "lock"}

// IsDataFile reports a file ingest tagged as documentation, build
// metadata, data or markup (README.md, LICENSE, go.mod, composer.json).
func IsDataFile(g *graph.Graph, id graph.NodeID) bool {
	return g.Type(id) == graph.File && HasDataTag(g, id)
}

// HasDataTag reports a node carrying one of the tags ingest gives files
// that hold no code.
func HasDataTag(g *graph.Graph, id graph.NodeID) bool {
	for _, t := range dataTags {
		if g.HasTag(id, t) {
			return true
		}
	}
	return false
}

// maxModuleDepth bounds how deep HoldsCode looks through nested modules.
const maxModuleDepth = 4

func containsCode(g *graph.Graph, id graph.NodeID, depth int) bool {
	lo, hi := g.OutRange(id)
	for e := lo; e < hi; e++ {
		if g.IsMirror(e) || g.RelationName(e) != "contains" {
			continue
		}
		switch t := g.Target(e); g.Type(t) {
		case graph.Function, graph.Class, graph.Struct, graph.Enum, graph.Type:
			return true
		case graph.Module:
			if depth > 0 && containsCode(g, t, depth-1) {
				return true
			}
		}
	}
	return false
}
