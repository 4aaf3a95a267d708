package engine_test

import (
	"context"
	"fmt"
	"time"

	"github.com/m1nd-go/m1nd/core/engine"
	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/graph/graphtest"
	"github.com/m1nd-go/m1nd/core/plasticity"
)

// Activate the seven-file worked example (docs/design.md#activation-pipeline)
// with the query "authentication".
func ExampleEngine_Activate() {
	g, _ := graphtest.Backend() // any finalized *graph.Graph
	opts := engine.DefaultOptions()
	opts.Now = func() time.Time { return time.Unix(int64(graphtest.Now), 0) }
	e, err := engine.New(g, opts)
	if err != nil {
		panic(err)
	}
	res, err := e.Activate(context.Background(), engine.Query{
		Text:    "authentication",
		TopK:    3,
		XLR:     true,
		NoLearn: true, // leave the weights as they are
	})
	if err != nil {
		panic(err)
	}
	for _, s := range res.Seeds {
		fmt.Printf("seed %s (%s)\n", g.Label(s.Node), s.Match)
	}
	for _, n := range res.Activated {
		fmt.Printf("%-12s dimensions=%d structural=%.3f\n", g.Label(n.ID), n.DimCount, n.Dims[graph.Structural])
	}
	// Output:
	// seed auth.py (prefix)
	// seed session.py (tag)
	// auth.py      dimensions=4 structural=0.740
	// session.py   dimensions=4 structural=0.553
	// database.py  dimensions=4 structural=0.407
}

// Feedback changes the answer: mark the top result wrong and a lower one
// correct, and the same query ranks them accordingly.
func ExampleEngine_Learn() {
	g, _ := graphtest.Backend()
	opts := engine.DefaultOptions()
	opts.Now = func() time.Time { return time.Unix(int64(graphtest.Now), 0) }
	e, err := engine.New(g, opts)
	if err != nil {
		panic(err)
	}
	q := engine.Query{Text: "authentication", TopK: 4, NoLearn: true}
	show := func(when string) {
		fmt.Print(when)
		res, err := e.Activate(context.Background(), q)
		if err != nil {
			panic(err)
		}
		for _, n := range res.Activated {
			fmt.Printf(" %s %.2f", g.Label(n.ID), n.Activation)
		}
		fmt.Println()
	}
	show("before:")
	res, _ := e.Activate(context.Background(), q)
	wrong, right := res.Activated[0].ID, res.Activated[3].ID
	e.Learn(plasticity.LearnRequest{Query: q.Text, Feedback: plasticity.Wrong, Nodes: []graph.NodeID{wrong}, Strength: 1})
	e.Learn(plasticity.LearnRequest{Query: q.Text, Feedback: plasticity.Correct, Nodes: []graph.NodeID{right}, Strength: 1})
	show("after: ")
	// Output:
	// before: auth.py 0.62 session.py 0.43 database.py 0.32 user_model.py 0.28
	// after:  user_model.py 0.83 session.py 0.43 database.py 0.31 routes.py 0.24
}

// Feedback reports what learn taught about a query, for rankers other
// than Activate (seek's Params.Feedback).
func ExampleEngine_Feedback() {
	g, id := graphtest.Backend()
	e, err := engine.New(g, engine.DefaultOptions())
	if err != nil {
		panic(err)
	}
	e.Learn(plasticity.LearnRequest{Query: "user login", Feedback: plasticity.Correct, Nodes: []graph.NodeID{id["routes.py"]}, Strength: 1})
	for _, q := range []string{"user login", "login", "billing"} {
		fb, _ := e.Feedback(q)
		fmt.Printf("%-10s", q)
		for _, f := range fb {
			fmt.Printf(" %s %+.2f", g.Label(f.Node), f.Score)
		}
		fmt.Println()
	}
	// Output:
	// user login routes.py +0.76
	// login      routes.py +0.28
	// billing
}
