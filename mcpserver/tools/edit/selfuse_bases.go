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
	bases := declaredBases(rel, next, owner)
	seen := map[string]bool{owner: true}
	for depth := 0; len(bases) > 0 && depth < 6; depth++ {
		var next []string
		for _, b := range bases {
			if seen[b] || b == "object" || b == "Object" {
				continue
			}
			seen[b] = true
			nodes := typeNodes(g, b)
			if len(nodes) == 0 {
				unknown = append(unknown, b)
			}
			for _, n := range nodes {
				members, parents := membersAndBases(g, n)
				if members[sym.Name] {
					return true, unknown
				}
				next = append(next, parents...)
			}
		}
		bases = next
	}
	return false, unknown
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

// membersAndBases reads a type node's member labels and its bases' labels
// from the graph.
func membersAndBases(g *graph.Graph, n graph.NodeID) (map[string]bool, []string) {
	members := map[string]bool{}
	var bases []string
	lo, hi := g.OutRange(n)
	for e := lo; e < hi; e++ {
		if g.IsMirror(e) {
			continue // a bidirectional edge's way back: an implementer, not a base
		}
		switch g.RelationName(e) {
		case "contains":
			members[g.Label(g.Target(e))] = true
		case "inherits", "implements":
			bases = append(bases, g.Label(g.Target(e)))
		}
	}
	return members, bases
}

// cutLast splits an ID or path at its last "::".
func cutLast(s string) (string, string) {
	if i := strings.LastIndex(s, "::"); i >= 0 {
		return s[:i], s[i+2:]
	}
	return "", s
}
