package patterns

import (
	"fmt"
	"strings"
	"testing"

	"github.com/m1nd-go/m1nd/core/graph"
)

// taintGraph: handler → parse → run → shell (a sink); handler → check →
// query (a sink, sanitised by check); run → log (contains only).
func taintGraph(t *testing.T) *graph.Graph {
	g := graph.New()
	for _, n := range []string{"handler", "parse", "run", "shell", "check", "query", "log"} {
		if _, err := g.AddNode(graph.Node{ExternalID: "file::app.go::" + n, Label: n, Type: graph.Function}); err != nil {
			t.Fatal(err)
		}
	}
	for _, e := range [][3]string{
		{"handler", "parse", "calls"}, {"parse", "run", "calls"}, {"run", "shell", "calls"},
		{"handler", "check", "calls"}, {"check", "query", "calls"}, {"run", "log", "contains"},
	} {
		g.AddEdgeByID("file::app.go::"+e[0], "file::app.go::"+e[1], graph.Edge{Relation: e[2], Weight: 1})
	}
	g.Finalize()
	return g
}

func TestTaint(t *testing.T) {
	g := taintGraph(t)
	id := func(n string) graph.NodeID { x, _ := g.Lookup("file::app.go::" + n); return x }
	is := func(names ...string) func(graph.NodeID) bool {
		return func(n graph.NodeID) bool {
			for _, s := range names {
				if g.Label(n) == s {
					return true
				}
			}
			return false
		}
	}
	show := func(r TaintResult) string {
		var s []string
		for _, p := range r.Paths {
			var names []string
			for _, n := range p.Nodes {
				names = append(names, g.Label(n))
			}
			s = append(s, fmt.Sprintf("%s/%d", strings.Join(names, ">"), len(p.Sanitisers)))
		}
		return strings.Join(s, " ")
	}
	for _, tc := range []struct {
		name string
		p    TaintParams
		from string
		want string
	}{
		{"both sinks, unsanitised first", TaintParams{Sink: is("shell", "query"), Sanitiser: is("check")}, "handler", "handler>parse>run>shell/0 handler>check>query/1"},
		{"depth 2 stops before shell", TaintParams{MaxDepth: 2, Sink: is("shell", "query"), Sanitiser: is("check")}, "handler", "handler>check>query/1"},
		{"no sanitiser", TaintParams{Sink: is("query")}, "handler", "handler>check>query/0"},
		{"containment carries nothing", TaintParams{Sink: is("log")}, "handler", ""},
		{"from the middle", TaintParams{Sink: is("shell", "query")}, "run", "run>shell/0"},
		{"a sink ends its path", TaintParams{Sink: is("parse", "shell")}, "handler", "handler>parse/0"},
		{"one path listed", TaintParams{MaxPaths: 1, Sink: is("shell", "query"), Sanitiser: is("check")}, "handler", "handler>parse>run>shell/0"},
	} {
		res := Taint(g, []graph.NodeID{id(tc.from)}, tc.p)
		if got := show(res); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
	res := Taint(g, []graph.NodeID{id("handler")}, TaintParams{MaxVisits: 2, Sink: is("shell")})
	if !res.Truncated || res.Visited != 2 {
		t.Errorf("visit budget: %+v", res)
	}
}
