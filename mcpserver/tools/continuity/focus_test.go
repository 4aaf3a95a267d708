package continuity

import (
	"testing"

	"github.com/m1nd-go/m1nd/core/graph"
)

// A perspective stands on production code when the query's top nodes
// include it, and on a test when the query asks for tests or nothing
// else matched.
func TestFocusPrefersProductionCode(t *testing.T) {
	g := graph.New()
	add := func(id, path string) graph.NodeID {
		n, err := g.AddNode(graph.Node{ExternalID: id, Label: id, Type: graph.Function, Provenance: graph.Provenance{SourcePath: path}})
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	test := add("file::mux_test.go::TestSubrouterMatching", "mux_test.go")
	prod := add("file::mux.go::Router::Match", "mux.go")
	pyTest := add("file::tests/test_routing.py::test_router", "tests/test_routing.py")
	for _, c := range []struct {
		name   string
		ranked []graph.NodeID
		query  string
		want   graph.NodeID
	}{
		{"production after a test", []graph.NodeID{test, prod}, "route matching", prod},
		{"the query asks for tests", []graph.NodeID{test, prod}, "route matching tests", test},
		{"only tests matched", []graph.NodeID{test, pyTest}, "route matching", test},
		{"production first", []graph.NodeID{prod, test}, "route matching", prod},
		{"nothing matched", nil, "route matching", graph.NoNode},
	} {
		if got := focusOf(g, c.ranked, c.query); got != c.want {
			t.Errorf("%s: focus %v, want %v", c.name, got, c.want)
		}
	}
}
