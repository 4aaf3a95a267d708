package dynamics_test

import (
	"context"
	"fmt"

	"github.com/m1nd-go/m1nd/core/dynamics"
	"github.com/m1nd-go/m1nd/core/graph"
)

// A defect in a module that two others import: the SIR model's chance
// that each of them harbours it too.
func ExampleEpidemic() {
	g := graph.New()
	lib, _ := g.AddNode(graph.Node{ExternalID: "file::lib.py", Label: "lib.py", Type: graph.File})
	api, _ := g.AddNode(graph.Node{ExternalID: "file::api.py", Label: "api.py", Type: graph.File})
	cli, _ := g.AddNode(graph.Node{ExternalID: "file::cli.py", Label: "cli.py", Type: graph.File})
	g.AddEdge(graph.Edge{Source: api, Target: lib, Relation: "imports", Weight: 1})
	g.AddEdge(graph.Edge{Source: cli, Target: api, Relation: "calls", Weight: 1})
	g.Finalize()

	p := dynamics.DefaultEpidemicParams()
	p.Direction = dynamics.Backward // to the dependents
	res, err := dynamics.Epidemic(context.Background(), g, []graph.NodeID{lib}, p)
	if err != nil {
		panic(err)
	}
	for _, pr := range res.Predictions {
		fmt.Printf("%s %.2f\n", g.Label(pr.Node), pr.Probability)
	}
	fmt.Printf("R0 %.1f\n", res.R0)
	// Output:
	// api.py 0.80
	// cli.py 0.56
	// R0 0.8
}

// Two entry points reach one module-level variable: one turbulence point.
func ExampleFlow() {
	g := graph.New()
	add := func(label string, t graph.NodeType, tags ...string) graph.NodeID {
		id, _ := g.AddNode(graph.Node{ExternalID: "file::app.go::" + label, Label: label, Type: t, Tags: tags})
		return id
	}
	main, handler, state := add("main", graph.Function), add("handleIndex", graph.Function), add("hits", graph.Reference, "variable")
	g.AddEdge(graph.Edge{Source: main, Target: state, Relation: "references", Weight: 1})
	g.AddEdge(graph.Edge{Source: handler, Target: state, Relation: "references", Weight: 1})
	g.Finalize()

	res, err := dynamics.Flow(context.Background(), g, dynamics.DefaultFlowParams())
	if err != nil {
		panic(err)
	}
	for _, t := range res.Turbulence {
		fmt.Println(g.Label(t.Node), len(t.Entries), t.Severity)
	}
	// Output: hits 2 high
}
