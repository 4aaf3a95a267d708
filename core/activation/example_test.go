package activation_test

import (
	"fmt"

	"github.com/m1nd-go/m1nd/core/activation"
	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/graph/graphtest"
)

// D1 from the worked example's seeds: forward arrivals, reverse arrivals
// (importers of auth.py and session.py), and the seeds themselves.
func ExampleWavefront() {
	g, id := graphtest.Backend()
	seeds := []graph.Scored{{Node: id["auth.py"], Score: 0.9}, {Node: id["session.py"], Score: 0.85}}
	res, err := activation.Wavefront(g, seeds, activation.DefaultParams(), nil)
	if err != nil {
		panic(err)
	}
	for _, s := range graph.SelectTop(res, len(res)) {
		fmt.Printf("%-14s %.4f\n", g.Label(s.Node), s.Score)
	}
	// Output:
	// auth.py        0.9000
	// session.py     0.8500
	// main.py        0.4950
	// user_model.py  0.4950
	// database.py    0.4950
	// routes.py      0.4950
	// middleware.py  0.4675
}

// Merge the structural and causal scores of two nodes into a ranking with
// scores in [0, 1], keeping a third node below the cut because learned
// feedback confirmed it.
func ExampleMergeKeeping() {
	g, id := graphtest.Backend()
	dims := [graph.NumDimensions][]graph.Scored{
		graph.Structural: {{Node: id["auth.py"], Score: 0.9}, {Node: id["session.py"], Score: 0.85}, {Node: id["routes.py"], Score: 0.2}},
		graph.Causal:     {{Node: id["auth.py"], Score: 0.6}},
	}
	all := [graph.NumDimensions]bool{true, true, true, true}
	res, err := activation.MergeKeeping(g, dims, all, 2, []graph.NodeID{id["routes.py"]}, activation.DefaultMergeParams(), nil)
	if err != nil {
		panic(err)
	}
	for _, a := range res {
		fmt.Printf("%-11s %.3f\n", g.Label(a.Node), a.Score)
	}
	// Output:
	// auth.py     0.508
	// session.py  0.344
	// routes.py   0.089
}
