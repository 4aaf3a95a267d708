package analysis

import (
	"fmt"
	"slices"
	"strings"

	"github.com/m1nd-go/m1nd/core/graph"
)

// reExportShare is the share of a module's exports that re-exports must
// pass for it to be a hub: "mostly re-exports", more than half.
const reExportShare = 0.5

// isHub: file u is a barrel by its own facts, not its name — more than
// half of what it exports are re-exports (exportCounts), and at least two.
func (r *hubReader) isHub(u graph.NodeID) bool {
	if is, ok := r.hubs[u]; ok {
		return is
	}
	is := false
	if r.g.Type(u) == graph.File {
		own, re := r.exportCounts(u)
		is = re >= 2 && float64(re) > reExportShare*float64(own+re)
	}
	r.hubs[u] = is
	return is
}

// exportCounts counts file u's own top-level definitions (dunder names
// such as __all__ left out: plumbing, not API) and, when its importers
// take some name through it (takenThrough), its re-exports: the
// names it imports that none of its own code uses (`export {x} from`,
// `from .m import x` for __all__), and each module it imports whole
// without naming or using anything of it whose names its importers take
// through it (`export * from`, `from .m import *`).
func (r *hubReader) exportCounts(u graph.NodeID) (own, re int) {
	g := r.g
	for _, c := range r.children(u) {
		if l := g.Label(c); !(strings.HasPrefix(l, "__") && strings.HasSuffix(l, "__")) {
			own++
		}
	}
	used := r.usedBy(u)
	named := map[graph.NodeID]bool{} // units u imports a name of
	for _, x := range used.imported {
		named[r.d.Unit(x)] = true
	}
	usesOf := r.ownUses(u)
	taken, takenUnits := r.takenThrough(u)
	if len(taken) == 0 {
		return own, 0 // no importer takes a name through u: no barrel
	}
	for _, x := range uniqueNodes(used.imported) {
		if !usesOf[x] {
			re++
		}
	}
	lo, hi := g.OutRange(u)
	for e := lo; e < hi; e++ {
		t := g.Target(e)
		if g.IsMirror(e) || !isImportRel(g.RelationName(e)) || g.Type(t) != graph.File {
			continue
		}
		f := r.d.Unit(t)
		if f == u || named[f] || usesOf[t] || r.codeUsesUnit(u, f) || r.namesThrough(used.imported, f) {
			continue
		}
		if takenUnits[f] {
			re++
		}
	}
	return own, re
}

// takenThrough is the evidence that u re-exports: the names its
// importers take through it, and the units they come from. p imports u
// and names x of unit f, imports neither f nor another module that
// imports x or f — so x came through u. A name u imports but its code
// does not use may be a dead import or a use the graph missed (a module
// with no such evidence is no barrel: marshmallow's schema.py), and a
// whole-module import may be an unresolved default import (underscore's
// `import hasObjectTag from './_hasObjectTag.js'`) as well as an
// `export * from` (it counts only when a name of f is taken through u).
func (r *hubReader) takenThrough(u graph.NodeID) (names, units map[graph.NodeID]bool) {
	g := r.g
	names, units = map[graph.NodeID]bool{}, map[graph.NodeID]bool{}
	lo, hi := g.InRange(u)
	for pos := lo; pos < hi; pos++ {
		e, p := g.InEdge(pos), g.InSource(pos)
		if g.IsMirror(e) || !isImportRel(g.RelationName(e)) || g.Type(p) != graph.File {
			continue
		}
		direct, xs := r.fileImports(p)
		for _, x := range xs {
			if f := r.d.Unit(x); !direct[f] && !r.providedBesides(direct, u, x, f) {
				names[x], units[f] = true, true
			}
		}
	}
	return names, units
}

// fileImports are the files p imports and the other nodes it imports.
func (r *hubReader) fileImports(p graph.NodeID) (files map[graph.NodeID]bool, names []graph.NodeID) {
	g := r.g
	files = map[graph.NodeID]bool{}
	lo, hi := g.OutRange(p)
	for e := lo; e < hi; e++ {
		if t := g.Target(e); !g.IsMirror(e) && isImportRel(g.RelationName(e)) {
			if g.Type(t) == graph.File {
				files[t] = true
			} else {
				names = append(names, t)
			}
		}
	}
	return files, names
}

// providedBesides: a file of direct other than u imports x or f, so x
// may have come through it.
func (r *hubReader) providedBesides(direct map[graph.NodeID]bool, u, x, f graph.NodeID) bool {
	for q := range direct {
		if q == u {
			continue
		}
		if _, ok := r.g.FindEdgeByName(q, x, "imports"); ok {
			return true
		}
		if _, ok := r.g.FindEdgeByName(q, f, "imports"); ok {
			return true
		}
	}
	return false
}

// namesThrough: one of the names is taken through f, which re-exports it
// (an import of a barrel whose names the graph resolved to where they are
// defined is no star re-export of the barrel).
func (r *hubReader) namesThrough(names []graph.NodeID, f graph.NodeID) bool {
	for _, x := range names {
		if slices.Contains(r.usedBy(f).imported, x) {
			return true
		}
	}
	return false
}

// children are the nodes u contains directly.
func (r *hubReader) children(u graph.NodeID) []graph.NodeID {
	var out []graph.NodeID
	lo, hi := r.g.OutRange(u)
	for e := lo; e < hi; e++ {
		if !r.g.IsMirror(e) && ClassifyRelation(r.g.RelationName(e)) == Contains {
			out = append(out, r.g.Target(e))
		}
	}
	return out
}

// ownUses are the nodes u's code uses other than by its file's imports:
// calls, references, inheritance from u and what it contains.
func (r *hubReader) ownUses(u graph.NodeID) map[graph.NodeID]bool {
	out := map[graph.NodeID]bool{}
	r.walk(u, func(v graph.NodeID, e graph.EdgeIdx) {
		if v != u || !isImportRel(r.g.RelationName(e)) {
			out[r.g.Target(e)] = true
		}
	})
	return out
}

// codeUsesUnit: u's own code (not its file's imports) uses something of
// unit f.
func (r *hubReader) codeUsesUnit(u, f graph.NodeID) bool {
	for x := range r.ownUses(u) {
		if r.d.Unit(x) == f {
			return true
		}
	}
	return false
}

// walk calls f for every run-time dependency edge of u and of what it
// contains (mirrors of bidirectional edges and type-only imports left
// out).
func (r *hubReader) walk(u graph.NodeID, f func(v graph.NodeID, e graph.EdgeIdx)) {
	g := r.g
	stack, seen := []graph.NodeID{u}, map[graph.NodeID]bool{u: true}
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		lo, hi := g.OutRange(v)
		for e := lo; e < hi; e++ {
			if g.IsMirror(e) {
				continue
			}
			t, rel := g.Target(e), g.RelationName(e)
			switch kind := ClassifyRelation(rel); {
			case kind == Contains:
				if !seen[t] {
					seen[t] = true
					stack = append(stack, t)
				}
			case kind == DependsOn && !IsTypeOnly(rel):
				f(v, e)
			}
		}
	}
}

// usedBy collects, once per unit, what u's code (u and what it contains)
// names in other units, by the unit that holds it, and the names u's
// file imports.
func (r *hubReader) usedBy(u graph.NodeID) unitUses {
	if m, ok := r.uses[u]; ok {
		return m
	}
	g, m := r.g, unitUses{byUnit: map[graph.NodeID][]graph.NodeID{}}
	r.walk(u, func(v graph.NodeID, e graph.EdgeIdx) {
		t := g.Target(e)
		if v == u && isImportRel(g.RelationName(e)) && g.Type(t) != graph.File {
			t = r.rebind(u, t)
			m.imported = append(m.imported, t)
		}
		if f := r.d.Unit(t); f != graph.NoNode && f != u {
			m.byUnit[f] = append(m.byUnit[f], t)
		}
	})
	r.uses[u] = m
	return m
}

// rebind corrects an import of a member (a class attribute, which no
// import statement can name) when a module u imports binds a top-level
// node of that name: `from marshmallow import missing` was resolved to
// fields.py's Field.missing, where marshmallow/__init__.py imports
// utils.py's module variable missing. The first such binding, by node
// order, wins.
func (r *hubReader) rebind(u, x graph.NodeID) graph.NodeID {
	g := r.g
	if r.topLevel(x) {
		return x
	}
	label := g.Label(x)
	var files []graph.NodeID
	lo, hi := g.OutRange(u)
	for e := lo; e < hi; e++ {
		if t := g.Target(e); !g.IsMirror(e) && isImportRel(g.RelationName(e)) && g.Type(t) == graph.File {
			files = append(files, t)
		}
	}
	slices.Sort(files)
	for _, f := range files {
		lo, hi := g.OutRange(f)
		for e := lo; e < hi; e++ {
			if t := g.Target(e); !g.IsMirror(e) && isImportRel(g.RelationName(e)) && g.Label(t) == label && t != x && r.topLevel(t) {
				return t
			}
		}
	}
	return x
}

// topLevel: v is a file or a file holds it directly.
func (r *hubReader) topLevel(v graph.NodeID) bool {
	g := r.g
	if g.Type(v) == graph.File {
		return true
	}
	lo, hi := g.InRange(v)
	for pos := lo; pos < hi; pos++ {
		if e := g.InEdge(pos); !g.IsMirror(e) && ClassifyRelation(g.RelationName(e)) == Contains {
			return g.Type(g.InSource(pos)) == graph.File
		}
	}
	return true // nothing holds it: not a member
}

func uniqueNodes(l []graph.NodeID) []graph.NodeID {
	l = slices.Clone(l)
	slices.Sort(l)
	return slices.Compact(l)
}

// misbound: unit u's only link to unit v is an import of a member of v
// that a module u imports binds otherwise (rebind) — the graph's
// resolution of the name, not the program's.
func (r *hubReader) misbound(u, v graph.NodeID) bool {
	m, ok := r.misbinds[u]
	if !ok {
		m = r.misboundUnits(u)
		r.misbinds[u] = m
	}
	return m[v]
}

// misboundUnits are the units u links to by misbound imports alone.
func (r *hubReader) misboundUnits(u graph.NodeID) map[graph.NodeID]bool {
	g := r.g
	if g.Type(u) != graph.File {
		return nil
	}
	bad, real := map[graph.NodeID]bool{}, map[graph.NodeID]bool{}
	r.walk(u, func(v graph.NodeID, e graph.EdgeIdx) {
		t := g.Target(e)
		f := r.d.Unit(t)
		if v == u && isImportRel(g.RelationName(e)) && !r.topLevel(t) && r.rebind(u, t) != t {
			bad[f] = true
		} else {
			real[f] = true
		}
	})
	for f := range real {
		delete(bad, f)
	}
	return bad
}

// reboundText lists, "X (pkg/u.py)", the names u imports from members of
// f and where the module it imports them from binds them.
func (r *hubReader) reboundText(u, f graph.NodeID) string {
	g := r.g
	var names []string
	r.walk(u, func(v graph.NodeID, e graph.EdgeIdx) {
		t := g.Target(e)
		if v == u && isImportRel(g.RelationName(e)) && r.d.Unit(t) == f {
			if b := r.rebind(u, t); b != t {
				names = append(names, fmt.Sprintf("%s (%s)", g.Label(b), r.name(r.d.Unit(b))))
			}
		}
	})
	slices.Sort(names)
	return strings.Join(slices.Compact(names), ", ")
}
