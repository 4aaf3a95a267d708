package edit

import (
	"path"
	"regexp"
	"strings"
	"unicode"

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
	walkBases(g, declaredBases(rel, next, owner), sym.Name, nil, map[string]bool{owner: true},
		func(b string, _ graph.NodeID) { unknown = append(unknown, b) },
		func(_ string, _, _ graph.NodeID, has bool) bool { found = has; return has })
	return found, unknown
}

// noNode stands for the edited class as the one naming a base.
const noNode = ^graph.NodeID(0)

// walkBases visits the type nodes named by bases ("Base", or "Outer.Base"
// for a nested one), then their bases by the graph's edges, breadth first,
// each node once and up to 6 levels, with n's member labelled member that
// fits (has: there is one; fits nil: any); a visit returning true stops the
// walk, and a node having the member is not walked above. A name the graph
// holds no type of goes to missing, with the node whose edge named it
// (noNode: one of bases). The root object's names are not walked.
func walkBases(g *graph.Graph, bases []string, member string, fits func(graph.NodeID) bool, seen map[string]bool, missing func(name string, from graph.NodeID), visit func(name string, n, m graph.NodeID, has bool) bool) {
	var nodes []graph.NodeID
	named := func(b string, from graph.NodeID) {
		if seen[b] || b == "object" || b == "Object" {
			return
		}
		seen[b] = true
		found := typeNodes(g, b)
		if len(found) == 0 {
			missing(b, from)
		}
		nodes = append(nodes, found...)
	}
	for _, b := range bases {
		named(b, noNode)
	}
	done := map[graph.NodeID]bool{}
	for depth := 0; len(nodes) > 0 && depth < 6; depth++ {
		level := nodes
		nodes = nil
		for _, n := range level {
			if done[n] {
				continue
			}
			done[n] = true
			m, has, parents := memberNode(g, n, member, fits)
			if visit(g.Label(n), n, m, has) {
				return
			}
			if has {
				continue // the nearest declaration shadows those above it
			}
			for _, p := range parents {
				if isType(g.Type(p)) {
					nodes = append(nodes, p)
				} else {
					named(g.Label(p), n) // a base the resolver left unbound
				}
			}
		}
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
			out = append(out, nestedName(strings.NewReplacer(".", "::", "\\", "::").Replace(name), header(string(src), owner)))
		}
	}
	return out
}

// header is owner's declaration line in src, up to its body.
func header(src, owner string) string {
	return regexp.MustCompile(`\b(?:class|interface|record|enum|object|struct)\s+` + regexp.QuoteMeta(owner) + `\b[^{;]*`).FindString(src)
}

// nestedName is a base's simple name, or "Outer.Inner" when it is written
// inside another type (AbstractHelpFormatter.Builder, in the reference or
// in the class's header hdr): many classes share a nested type's simple
// name.
func nestedName(qualified, hdr string) string {
	rest, name := cutLast(qualified)
	if _, outer := cutLast(rest); outer != "" && unicode.IsUpper(rune(outer[0])) {
		return outer + "." + name
	}
	if m := regexp.MustCompile(`\b([A-Z]\w*)\s*\.\s*` + regexp.QuoteMeta(name) + `\b`).FindStringSubmatch(hdr); m != nil {
		return m[1] + "." + name
	}
	return name
}

// localType starts a type name meant in one file only: "local:path:Name".
const localType = "local:"

// typeNodes are the graph's classes, types and modules labelled name;
// "Outer.Inner" names a nested one, inside a type labelled Outer;
// "local:path:Name" one declared in that file.
func typeNodes(g *graph.Graph, name string) []graph.NodeID {
	if rest, ok := strings.CutPrefix(name, localType); ok {
		file, typ, _ := strings.Cut(rest, ":")
		var out []graph.NodeID
		for _, n := range typeNodes(g, typ) {
			if g.SourcePath(n) == file {
				out = append(out, n)
			}
		}
		return out
	}
	outer, inner, nested := strings.Cut(name, ".")
	if !nested {
		inner = name
	}
	var out []graph.NodeID
	for _, n := range g.NodesByLabel(inner) {
		if isType(g.Type(n)) && (!nested || strings.HasSuffix(g.ExternalID(n), "::"+outer+"::"+inner)) {
			out = append(out, n)
		}
	}
	return out
}

func isType(t graph.NodeType) bool {
	switch t {
	case graph.Class, graph.Struct, graph.Type, graph.Module, graph.Enum:
		return true
	}
	return false
}

// cutLast splits an ID or path at its last "::".
func cutLast(s string) (string, string) {
	if i := strings.LastIndex(s, "::"); i >= 0 {
		return s[:i], s[i+2:]
	}
	return "", s
}
