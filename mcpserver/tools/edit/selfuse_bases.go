package edit

import (
	"path"
	"strings"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/ingest/extract"
	"github.com/m1nd-go/m1nd/mcpserver/edit"
)

// baseAnswers tells whether a class's own call of a method the edit
// removed may still be answered by a base of the class: removing an
// override leaves self.render() calling the base's render. found: a base
// (or a base of a base) the graph holds declares a member of that name;
// unknown: the bases the graph does not hold (a library's class), any
// of which might. A class without bases: neither, the call is broken.
func baseAnswers(g *graph.Graph, rel string, next []byte, sym edit.Symbol) (found bool, unknown []string) {
	owner, _, ok := strings.Cut(sym.Qualified, ".")
	if !ok {
		return false, nil
	}
	if rootMembers[strings.ToLower(path.Ext(rel))][sym.Name] {
		return true, nil // every class inherits it from the root object
	}
	walkBases(g, declaredBases(rel, next, owner), sym.Name, map[string]bool{owner: true},
		func(b string) { unknown = append(unknown, b) },
		func(_ string, _, _ graph.NodeID, has bool) bool { found = has; return has })
	return found, unknown
}

// walkBases visits the type nodes named by bases, then by their bases,
// breadth first, each name once and up to 6 levels, with n's member
// labelled member (has: there is one); a visit returning true stops the
// walk. A name the graph holds no type of goes to missing. The root
// object's names are not walked.
func walkBases(g *graph.Graph, bases []string, member string, seen map[string]bool, missing func(name string), visit func(name string, n, m graph.NodeID, has bool) bool) {
	for depth := 0; len(bases) > 0 && depth < 6; depth++ {
		var next []string
		for _, b := range bases {
			if seen[b] || b == "object" || b == "Object" {
				continue
			}
			seen[b] = true
			nodes := typeNodes(g, b)
			if len(nodes) == 0 {
				missing(b)
			}
			for _, n := range nodes {
				m, has, parents := memberNode(g, n, member)
				if visit(b, n, m, has) {
					return
				}
				next = append(next, parents...)
			}
		}
		bases = next
	}
}

// rootMembers are the methods every class of a language inherits from its
// root object (java.lang.Object, System.Object, Python's object, Ruby's
// Object and Kernel, JavaScript's Object.prototype): removing an override
// of one leaves the root's answering.
var rootMembers = func() map[string]map[string]bool {
	set := func(names string) map[string]bool {
		m := map[string]bool{}
		for _, n := range strings.Fields(names) {
			m[n] = true
		}
		return m
	}
	jvm := set("toString equals hashCode getClass clone finalize notify notifyAll wait")
	js := set("toString toLocaleString valueOf hasOwnProperty isPrototypeOf propertyIsEnumerable")
	return map[string]map[string]bool{
		".java": jvm, ".kt": jvm, ".scala": jvm,
		".cs": set("ToString Equals GetHashCode GetType MemberwiseClone Finalize"),
		".py": set("__str__ __repr__ __eq__ __ne__ __hash__ __init__ __new__ __del__ __format__ __getattribute__ __setattr__ __delattr__ __dir__ __sizeof__ __reduce__ __reduce_ex__ __init_subclass__ __subclasshook__"),
		".rb": set("to_s inspect == eql? equal? hash class dup clone freeze frozen? send respond_to? instance_variable_get instance_variable_set initialize method_missing respond_to_missing?"),
		".js": js, ".mjs": js, ".cjs": js, ".jsx": js, ".ts": js, ".tsx": js, ".mts": js, ".cts": js,
	}
}()

// declaredBases are the names the written file's class owner inherits
// or mixes in.
func declaredBases(rel string, src []byte, owner string) []string {
	r, err := extract.ExtractFile(rel, src)
	if r == nil || err != nil && len(r.Nodes) == 0 {
		return nil
	}
	var out []string
	for _, e := range r.Edges {
		if e.Relation != extract.RelInherits && e.Relation != extract.RelImplements {
			continue
		}
		if _, last := cutLast(e.Source); last != owner {
			continue
		}
		if name, ok := strings.CutPrefix(e.Target, extract.RefPrefix); ok {
			_, name = cutLast(strings.NewReplacer(".", "::", "\\", "::").Replace(name))
			out = append(out, name)
		}
	}
	return out
}

// typeNodes are the graph's classes, types and modules labelled name.
func typeNodes(g *graph.Graph, name string) []graph.NodeID {
	var out []graph.NodeID
	for _, n := range g.NodesByLabel(name) {
		switch g.Type(n) {
		case graph.Class, graph.Struct, graph.Type, graph.Module, graph.Enum:
			out = append(out, n)
		}
	}
	return out
}

// cutLast splits an ID or path at its last "::".
func cutLast(s string) (string, string) {
	if i := strings.LastIndex(s, "::"); i >= 0 {
		return s[:i], s[i+2:]
	}
	return "", s
}
