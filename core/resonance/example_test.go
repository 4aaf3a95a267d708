package resonance_test

import (
	"fmt"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/resonance"
)

// A pulse sent down a dead end comes back phase-inverted: with half a
// wavelength per hop it cancels most of the seed's own amplitude.
func ExampleEngine_StandingWave() {
	g := graph.New()
	g.AddNode(graph.Node{ExternalID: "main.py"})
	g.AddNode(graph.Node{ExternalID: "leaf.py"})
	g.AddEdgeByID("main.py", "leaf.py", graph.Edge{Relation: "imports", Weight: 1})
	g.Finalize()

	p := resonance.DefaultParams()
	p.Wavelength, p.MaxHops = 4, 2
	e, _ := resonance.New(p)
	w, _ := e.StandingWave(g, []graph.Scored{{Node: 0, Score: 1}}, 2)
	for _, n := range w.Nodes {
		fmt.Printf("%s amplitude %.2f phase %.2f\n", g.ExternalID(n.Node), n.Amplitude, n.Phase)
	}
	// Output:
	// leaf.py amplitude 0.80 phase 3.14
	// main.py amplitude 0.36 phase 0.00
}

// Analyze sweeps frequencies and reports harmonics, resonant frequencies,
// the wave pattern, harmonic groups and sympathetic pairs.
func ExampleEngine_Analyze() {
	g := graph.New()
	names := []string{"auth.py", "session.py", "token.py", "middleware.py", "routes.py"}
	for _, n := range names {
		g.AddNode(graph.Node{ExternalID: n})
	}
	for i := range names {
		g.AddEdgeByID(names[i], names[(i+1)%len(names)], graph.Edge{Relation: "imports", Weight: 1})
	}
	g.Finalize()
	e, _ := resonance.New(resonance.DefaultParams())
	r, _ := e.Analyze(g, []graph.Scored{{Node: 0, Score: 1}})
	h := r.Harmonics[0]
	fmt.Printf("strongest: %s (harmonic %d)\n", g.ExternalID(h.Node), h.HarmonicOrder)
	fmt.Println("sweep points:", len(r.Stats.Frequencies), "budget exhausted:", r.Stats.BudgetExhausted)
	// Output:
	// strongest: auth.py (harmonic 4)
	// sweep points: 8 budget exhausted: false
}
