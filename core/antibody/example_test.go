package antibody_test

import (
	"fmt"

	"github.com/m1nd-go/m1nd/core/antibody"
	"github.com/m1nd-go/m1nd/core/graph"
)

// Store the shape "a handler that queries without validating" and find it.
func Example() {
	g := graph.New()
	for _, f := range []string{"handle_login", "handle_signup", "validate", "query"} {
		g.AddNode(graph.Node{ExternalID: f, Label: f, Type: graph.Function})
	}
	for _, e := range [][2]string{{"handle_login", "validate"}, {"handle_login", "query"}, {"handle_signup", "query"}} {
		g.AddEdgeByID(e[0], e[1], graph.Edge{Relation: "calls", Weight: 1})
	}
	g.Finalize()

	reg := antibody.NewRegistry()
	ab, err := reg.Create(antibody.Antibody{
		Severity: antibody.High,
		Pattern: antibody.Pattern{
			Nodes:         []antibody.PatternNode{{ID: "h", Label: "handle_"}, {ID: "q", Label: "query", Mode: antibody.Exact}, {ID: "v", Label: "validate", Mode: antibody.Exact}},
			Edges:         []antibody.PatternEdge{{From: "h", To: "q", Relation: "calls"}},
			NegativeEdges: []antibody.PatternEdge{{From: "h", To: "v", Relation: "calls"}},
		},
	}, antibody.Substring)
	if err != nil {
		panic(err)
	}
	res := antibody.Find(g, ab.Pattern, antibody.Options{Mode: antibody.Substring})
	for _, m := range res.Matches {
		// v is absent: m.Nodes[2] is graph.NoNode.
		fmt.Printf("%s (specificity %.2f): %s calls %s without %s, confidence %.2f\n", ab.ID, ab.Specificity, g.Label(m.Nodes[0]), g.Label(m.Nodes[1]), ab.Pattern.Nodes[2].Label, m.Confidence)
	}
	// Output:
	// ab_001 (specificity 0.64): handle_signup calls query without validate, confidence 0.88
}
