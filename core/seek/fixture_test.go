package seek

import (
	"testing"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/testcorpus"
	"github.com/m1nd-go/m1nd/core/testcorpus/corpusgraph"
)

// fixtureFiles are the files seek's tests search: the test corpus's
// backend and its HTTP layer in Go.
var fixtureFiles = testcorpus.Files(testcorpus.Backend, testcorpus.Web)

// fixtureGraph builds the corpus's graph by hand and a ReadFile over its
// files.
func fixtureGraph(t testing.TB) (*graph.Graph, func(string) ([]byte, error)) {
	t.Helper()
	return fixtureGraphOf(t, fixtureFiles, testcorpus.Entities)
}

// fixtureGraphOf builds the corpus's graph over other files and entities.
func fixtureGraphOf(t testing.TB, files map[string]string, ents map[string][]testcorpus.Entity) (*graph.Graph, func(string) ([]byte, error)) {
	t.Helper()
	g, err := corpusgraph.Build(files, ents)
	if err != nil {
		t.Fatal(err)
	}
	return g, corpusgraph.Reader(files)
}

func mustAdd(t testing.TB, g *graph.Graph, n graph.Node) graph.NodeID {
	t.Helper()
	id, err := g.AddNode(n)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func mustLookup(t testing.TB, g *graph.Graph, ext string) graph.NodeID {
	t.Helper()
	id, ok := g.Lookup(ext)
	if !ok {
		t.Fatalf("no node %s", ext)
	}
	return id
}
