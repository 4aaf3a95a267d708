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
