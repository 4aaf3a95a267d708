package xlr_test

import (
	"fmt"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/xlr"
)

// Two subsystems share the hubs config.py and logger.py (and a third,
// unrelated one makes them hubs). Plain activation ranks the hubs first;
// XLR cancels them with cold pulses from the other subsystems.
func Example() {
	g := graph.New()
	add := func(id string) { g.AddNode(graph.Node{ExternalID: id, Label: id}) }
	add("config.py")
	add("logger.py")
	subs := [][]string{{"pay.py", "bill.py", "refund.py", "tax.py"}, {"user.py", "role.py", "group.py", "acl.py"}, {"search.py", "index.py", "rank.py", "facet.py"}}
	for _, sub := range subs {
		for _, m := range sub {
			add(m)
		}
		for i, m := range sub {
			g.AddEdgeByID(m, "config.py", graph.Edge{Relation: "imports", Weight: 1})
			g.AddEdgeByID(m, "logger.py", graph.Edge{Relation: "imports", Weight: 1})
			g.AddEdgeByID(m, sub[(i+1)%len(sub)], graph.Edge{Relation: "calls", Weight: 1})
		}
	}
	g.Finalize()
	id := func(s string) graph.NodeID { n, _ := g.Lookup(s); return n }

	e, _ := xlr.New(xlr.DefaultParams())
	seeds := []graph.Scored{{Node: id("pay.py"), Score: 1}}
	plain := []graph.Scored{{Node: id("config.py"), Score: 0.8}, {Node: id("logger.py"), Score: 0.75}, {Node: id("pay.py"), Score: 0.7}, {Node: id("bill.py"), Score: 0.6}}
	res, _ := e.Apply(g, seeds, plain)
	for _, s := range res.Scores {
		fmt.Printf("%-10s %.2f\n", g.Label(s.Node), s.Score)
	}
	fmt.Println("fallback:", res.FallbackToHotOnly)
	// Output:
	// pay.py     0.69
	// bill.py    0.56
	// config.py  0.27
	// logger.py  0.25
	// fallback: false
}
