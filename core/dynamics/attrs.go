package dynamics

import (
	"cmp"
	"maps"
	"path"
	"slices"
	"strings"

	"github.com/m1nd-go/m1nd/core/graph"
)

// SourceFunc returns the source lines of a node's span (its provenance
// LineStart..LineEnd in its file), nil when they cannot be read. Flow
// reads the methods particles reach through it to find the attributes
// they write (docs/design.md#dynamics-and-reports).
type SourceFunc func(n graph.NodeID) []string

// Site is a line that writes shared state.
type Site struct {
	Node graph.NodeID // the method
	Line int
}

// Sharing says why state is shared between callers.
const (
	SharedModule   = "module"          // a module-level variable
	SharedClass    = "class"           // written through the class (ClassName.x, cls.x)
	SharedInstance = "module_instance" // an instance held at module level (x = Cache())
	PerInstance    = "instance"        // an instance attribute; the instance may be per call
)

// maxMethodScans bounds the methods whose source one Flow reads.
const maxMethodScans = 5000

// constructors run before an object is shared: their writes initialise.
var constructors = map[string]bool{"__init__": true, "__new__": true, "__post_init__": true, "constructor": true, "setUp": true}

type attrKey struct {
	owner graph.NodeID
	attr  string
}

// attrUse gathers one attribute's uses in the methods particles reached.
type attrUse struct {
	methods []graph.NodeID // ascending
	writes  []Site
	// class: written through the class (a read such as an ORM's
	// Model.column in a query shares nothing).
	class bool
}

// methodScan is what one method's source says.
type methodScan struct {
	owner  graph.NodeID
	uses   []access
	locked bool
}

// attrTurbulence finds the attributes of classes and structs that
// methods reached by particles of two entry points or more use, one of
// them writing (outside a constructor).
func attrTurbulence(g *graph.Graph, rels relCache, ps []*particle, reached map[graph.NodeID][]int, src SourceFunc) []Turbulence {
	nodes := slices.Sorted(maps.Keys(reached))
	scans := map[graph.NodeID]*methodScan{}
	uses := map[attrKey]*attrUse{}
	for _, m := range nodes {
		if len(scans) == maxMethodScans {
			break
		}
		sc := scanMethod(g, rels, m, src)
		if sc == nil {
			continue
		}
		scans[m] = sc
		for _, a := range sc.uses {
			k := attrKey{sc.owner, a.attr}
			u := uses[k]
			if u == nil {
				u = &attrUse{}
				uses[k] = u
			}
			if len(u.methods) == 0 || u.methods[len(u.methods)-1] != m {
				u.methods = append(u.methods, m)
			}
			if a.write {
				u.writes = append(u.writes, Site{m, a.line})
			}
			u.class = u.class || a.class && a.write
		}
	}
	var out []Turbulence
	for k, u := range uses {
		if t, ok := attrPoint(g, rels, ps, reached, scans, k, u, sharing(g, rels, k.owner, u)); ok {
			out = append(out, t)
		}
	}
	return append(out, pythonModuleTurbulence(g, rels, ps, reached, src, nodes)...)
}

// pythonModuleTurbulence finds Python module-level variables that
// functions of their own file, reached by particles, use and write (the
// graph records no variable uses in Python bodies, so their source is
// read).
func pythonModuleTurbulence(g *graph.Graph, rels relCache, ps []*particle, reached map[graph.NodeID][]int, src SourceFunc, nodes []graph.NodeID) []Turbulence {
	vars := map[string]map[string]graph.NodeID{} // file → name → variable
	for v := 0; v < g.NumNodes(); v++ {
		n := graph.NodeID(v)
		if pythonVariable(g, n) && !IsValve(g.Label(n)) {
			f := g.SourcePath(n)
			if vars[f] == nil {
				vars[f] = map[string]graph.NodeID{}
			}
			vars[f][g.Label(n)] = n
		}
	}
	scans := map[graph.NodeID]*methodScan{}
	uses := map[attrKey]*attrUse{}
	for _, m := range nodes {
		names := vars[g.SourcePath(m)]
		if names == nil || g.Type(m) != graph.Function || isTest(g, m) || len(scans) == maxMethodScans {
			continue
		}
		lines := src(m)
		if len(lines) == 0 {
			continue
		}
		sc := &methodScan{}
		sc.uses, sc.locked = scanNames(lines, int(g.Provenance(m).LineStart), namesOf(names), "#")
		scans[m] = sc
		for _, a := range sc.uses {
			k := attrKey{names[a.attr], ""}
			if uses[k] == nil {
				uses[k] = &attrUse{}
			}
			u := uses[k]
			if len(u.methods) == 0 || u.methods[len(u.methods)-1] != m {
				u.methods = append(u.methods, m)
			}
			if a.write {
				u.writes = append(u.writes, Site{m, a.line})
			}
		}
	}
	var out []Turbulence
	for k, u := range uses {
		if t, ok := attrPoint(g, rels, ps, reached, scans, k, u, SharedModule); ok {
			out = append(out, t)
		}
	}
	return out
}

// pythonVariable: a Python module-level variable (not a constant).
func pythonVariable(g *graph.Graph, n graph.NodeID) bool {
	return g.HasTag(n, "variable") && g.HasTag(n, "python")
}

func namesOf(m map[string]graph.NodeID) map[string]bool {
	out := make(map[string]bool, len(m))
	for k := range m {
		out[k] = true
	}
	return out
}

// attrPoint scores one attribute: the entry points whose particles reach
// a method using it, when there are two or more and one reaches a write.
func attrPoint(g *graph.Graph, rels relCache, ps []*particle, reached map[graph.NodeID][]int, scans map[graph.NodeID]*methodScan, k attrKey, u *attrUse, shared string) (Turbulence, bool) {
	if len(u.writes) == 0 {
		return Turbulence{}, false
	}
	via := map[int]graph.NodeID{} // particle → the method it reaches (a writer first)
	writer := false
	for _, w := range u.writes {
		for _, i := range reached[w.Node] {
			if _, ok := via[i]; !ok {
				via[i], writer = w.Node, true
			}
		}
	}
	for _, m := range u.methods {
		for _, i := range reached[m] {
			if _, ok := via[i]; !ok {
				via[i] = m
			}
		}
	}
	if len(via) < 2 || !writer {
		return Turbulence{}, false
	}
	who := slices.Collect(maps.Keys(via))
	slices.SortFunc(who, func(a, b int) int { return cmp.Compare(ps[a].entry, ps[b].entry) })
	t := Turbulence{Node: k.owner, Attr: k.attr, Writes: u.writes, Guarded: true, Shared: shared}
	for _, i := range who {
		m := via[i]
		p := ps[i].path(m)
		t.Entries = append(t.Entries, ps[i].entry)
		t.Paths = append(t.Paths, p)
		t.Guarded = t.Guarded && (scans[m].locked || guarded(g, rels, append(p, m)))
	}
	n := float64(len(who))
	t.Score = 1 - 1/n
	if t.Guarded {
		t.Score /= 2
	}
	if t.Shared == PerInstance {
		t.Score /= 2
	}
	t.Severity = severity(len(who), t.Guarded || t.Shared == PerInstance)
	return t, true
}

// sharing: through the class, or an instance a module-level variable (or
// module-level code) makes or holds, else per instance.
func sharing(g *graph.Graph, rels relCache, owner graph.NodeID, u *attrUse) string {
	if u.class {
		return SharedClass
	}
	lo, hi := g.InRange(owner)
	for p := lo; p < hi; p++ {
		e := g.InEdge(p)
		r := rels.of(g, e)
		if g.IsMirror(e) || r.reversed || !flowRelations[r.name] {
			continue
		}
		// A file's own references are type uses (Go's var _ I = (*T)(nil));
		// its calls are module-level code making an instance.
		s := g.InSource(p)
		file := g.Type(s) == graph.File && r.name != "references"
		if (file || g.HasTag(s, "variable") || g.HasTag(s, "constant")) && !isTest(g, s) {
			return SharedInstance
		}
		if g.Type(s) == graph.Function && constructorFunc(g.Label(s)) && heldByVariable(g, rels, s) {
			return SharedInstance // var std = New(), New making the owner
		}
	}
	return PerInstance
}

// constructorFunc: a function named as Go's constructors are (New,
// NewStore, newStore).
func constructorFunc(label string) bool {
	return strings.HasPrefix(label, "New") || strings.HasPrefix(label, "new") && len(label) > 3 && label[3] >= 'A' && label[3] <= 'Z'
}

// heldByVariable: a module-level variable (not a test's) calls f.
func heldByVariable(g *graph.Graph, rels relCache, f graph.NodeID) bool {
	lo, hi := g.InRange(f)
	for p := lo; p < hi; p++ {
		e := g.InEdge(p)
		s := g.InSource(p)
		if !g.IsMirror(e) && rels.of(g, e).name == "calls" && g.HasTag(s, "variable") && !isTest(g, s) {
			return true
		}
	}
	return false
}

// scanMethod reads a method's attribute uses; nil for a node that is not
// a method of a class or struct, a constructor, a test, or one whose
// source is not available.
func scanMethod(g *graph.Graph, rels relCache, m graph.NodeID, src SourceFunc) *methodScan {
	if g.Type(m) != graph.Function || isTest(g, m) || constructors[g.Label(m)] {
		return nil
	}
	owner := ownerOf(g, rels, m)
	if owner == graph.NoNode {
		return nil
	}
	comment, ok := commentOf(g.SourcePath(m))
	if !ok {
		return nil
	}
	lines := src(m)
	if len(lines) == 0 {
		return nil
	}
	recvs := receivers(g, m, owner, lines)
	if len(recvs) == 0 {
		return nil
	}
	sc := &methodScan{owner: owner}
	sc.uses, sc.locked = scanAccesses(lines, int(g.Provenance(m).LineStart), recvs, methodNames(g, rels, owner), comment)
	return sc
}

// ownerOf is the class, struct or type that contains m (NoNode for none).
func ownerOf(g *graph.Graph, rels relCache, m graph.NodeID) graph.NodeID {
	lo, hi := g.InRange(m)
	for p := lo; p < hi; p++ {
		e := g.InEdge(p)
		if g.IsMirror(e) || rels.of(g, e).name != "contains" {
			continue
		}
		switch s := g.InSource(p); g.Type(s) {
		case graph.Class, graph.Struct, graph.Type:
			return s
		}
	}
	return graph.NoNode
}

func methodNames(g *graph.Graph, rels relCache, owner graph.NodeID) map[string]bool {
	out := map[string]bool{}
	lo, hi := g.OutRange(owner)
	for e := lo; e < hi; e++ {
		if t := g.Target(e); !g.IsMirror(e) && rels.of(g, e).name == "contains" && g.Type(t) == graph.Function {
			out[g.Label(t)] = true
		}
	}
	return out
}

// commentOf is the line comment of the languages whose methods are read.
func commentOf(p string) (string, bool) {
	switch path.Ext(p) {
	case ".py", ".pyi":
		return "#", true
	case ".go", ".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".mts", ".cts":
		return "//", true
	}
	return "", false
}

// receivers are the names m reaches its object and class by: Python's
// first parameter (the class itself for a classmethod, none for a
// staticmethod), a Go receiver (writes through a value receiver change a
// copy), this in JavaScript and TypeScript; and the class's own name.
func receivers(g *graph.Graph, m, owner graph.NodeID, lines []string) []objRef {
	class := objRef{name: g.Label(owner), class: true}
	switch path.Ext(g.SourcePath(m)) {
	case ".py", ".pyi":
		if g.HasTag(m, "staticmethod") {
			return []objRef{class}
		}
		head := strings.Join(lines[:min(len(lines), 4)], " ")
		_, params, ok := strings.Cut(head, "(")
		if !ok {
			return []objRef{class}
		}
		first := identAt(strings.TrimSpace(params))
		if first == "" {
			return []objRef{class}
		}
		return []objRef{{name: first, class: g.HasTag(m, "classmethod")}, class}
	case ".go":
		head := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(lines[0]), "func"))
		if !strings.HasPrefix(head, "(") {
			return nil
		}
		name := identAt(strings.TrimSpace(head[1:]))
		rest := strings.TrimSpace(head[1+strings.Index(head[1:], name)+len(name):])
		if name == "" || name == "_" {
			return nil
		}
		return []objRef{{name: name, readOnly: !strings.HasPrefix(rest, "*")}}
	}
	return []objRef{{name: "this"}, class}
}
