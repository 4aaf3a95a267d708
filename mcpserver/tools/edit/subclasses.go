package edit

import (
	"fmt"
	"path"
	"strings"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/mcpserver/edit"
	"github.com/m1nd-go/m1nd/mcpserver/session"
)

// subclassBreaks: a method removed from an abstract class or interface
// (owner, declared in the edited file rel) that its concrete subclasses in
// the graph inherited, while another base of theirs still declares it
// without a body: javac's "Request is not abstract and does not override
// url(URL)" (jsoup's HttpConnection.Base, which implemented
// Connection.Base's methods for Request and Response).
func subclassBreaks(bd *session.Bundle, rel, next, owner string, s edit.Symbol, read func(graph.NodeID) string, lib *javaLib) []edit.Finding {
	g, ext := bd.Graph, strings.ToLower(path.Ext(rel))
	sym := methodOf(s)
	fits := func(m graph.NodeID) bool {
		got, ok := edit.ParamTypes(read(m), sym.Name, ext)
		return edit.SameParams(sym.params, sym.known, got, ok)
	}
	level := typeNodes(g, localType+rel+":"+owner)
	text := fileText(bd)
	var out []edit.Finding
	seen := map[graph.NodeID]bool{}
	for depth := 0; len(level) > 0 && depth < 6; depth++ {
		var below []graph.NodeID
		for _, sub := range subclassesOf(g, level) {
			if seen[sub] {
				continue
			}
			seen[sub] = true
			if _, has, _ := memberNode(g, sub, sym.Name, fits); has {
				continue // it defines its own
			}
			file, name := g.SourcePath(sub), g.Label(sub)
			src := text(file)
			if file == rel {
				src = next
			}
			if abstractOrInterface(src, name) {
				below = append(below, sub)
				continue
			}
			if f, ok := subclassFinding(g, file, src, name, s, sym, read, lib); ok {
				out = append(out, f)
			}
		}
		level = below
	}
	return out
}

// subclassesOf are the types inheriting from or implementing one of nodes.
func subclassesOf(g *graph.Graph, nodes []graph.NodeID) []graph.NodeID {
	var out []graph.NodeID
	for _, n := range nodes {
		lo, hi := g.InRange(n)
		for p := lo; p < hi; p++ {
			e := g.InEdge(p)
			if rel := g.RelationName(e); !g.IsMirror(e) && (rel == "inherits" || rel == "implements") && isType(g.Type(g.InSource(p))) {
				out = append(out, g.InSource(p))
			}
		}
	}
	return out
}

// subclassFinding checks the concrete subclass name (declared in file,
// whose text is src) against its bases; the graph no longer holds the
// removed member.
func subclassFinding(g *graph.Graph, file, src, name string, s edit.Symbol, sym method, read func(graph.NodeID) string, lib *javaLib) (edit.Finding, bool) {
	ext := strings.ToLower(path.Ext(file))
	if lib != nil {
		own := *lib
		own.src = src // the subclass's own imports name its bases
		lib = &own
	}
	std := stdContracts[ext]
	bases := append(ownBases(file, src, name), stdBases(src, name, lib.known(std, noNode))...)
	base, unknown, supplied := requiredBy(g, bases, sym, ext, std, read, lib)
	if base == "" || supplied {
		return edit.Finding{}, false
	}
	sev, how := "broken", "no longer implements it"
	if len(unknown) > 0 || usesTrait(src) {
		sev, how = "warning", "may no longer implement it (a trait or a base the graph does not hold may supply it"+lib.whyNot()+")"
	}
	return edit.Finding{File: file, Line: declLine(src, name), Symbol: s.Signature(), Kind: "contract_broken", Severity: sev,
		Detail: fmt.Sprintf("%s was removed, and %s, which inherited it, does not define it, but %s declares %s without a body: %s %s", s.Qualified, name, base, s.Name, name, how)}, true
}
