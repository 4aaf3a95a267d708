package dynamics

import (
	"testing"

	"github.com/m1nd-go/m1nd/core/graph"
)

// edge is "a rel b" in a test graph.
type edge struct{ a, rel, b string }

// build makes a finalized graph of Function nodes named in edges (and
// extra), with ids "fn::name"; types overrides a node's type and tags
// adds tags.
func build(t testing.TB, edges []edge, extra []string, types map[string]graph.NodeType, tags map[string][]string) (*graph.Graph, map[string]graph.NodeID) {
	t.Helper()
	g := graph.New()
	ids := map[string]graph.NodeID{}
	add := func(name string) graph.NodeID {
		if id, ok := ids[name]; ok {
			return id
		}
		typ, ok := types[name]
		if !ok {
			typ = graph.Function
		}
		id, err := g.AddNode(graph.Node{ExternalID: "fn::" + name, Label: name, Type: typ, Tags: tags[name],
			Provenance: graph.Provenance{SourcePath: name + ".go"}})
		if err != nil {
			t.Fatal(err)
		}
		ids[name] = id
		return id
	}
	for _, e := range edges {
		add(e.a)
		add(e.b)
	}
	for _, n := range extra {
		add(n)
	}
	for _, e := range edges {
		dir := graph.Forward
		if e.rel == "contains" {
			dir = graph.Bidirectional
		}
		if err := g.AddEdge(graph.Edge{Source: ids[e.a], Target: ids[e.b], Relation: e.rel, Weight: 1, Direction: dir}); err != nil {
			t.Fatal(err)
		}
	}
	g.Finalize()
	return g, ids
}
