package analysis

import (
	"testing"

	"github.com/m1nd-go/m1nd/core/graph"
)

// A file holds code when it contains functions or types directly or in
// its modules (a Ruby file's `module Rack` wraps its classes); a TOML
// file's tables are modules with no code inside, a README holds none.
func TestHoldsCodeThroughModules(t *testing.T) {
	g := graph.New()
	add := func(id string, typ graph.NodeType) graph.NodeID {
		n, err := g.AddNode(graph.Node{ExternalID: id, Label: id, Type: typ})
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	contains := func(a, b graph.NodeID) {
		if err := g.AddEdge(graph.Edge{Source: a, Target: b, Relation: "contains", Weight: 1}); err != nil {
			t.Fatal(err)
		}
	}
	rb, rack, parser, parse := add("file::lib/rack/parser.rb", graph.File), add("rack", graph.Module), add("Parser", graph.Class), add("parse", graph.Function)
	contains(rb, rack)
	contains(rack, parser)
	contains(parser, parse)
	toml, table := add("file::pyproject.toml", graph.File), add("tool.ruff", graph.Module)
	contains(toml, table)
	readme := add("file::README.md", graph.File)
	py, fn := add("file::app.py", graph.File), add("main", graph.Function)
	contains(py, fn)
	deep := add("file::deep.rb", graph.File)
	prev := deep
	for i := range maxModuleDepth + 2 {
		m := add("m"+string(rune('a'+i)), graph.Module)
		contains(prev, m)
		prev = m
	}
	contains(prev, add("tooDeep", graph.Function))
	g.Finalize()
	for id, want := range map[graph.NodeID]bool{rb: true, toml: false, readme: false, py: true, rack: false, deep: false} {
		if got := HoldsCode(g, id); got != want {
			t.Errorf("HoldsCode(%s) = %v, want %v", g.ExternalID(id), got, want)
		}
	}
}
