package document

import (
	"path"
	"slices"
	"strings"

	"github.com/m1nd-go/m1nd/core/graph"
)

// Python names as a reader of the docs means them: "pkg.Name" is what
// module pkg exposes as Name (its own definition or what its __init__
// imports), not any class Name in some submodule of pkg.

// pyModules indexes Python module files by every dotted suffix of their
// module name: src/structlog/__init__.py answers to "structlog" and
// "src.structlog", src/structlog/stdlib.py to "stdlib" and
// "structlog.stdlib".
func pyModules(p string) []string {
	ext := path.Ext(p)
	if ext != ".py" && ext != ".pyi" {
		return nil
	}
	parts := strings.Split(strings.TrimSuffix(p, ext), "/")
	if parts[len(parts)-1] == "__init__" {
		parts = parts[:len(parts)-1]
	}
	var out []string
	for i := len(parts) - 1; i >= 0; i-- {
		out = append(out, strings.Join(parts[i:], "."))
	}
	return out
}

// stub reports a declaration-only file (a type stub), which a document
// names only when no source defines the same name.
func stub(p string) bool {
	return strings.HasSuffix(p, ".pyi") || strings.HasSuffix(p, ".d.ts") || strings.HasSuffix(p, ".d.mts") || strings.HasSuffix(p, ".d.cts")
}

// definition reports a node a name can bind to: a declared entity, not a
// reference the graph keeps for a name it could not resolve.
func (x *Index) definition(id graph.NodeID) bool {
	t := x.g.Type(id)
	return t != graph.Reference && t != graph.File && t != graph.Directory
}

// exposed is what module file mod exposes as name: its own definition,
// else the definitions its imports edges of that name reach.
func (x *Index) exposed(mod graph.NodeID, name string) []graph.NodeID {
	g := x.g
	if id, ok := g.Lookup(g.ExternalID(mod) + "::" + name); ok && x.definition(id) {
		return []graph.NodeID{id}
	}
	var out []graph.NodeID
	lo, hi := g.OutRange(mod)
	for e := lo; e < hi; e++ {
		t := g.Target(e)
		if g.IsMirror(e) || g.RelationName(e) != "imports" || !x.definition(t) || !strings.HasSuffix(g.ExternalID(t), "::"+name) {
			continue
		}
		if _, _, segs, _ := codeRef(g.ExternalID(t)); len(segs) > 1 {
			// "from m import name" imports a module-level name, never a
			// method: an edge to m's Class.name means m's own name.
			top, ok := g.Lookup(g.ExternalID(x.FileOf(t)) + "::" + name)
			if !ok || !x.definition(top) {
				continue
			}
			t = top
		}
		if !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	return out
}

// moduleExport resolves a dotted name through the Python modules it
// starts with, the longest module prefix first: "structlog.BoundLogger"
// is what structlog/__init__.py exposes, "structlog.stdlib.BoundLogger.bind"
// the bind method of stdlib.py's BoundLogger. Source modules answer
// before stubs. Nil when no module prefix exposes the name.
func (x *Index) moduleExport(q string) []graph.NodeID {
	segs := strings.Split(q, ".")
	for k := len(segs) - 1; k >= 1; k-- {
		mods := x.modules[strings.Join(segs[:k], ".")]
		for _, wantStub := range []bool{false, true} {
			var out []graph.NodeID
			for _, m := range mods {
				if stub(x.g.SourcePath(m)) != wantStub {
					continue
				}
				for _, id := range x.exposed(m, segs[k]) {
					if id, ok := x.member(id, segs[k+1:]); ok && !slices.Contains(out, id) {
						out = append(out, id)
					}
				}
			}
			if len(out) > 0 {
				slices.Sort(out)
				return out
			}
		}
	}
	return nil
}

// member follows nested members ("BoundLogger", ["bind"]) by ID.
func (x *Index) member(id graph.NodeID, rest []string) (graph.NodeID, bool) {
	for _, s := range rest {
		next, ok := x.g.Lookup(x.g.ExternalID(id) + "::" + s)
		if !ok || !x.definition(next) {
			return 0, false
		}
		id = next
	}
	return id, true
}

// preferSource drops a stub candidate when a source candidate has the
// same name: attr/__init__.pyi's attrib declares _make.py's.
func (x *Index) preferSource(ids []graph.NodeID) []graph.NodeID {
	if len(ids) < 2 {
		return ids
	}
	names := map[string]bool{}
	for _, id := range ids {
		if _, p, segs, _ := codeRef(x.g.ExternalID(id)); !stub(p) {
			names[strings.Join(segs, ".")] = true
		}
	}
	return slices.DeleteFunc(slices.Clone(ids), func(id graph.NodeID) bool {
		_, p, segs, _ := codeRef(x.g.ExternalID(id))
		return stub(p) && names[strings.Join(segs, ".")]
	})
}

// dunder reports a protocol method name ("__hash__"): many classes
// define one, so written bare it names no class in particular.
func dunder(s string) bool {
	return len(s) > 4 && strings.HasPrefix(s, "__") && strings.HasSuffix(s, "__")
}

// public drops members of private classes ("_CountingAttr.validator"):
// a bare name in a document means API, and attrs' `validator` is field's
// argument, not the helper class's decorator.
func (x *Index) public(ids []graph.NodeID) []graph.NodeID {
	return slices.DeleteFunc(slices.Clone(ids), func(id graph.NodeID) bool {
		_, _, segs, _ := codeRef(x.g.ExternalID(id))
		for _, s := range segs[:max(len(segs)-1, 0)] {
			if strings.HasPrefix(s, "_") && !dunder(s) {
				return true
			}
		}
		return false
	})
}
