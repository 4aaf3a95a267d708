package analysis_test

import (
	"fmt"

	"github.com/m1nd-go/m1nd/core/analysis"
	"github.com/m1nd-go/m1nd/core/graph"
)

// What if routes.py were deleted? Nothing imports it, so nothing breaks;
// password_reset.py, which only routes.py used, would be left unused, and
// with it session.py, which only password_reset.py used; auth.py keeps its
// test but loses routes.py.
func ExampleCounterfactual() {
	g := smallGraph()
	res, _ := analysis.Counterfactual(g, []graph.NodeID{id(g, "routes.py")}, analysis.DefaultCounterfactualParams())
	fmt.Println("broken:", res.BrokenCount)
	for _, o := range res.Orphaned {
		fmt.Println("orphaned:", g.Label(o.Node), "depth", o.Depth)
	}
	for _, w := range res.Weakened {
		fmt.Printf("weakened: %s loses %d of %d dependents\n", g.Label(w.Node), w.Lost, w.Total)
	}
	fmt.Printf("reachable %d → %d\n", res.Reachability.Before, res.Reachability.After)
	// Output:
	// broken: 0
	// orphaned: password_reset.py depth 1
	// orphaned: session.py depth 2
	// weakened: auth.py loses 1 of 2 dependents
	// reachable 5 → 2
}

// Is routes.py's dependency on session.py real? A two-hop import chain
// says yes; the reverse claim has no chain at all.
func ExampleHypothesize() {
	g := smallGraph()
	for _, text := range []string{"routes.py depends on session.py", "changing routes.py breaks session.py"} {
		c, _ := analysis.ParseClaim(text)
		res, _ := analysis.Hypothesize(g, c, id(g, c.Subject), id(g, c.Object), analysis.DefaultHypothesisParams())
		fmt.Printf("%s: %s (%.2f)\n", text, res.Verdict, res.Confidence)
		for _, e := range append(res.SupportingEvidence, res.ContradictingEvidence...) {
			fmt.Printf("  %s ×%.2f: %s\n", e.Type, e.LikelihoodFactor, e.Description)
		}
	}
	// Output:
	// routes.py depends on session.py: likely_true (0.89)
	//   path_found ×8.22: routes.py depends on session.py through 2 hops, via password_reset.py
	// changing routes.py breaks session.py: likely_false (0.03)
	//   no_path ×0.05: no dependency chain from session.py to routes.py at all (0 nodes reachable from it, none is the target)
	//   reverse_dependency ×0.70: the dependency runs the other way: routes.py depends on session.py through 2 hops, via password_reset.py
}
