package document

import (
	"slices"
	"strings"

	"github.com/m1nd-go/m1nd/core/graph"
)

// What document_drift needs to check a documentation example's call
// against the code it calls: the dotted name resolved as Python imports
// it (re-exports followed, source before stub), and the class whose
// __init__ a constructor call reaches.

// PythonName resolves a dotted name as a Python program importing it
// would ("tqdm.tqdm" is what tqdm/__init__.py exposes as tqdm); nil when
// no ingested module exposes it.
func (x *Index) PythonName(q string) []graph.NodeID {
	return x.preferSource(x.moduleExport(q))
}

// CodeQual splits a code node's external ID into its file path and the
// segments of its qualified name ("file::a.py::A::f" → a.py, [A f]).
func CodeQual(ext string) (p string, segs []string, ok bool) {
	_, p, segs, ok = codeRef(ext)
	return p, segs, ok
}

// PythonInit finds the __init__ a call of class c runs: c's own, else
// the one of the first base (breadth first over inherits edges) that
// defines it. visited lists the classes searched, c first, so that the
// caller can refuse decorated ones (dataclass, attrs). known is false
// when a base lies outside the graph, when two bases define __init__
// (the MRO would have to be computed), or when a class defines __new__:
// then the accepted arguments are not known and nothing is checked.
// init is graph.NoNode (and known true) when no class defines one: the
// call takes no arguments.
func (x *Index) PythonInit(c graph.NodeID) (init graph.NodeID, visited []graph.NodeID, known bool) {
	return x.pythonDef(c, "__init__")
}

// PythonMethod finds the def of method m that a call on an instance of
// class c runs: c's own, else the one of the first base (breadth first)
// that defines it. known is false as for PythonInit, and when a class
// on the way binds m by assignment (m = other), which no def shows.
// visited lists the classes searched, c first.
func (x *Index) PythonMethod(c graph.NodeID, m string) (def graph.NodeID, visited []graph.NodeID, known bool) {
	return x.pythonDef(c, m)
}

// pythonDef walks c's hierarchy for the def of name (PythonInit,
// PythonMethod).
func (x *Index) pythonDef(c graph.NodeID, name string) (def graph.NodeID, visited []graph.NodeID, known bool) {
	g := x.g
	def = graph.NoNode
	seen := map[graph.NodeID]bool{c: true}
	queue := []graph.NodeID{c}
	for len(queue) > 0 {
		if len(visited) == maxHierarchy {
			return graph.NoNode, visited, false
		}
		k := queue[0]
		queue = queue[1:]
		visited = append(visited, k)
		if _, ok := g.Lookup(g.ExternalID(k) + "::__new__"); ok && name == "__init__" {
			return graph.NoNode, visited, false
		}
		if id, ok := g.Lookup(g.ExternalID(k) + "::" + name); ok {
			if def != graph.NoNode {
				return graph.NoNode, visited, false
			}
			def = id
			if k == c {
				return def, visited, true // its own def is what runs
			}
			continue
		}
		if name != "__init__" {
			if body, ok := x.classSource(k); !ok || assignsMember(body, name) {
				return graph.NoNode, visited, false
			}
		}
		bases, ok := x.pyBases(k)
		if !ok {
			return graph.NoNode, visited, false
		}
		for _, t := range bases {
			if !seen[t] {
				seen[t] = true
				queue = append(queue, t)
			}
		}
	}
	return def, visited, true
}

// PythonNameIn resolves a name as the Python file p sees it, defined
// there or imported ("DateTime" in a def's "-> DateTime" annotation);
// nil when no module name of p exposes it.
func (x *Index) PythonNameIn(p, name string) []graph.NodeID {
	mods := pyModules(p)
	for i := len(mods) - 1; i >= 0; i-- {
		if ids := x.PythonName(mods[i] + "." + name); len(ids) > 0 {
			return ids
		}
	}
	return nil
}

// pyBases are a class's bases in the graph; false when one of them is
// not (a library's class, whose __init__ is unknown here).
func (x *Index) pyBases(c graph.NodeID) ([]graph.NodeID, bool) {
	g := x.g
	var out []graph.NodeID
	lo, hi := g.OutRange(c)
	for e := lo; e < hi; e++ {
		if g.IsMirror(e) || g.RelationName(e) != "inherits" {
			continue
		}
		t := g.Target(e)
		if !isClassType(g.Type(t)) {
			return nil, false
		}
		out = append(out, t)
	}
	body, readable := x.classSource(c)
	if !readable || declaredBases(g.SourcePath(c), body) > len(out) {
		return nil, false
	}
	slices.Sort(out)
	return out, true
}

// PythonPackage reports a top-level Python package of the ingested code
// ("arrow" for arrow/__init__.py): a page about the project may call
// arrow.get(…) without showing `import arrow`.
func (x *Index) PythonPackage(name string) bool {
	for _, m := range x.modules[name] {
		if p := x.g.SourcePath(m); p == name+"/__init__.py" || p == "src/"+name+"/__init__.py" {
			return true
		}
	}
	return false
}

// PythonModuleFiles are the source paths of the project's Python module
// name ("starlette.responses"), and whether name is known at all: a
// module, or the package of one (a namespace package has no file of its
// own). An example that imports an unknown module of the project's own
// package was written for a layout the code no longer has (starlette's
// "from starlette.app import Starlette" after the module became
// starlette.applications).
func (x *Index) PythonModuleFiles(name string) (paths []string, known bool) {
	for _, m := range x.modules[name] {
		p := x.g.SourcePath(m)
		if full := pyModules(p); len(full) > 0 && (full[len(full)-1] == name || strings.HasSuffix(full[len(full)-1], "."+name)) {
			paths = append(paths, p)
		}
	}
	if len(paths) > 0 {
		slices.Sort(paths)
		return paths, true
	}
	for k := range x.modules {
		if strings.HasPrefix(k, name+".") {
			return nil, true
		}
	}
	return nil, false
}

// Labeled reports whether some node of the graph carries the label name
// (a def, class or file), however many: a name that binds to nothing
// because several nodes carry it is still defined.
func (x *Index) Labeled(name string) bool { return len(x.label[name]) > 0 }
