package snapshot_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/snapshot"
)

// A graph is saved atomically with the application's own data beside it
// (here the repository it was built from) and loaded back with it.
func ExampleSaveWithMeta() {
	g := graph.New()
	a, _ := g.AddNode(graph.Node{ExternalID: "file::auth.py", Label: "auth.py", Type: graph.File})
	b, _ := g.AddNode(graph.Node{ExternalID: "file::session.py", Label: "session.py", Type: graph.File})
	_ = g.AddEdge(graph.Edge{Source: a, Target: b, Relation: "imports", Weight: 1})
	g.Finalize()

	dir, _ := os.MkdirTemp("", "snapshot-example")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "graph.bin")
	if err := snapshot.SaveWithMeta(g, []byte(`{"root":"/src/app"}`), path); err != nil {
		fmt.Println(err)
		return
	}
	loaded, meta, err := snapshot.LoadWithMeta(path)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(loaded.NumNodes(), "nodes,", string(meta))
	// Output: 2 nodes, {"root":"/src/app"}
}

// Save picks the format from the file name (.bin: the checksummed binary
// form, anything else: JSON v3, docs/design.md#json-snapshot) and Load
// recognises either; the weights an edge has learned travel with the graph.
func ExampleSave() {
	g := graph.New()
	a, _ := g.AddNode(graph.Node{ExternalID: "file::auth.py", Label: "auth.py", Type: graph.File})
	b, _ := g.AddNode(graph.Node{ExternalID: "file::session.py", Label: "session.py", Type: graph.File})
	_ = g.AddEdge(graph.Edge{Source: a, Target: b, Relation: "imports", Weight: 1, CausalStrength: 0.6})
	g.Finalize()
	e, _ := g.FindEdgeByName(a, b, "imports")
	_ = g.AtomicWriteWeight(e, 1.5) // what learning does

	dir, _ := os.MkdirTemp("", "snapshot-example")
	defer os.RemoveAll(dir)
	for _, name := range []string{"graph.json", "graph.bin"} {
		path := filepath.Join(dir, name)
		if err := snapshot.Save(g, path); err != nil {
			fmt.Println(err)
			return
		}
		loaded, err := snapshot.Load(path)
		if err != nil {
			fmt.Println(err)
			return
		}
		la, _ := loaded.Lookup("file::auth.py")
		lb, _ := loaded.Lookup("file::session.py")
		le, _ := loaded.FindEdgeByName(la, lb, "imports")
		fmt.Printf("%s: %d nodes, %d edges, imports weight %.1f\n", name, loaded.NumNodes(), loaded.NumEdges(), loaded.Weight(le))
	}
	// Output:
	// graph.json: 2 nodes, 1 edges, imports weight 1.5
	// graph.bin: 2 nodes, 1 edges, imports weight 1.5
}
