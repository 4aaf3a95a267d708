package engine_test

import (
	"context"
	"fmt"
	"time"

	"github.com/m1nd-go/m1nd/core/engine"
	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/internal/synth"
)

// Activate the spec's seven-file backend with the query "authentication".
func ExampleEngine_Activate() {
	g, _ := synth.Backend() // any finalized *graph.Graph
	opts := engine.DefaultOptions()
	opts.Now = func() time.Time { return time.Unix(int64(synth.Now), 0) }
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
