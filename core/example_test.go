package core_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/m1nd-go/m1nd/core/engine"
	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/snapshot"
)

// The whole loop an embedding program runs: build a graph of its own data,
// query it, save it, and start the next process from the saved file.
func Example() {
	// graph: nodes with stable external IDs, typed and weighted edges.
	g := graph.New()
	for _, f := range []string{"main.go", "auth.go", "session.go", "store.go"} {
		if _, err := g.AddNode(graph.Node{ExternalID: "file::" + f, Label: f, Type: graph.File}); err != nil {
			panic(err)
		}
	}
	for _, e := range [][2]string{{"main.go", "auth.go"}, {"auth.go", "session.go"}, {"session.go", "store.go"}} {
		if err := g.AddEdgeByID("file::"+e[0], "file::"+e[1], graph.Edge{Relation: "imports", Weight: 1, CausalStrength: 0.6}); err != nil {
			panic(err)
		}
	}
	g.Finalize()

	// engine: index the finalized graph once, then ask it questions.
	ask := func(g *graph.Graph) {
		e, err := engine.New(g, engine.DefaultOptions())
		if err != nil {
			panic(err)
		}
		res, err := e.Activate(context.Background(), engine.Query{Text: "session", TopK: 3, NoLearn: true})
		if err != nil {
			panic(err)
		}
		for _, n := range res.Activated {
			fmt.Printf("  %-10s %.2f\n", g.Label(n.ID), n.Activation)
		}
	}
	fmt.Println("built:")
	ask(g)

	// snapshot: save atomically (.bin: binary; any other name: JSON v3)
	// and load it back, learned weights included.
	dir, err := os.MkdirTemp("", "m1nd-example")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "graph.bin")
	if err := snapshot.Save(g, path); err != nil {
		panic(err)
	}
	loaded, err := snapshot.Load(path)
	if err != nil {
		panic(err)
	}
	fmt.Println("loaded:")
	ask(loaded)
	// Output:
	// built:
	//   session.go 0.80
	//   store.go   0.41
	//   auth.go    0.35
	// loaded:
	//   session.go 0.80
	//   store.go   0.41
	//   auth.go    0.35
}
