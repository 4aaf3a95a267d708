package analysis_test

import (
	"fmt"

	"github.com/m1nd-go/m1nd/core/analysis"
	"github.com/m1nd-go/m1nd/core/graph"
)

func smallGraph() *graph.Graph {
	g := graph.New()
	for _, n := range []string{"auth.py", "session.py", "routes.py", "password_reset.py", "test_auth.py"} {
		g.AddNode(graph.Node{ExternalID: n, Label: n})
	}
	edge := func(a, b string) { g.AddEdgeByID(a, b, graph.Edge{Relation: "imports", Weight: 1}) }
	edge("password_reset.py", "auth.py")
	edge("password_reset.py", "session.py")
	edge("routes.py", "password_reset.py")
	edge("test_auth.py", "auth.py")
	g.Finalize()
	return g
}

func id(g *graph.Graph, s string) graph.NodeID { n, _ := g.Lookup(s); return n }

// password_reset.py sits among activated modules without being activated:
// a structural hole (here, the missing test).
func ExampleStructuralHoles() {
	g := smallGraph()
	act := []graph.Scored{{Node: id(g, "auth.py"), Score: 0.9}, {Node: id(g, "session.py"), Score: 0.7},
		{Node: id(g, "routes.py"), Score: 0.5}, {Node: id(g, "test_auth.py"), Score: 0.8}}
	res, _ := analysis.StructuralHoles(g, act, analysis.DefaultHoleParams())
	for _, h := range res.Holes {
		fmt.Println(g.Label(h.Node), "-", h.Reason)
	}
	// Output:
	// password_reset.py - 3 activated neighbors (avg=0.78) but node inactive; it has no tests
}

// What breaks if auth.py changes? Its importers, then theirs.
func ExampleImpact() {
	g := smallGraph()
	res, _ := analysis.Impact(g, id(g, "auth.py"), analysis.DefaultImpactParams())
	for _, n := range res.BlastRadius {
		fmt.Printf("%s hop %d signal %.3f\n", g.Label(n.Node), n.HopDistance, n.SignalStrength)
	}
	// Output:
	// password_reset.py hop 1 signal 0.808
	// test_auth.py hop 1 signal 0.808
	// routes.py hop 2 signal 0.652
}

// Why is routes.py connected to session.py?
func ExampleWhy() {
	g := smallGraph()
	res, _ := analysis.Why(g, id(g, "routes.py"), id(g, "session.py"), analysis.DefaultWhyParams())
	for _, p := range res.Paths {
		for i, n := range p.Nodes {
			if i > 0 {
				fmt.Print(" -", p.Relations[i-1], "-> ")
			}
			fmt.Print(g.Label(n))
		}
		fmt.Printf(" (%.2f)\n", p.CumulativeStrength)
	}
	// Output:
	// routes.py -imports-> password_reset.py -imports-> session.py (0.73)
}
