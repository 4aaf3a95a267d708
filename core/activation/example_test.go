package activation_test

import (
	"fmt"

	"github.com/m1nd-go/m1nd/core/activation"
	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/internal/synth"
)

// D1 from the worked example's seeds: forward arrivals, reverse arrivals
// (importers of auth.py and session.py), and the seeds themselves.
func ExampleWavefront() {
	g, id := synth.Backend()
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
