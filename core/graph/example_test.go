package graph_test

import (
	"fmt"

	"github.com/m1nd-go/m1nd/core/graph"
)

// Build a three-node graph, finalize it, and walk a node's neighbours.
func Example() {
	g := graph.New()
	file, _ := g.AddNode(graph.Node{ExternalID: "file::auth.py", Label: "auth.py", Type: graph.File})
	login, _ := g.AddNode(graph.Node{ExternalID: "file::auth.py::login", Label: "login", Type: graph.Function})
	sess, _ := g.AddNode(graph.Node{ExternalID: "file::session.py", Label: "session.py", Type: graph.File})

	// contains is bidirectional: finalize adds the child → parent entry.
	_ = g.AddEdge(graph.Edge{Source: file, Target: login, Relation: "contains", Weight: 1, Direction: graph.Bidirectional, CausalStrength: 0.8})
	_ = g.AddEdge(graph.Edge{Source: login, Target: sess, Relation: "calls", Weight: 1, CausalStrength: 0.5})
	g.Finalize()

	for _, nb := range g.Neighbors(login) {
		dir := "->"
		if nb.Incoming {
			dir = "<-"
		}
		fmt.Println(dir, nb.Relation, g.Label(nb.Node))
	}
	fmt.Println("edges:", g.NumEdges())
	// Output:
	// -> contains auth.py
	// -> calls session.py
	// <- contains auth.py
	// edges: 3
}

// Find an edge by its (source, target, relation) triple and update its
// weight the way plasticity does: atomically.
func ExampleGraph_UpdateWeight() {
	g := graph.New()
	a, _ := g.AddNode(graph.Node{ExternalID: "a"})
	b, _ := g.AddNode(graph.Node{ExternalID: "b"})
	_ = g.AddEdge(graph.Edge{Source: a, Target: b, Relation: "calls", Weight: 1})
	g.Finalize()

	e, _ := g.FindEdgeByName(a, b, "calls")
	w, _ := g.UpdateWeight(e, func(old float32) float32 { return min(old+0.25, graph.WeightCap) })
	fmt.Println(w)
	// Output: 1.25
}
