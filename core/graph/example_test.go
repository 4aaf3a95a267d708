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

// Derive a new graph in which one file's nodes were edited: login stays
// (and keeps the edge that reaches it from another file), logout is new,
// and the file's own outgoing edges are replaced.
func ExampleGraph_Spliced() {
	g := graph.New()
	file, _ := g.AddNode(graph.Node{ExternalID: "file::auth.py", Label: "auth.py", Type: graph.File})
	login, _ := g.AddNode(graph.Node{ExternalID: "file::auth.py::login", Label: "login", Type: graph.Function})
	app, _ := g.AddNode(graph.Node{ExternalID: "file::app.py", Label: "app.py", Type: graph.File})
	_ = g.AddEdge(graph.Edge{Source: file, Target: login, Relation: "contains", Weight: 1, Direction: graph.Bidirectional, CausalStrength: 0.8})
	_ = g.AddEdge(graph.Edge{Source: app, Target: login, Relation: "calls", Weight: 1, CausalStrength: 0.5})
	g.Finalize()

	contains := graph.Edge{Relation: "contains", Weight: 1, Direction: graph.Bidirectional, CausalStrength: 0.8}
	edited, _, err := g.Spliced(graph.Splice{
		Ranges: []graph.NodeRange{{Lo: file, Hi: login + 1, Nodes: []graph.Node{
			{ExternalID: "file::auth.py", Label: "auth.py", Type: graph.File},
			{ExternalID: "file::auth.py::login", Label: "login", Type: graph.Function},
			{ExternalID: "file::auth.py::logout", Label: "logout", Type: graph.Function},
		}}},
		DropEdge: func(src, _ graph.NodeID, _ graph.Str) bool { return src == file || src == login },
		AddEdges: []graph.SpliceEdge{
			{Source: "file::auth.py", Target: "file::auth.py::login", Edge: contains},
			{Source: "file::auth.py", Target: "file::auth.py::logout", Edge: contains},
		},
		FreshWeights: true,
	})
	if err != nil {
		panic(err)
	}
	for i := 0; i < edited.NumNodes(); i++ {
		id := graph.NodeID(i)
		fmt.Println(edited.ExternalID(id), "in:", edited.InDegree(id), "out:", edited.OutDegree(id))
	}
	// Output:
	// file::auth.py in: 2 out: 2
	// file::auth.py::login in: 2 out: 1
	// file::auth.py::logout in: 1 out: 1
	// file::app.py in: 0 out: 1
}
