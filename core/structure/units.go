package structure

import (
	"path"
	"slices"
	"strings"

	"github.com/m1nd-go/m1nd/core/analysis"
	"github.com/m1nd-go/m1nd/core/graph"
)

// Granularity is what one unit of the unit graph stands for.
type Granularity uint8

const (
	// Module: the language's own module — a Go package (the directory of
	// its files), a file for every other language.
	Module Granularity = iota
	// FileUnit: each file on its own.
	FileUnit
	// Directory: each directory, whatever the language.
	Directory
)

// ParseGranularity reads "module", "file" or "directory" ("" is module).
func ParseGranularity(s string) (Granularity, bool) {
	switch s {
	case "", "module":
		return Module, true
	case "file":
		return FileUnit, true
	case "directory", "dir":
		return Directory, true
	}
	return Module, false
}

// UnitOptions choose the files and how they group.
type UnitOptions struct {
	Granularity Granularity
	// Scope keeps files whose path starts with it ("" keeps all).
	Scope string
	// Exclude drops a file by its path (tests, generated code); nil keeps all.
	Exclude func(path string) bool
	// Runtime keeps the dependencies that hold when the code runs: a
	// file's dependency on another it imports for types alone (Python's
	// `if TYPE_CHECKING:`, TypeScript's `import type`; DepGraph.TypeOnly)
	// is left out and counted in Units.TypeOnly. Layers want this: a
	// type-only import closes no import cycle.
	Runtime bool
}

// Link is one dependency between units: the source depends on To through
// Weight file-level dependencies.
type Link struct {
	To     int
	Weight int
}

// Units is the dependency graph of units, numbered by name ascending.
type Units struct {
	Names []string
	// Members are each unit's nodes, ascending: its files for file units,
	// the entity and what it contains for BuildEntityUnits.
	Members [][]graph.NodeID
	// Out[u] and In[u] are u's dependencies and dependents, by index.
	Out, In [][]Link
	// Internal[u] counts file-level dependencies inside u.
	Internal []int
	// TypeOnly counts the file-level dependencies between units that
	// UnitOptions.Runtime left out.
	TypeOnly int
	byName   map[string]int
}

// Len is the number of units.
func (u *Units) Len() int { return len(u.Names) }

// Index is the unit named name.
func (u *Units) Index(name string) (int, bool) { i, ok := u.byName[name]; return i, ok }

// FilePath is the repository-relative path of a file node: its external id
// without "file::", else its provenance path.
func FilePath(g *graph.Graph, v graph.NodeID) string {
	if id := g.ExternalID(v); strings.HasPrefix(id, "file::") {
		return id[len("file::"):]
	}
	return g.SourcePath(v)
}

// UnitName is the unit a file at path p belongs to.
func UnitName(p string, gr Granularity) string {
	switch gr {
	case FileUnit:
		return p
	case Directory:
		return path.Dir(p)
	}
	if strings.HasSuffix(p, ".go") {
		return path.Dir(p)
	}
	return p
}

// BuildUnits groups d's file-level dependencies into units. d must be a
// file-level DepGraph.
func BuildUnits(d *analysis.DepGraph, opt UnitOptions) *Units {
	g := d.Graph()
	unitOf := map[graph.NodeID]string{}
	members := map[string][]graph.NodeID{}
	for v := 0; v < g.NumNodes(); v++ {
		id := graph.NodeID(v)
		if g.Type(id) != graph.File || d.Unit(id) != id {
			continue
		}
		p := FilePath(g, id)
		if p == "" || !strings.HasPrefix(p, opt.Scope) || (opt.Exclude != nil && opt.Exclude(p)) {
			continue
		}
		if !analysis.HoldsCode(g, id) && len(d.Dependencies(id)) == 0 && len(d.Dependents(id)) == 0 {
			continue // a README, a licence or a key: no unit of the architecture
		}
		name := UnitName(p, opt.Granularity)
		unitOf[id] = name
		members[name] = append(members[name], id)
	}
	u := &Units{byName: make(map[string]int, len(members))}
	for name := range members {
		u.Names = append(u.Names, name)
	}
	slices.Sort(u.Names)
	n := len(u.Names)
	u.Members, u.Out, u.In, u.Internal = make([][]graph.NodeID, n), make([][]Link, n), make([][]Link, n), make([]int, n)
	for i, name := range u.Names {
		u.byName[name] = i
		u.Members[i] = members[name] // ascending: nodes were visited in order
	}
	w := map[[2]int]int{}
	for i := range u.Names {
		for _, f := range u.Members[i] {
			for _, t := range d.Dependencies(f) {
				name, ok := unitOf[t]
				if !ok {
					continue
				}
				j := u.byName[name]
				if opt.Runtime && j != i && d.TypeOnly(f, t) {
					u.TypeOnly++
					continue
				}
				if j == i {
					u.Internal[i]++
				} else {
					w[[2]int{i, j}]++
				}
			}
		}
	}
	u.link(w)
	return u
}

// link records the counted dependencies between units (w[{from, to}]) as
// both directions' links, sorted by unit.
func (u *Units) link(w map[[2]int]int) {
	for k, c := range w {
		u.Out[k[0]] = append(u.Out[k[0]], Link{k[1], c})
		u.In[k[1]] = append(u.In[k[1]], Link{k[0], c})
	}
	for i := range u.Out {
		slices.SortFunc(u.Out[i], byTo)
		slices.SortFunc(u.In[i], byTo)
	}
}

func byTo(a, b Link) int { return a.To - b.To }

// FromLinks builds Units from names and links (names[i] is unit i's name;
// a pair (i, j) with weight w says i depends on j): for tests and callers
// with their own dependency data.
func FromLinks(names []string, links map[[2]int]int) *Units {
	n := len(names)
	u := &Units{Names: names, Members: make([][]graph.NodeID, n), Out: make([][]Link, n), In: make([][]Link, n),
		Internal: make([]int, n), byName: make(map[string]int, n)}
	for i, s := range names {
		u.byName[s] = i
	}
	for k, c := range links {
		if k[0] == k[1] {
			u.Internal[k[0]] += c
			continue
		}
		u.Out[k[0]] = append(u.Out[k[0]], Link{k[1], c})
		u.In[k[1]] = append(u.In[k[1]], Link{k[0], c})
	}
	for i := range u.Out {
		slices.SortFunc(u.Out[i], byTo)
		slices.SortFunc(u.In[i], byTo)
	}
	return u
}
