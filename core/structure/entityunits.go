package structure

import (
	"cmp"
	"maps"
	"slices"
	"strings"

	"github.com/m1nd-go/m1nd/core/analysis"
	"github.com/m1nd-go/m1nd/core/graph"
)

// maxContainment bounds the walk up from a node to its owner (a
// containment cycle stops there).
const maxContainment = 64

// BuildEntityUnits builds units out of the nodes whose type is in types
// (node_type_filter, docs/design.md#structure-family): each such node is
// a unit, and every other node counts as part of its nearest containing
// node of one of those types (a method belongs to its class when types
// holds Class; a module-level function to its file when it holds File),
// or of no unit when there is none. d must be an entity-level DepGraph;
// opt.Scope and opt.Exclude read the unit's source path, Granularity is
// not used. Units are named by their external id without "file::".
func BuildEntityUnits(d *analysis.DepGraph, types []graph.NodeType, opt UnitOptions) *Units {
	g := d.Graph()
	o := newOwners(g, types)
	keep := func(u graph.NodeID) bool {
		p := g.SourcePath(u)
		return p != "" && strings.HasPrefix(p, opt.Scope) && (opt.Exclude == nil || !opt.Exclude(p))
	}
	members := map[graph.NodeID][]graph.NodeID{}
	for v := 0; v < g.NumNodes(); v++ {
		id := graph.NodeID(v)
		if d.Unit(id) != id {
			continue
		}
		if w := o.of(id); w != graph.NoNode && keep(w) {
			members[w] = append(members[w], id)
		}
	}
	owners := slices.Collect(maps.Keys(members))
	names := make([]string, len(owners))
	for i, w := range owners {
		names[i] = entityName(g, w)
	}
	order := make([]int, len(owners))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return cmp.Or(cmp.Compare(names[a], names[b]), cmp.Compare(owners[a], owners[b])) })
	u := &Units{byName: make(map[string]int, len(owners))}
	n := len(owners)
	u.Out, u.In, u.Internal = make([][]Link, n), make([][]Link, n), make([]int, n)
	index := make(map[graph.NodeID]int, n)
	for _, i := range order {
		index[owners[i]] = len(u.Names)
		u.byName[names[i]] = len(u.Names)
		u.Names = append(u.Names, names[i])
		u.Members = append(u.Members, members[owners[i]])
	}
	w := map[[2]int]int{}
	for i := range u.Names {
		for _, m := range u.Members[i] {
			for _, t := range d.Dependencies(m) {
				switch j, ok := index[o.of(t)]; {
				case !ok:
				case j != i && opt.Runtime && d.TypeOnly(m, t):
					u.TypeOnly++ // a file's type-only import of an entity
				case j == i:
					u.Internal[i]++
				default:
					w[[2]int{i, j}]++
				}
			}
		}
	}
	u.link(w)
	return u
}

// entityName is a unit's name: its external id without "file::".
func entityName(g *graph.Graph, v graph.NodeID) string {
	return strings.TrimPrefix(g.ExternalID(v), "file::")
}

// owners finds each node's nearest ancestor-or-self of a chosen type,
// memoised.
type owners struct {
	g      *graph.Graph
	want   [256]bool
	memo   map[graph.NodeID]graph.NodeID
	parent func(graph.NodeID) graph.NodeID
}

func newOwners(g *graph.Graph, types []graph.NodeType) *owners {
	w := &walker{g: g, kind: make([]uint8, g.Strings().Len())}
	o := &owners{g: g, memo: map[graph.NodeID]graph.NodeID{}, parent: w.parent}
	for _, t := range types {
		o.want[t] = true
	}
	return o
}

// of is v's owner, graph.NoNode when no ancestor has a chosen type.
func (o *owners) of(v graph.NodeID) graph.NodeID {
	if w, ok := o.memo[v]; ok {
		return w
	}
	w, x := graph.NoNode, v
	for i := 0; x != graph.NoNode && i < maxContainment; i++ {
		if o.want[o.g.Type(x)] {
			w = x
			break
		}
		x = o.parent(x)
	}
	o.memo[v] = w
	return w
}
