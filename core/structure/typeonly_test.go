package structure

import (
	"testing"

	"github.com/m1nd-go/m1nd/core/analysis"
	"github.com/m1nd-go/m1nd/core/graph"
)

// starletteShape is the false cycle found on encode/starlette: app.py
// imports requests.py at run time, requests.py imports app.py under
// `if TYPE_CHECKING:` and names its class in an annotation.
func starletteShape(t *testing.T) *analysis.DepGraph {
	t.Helper()
	g := graph.New()
	for _, id := range []string{"file::app.py", "file::app.py::App", "file::requests.py", "file::requests.py::Request"} {
		typ := graph.File
		if id[len(id)-3:] != ".py" {
			typ = graph.Class
		}
		if _, err := g.AddNode(graph.Node{ExternalID: id, Label: id, Type: typ}); err != nil {
			t.Fatal(err)
		}
	}
	for _, e := range [][3]string{
		{"file::app.py", "file::app.py::App", "contains"},
		{"file::requests.py", "file::requests.py::Request", "contains"},
		{"file::app.py", "file::requests.py::Request", "imports"},
		{"file::requests.py", "file::app.py::App", analysis.TypeImports},
		{"file::requests.py::Request", "file::app.py::App", "references"},
	} {
		if err := g.AddEdgeByID(e[0], e[1], graph.Edge{Relation: e[2], Weight: 1}); err != nil {
			t.Fatal(err)
		}
	}
	g.Finalize()
	d, err := analysis.NewDepGraph(g, true)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestLayersLeaveTypeOnlyImportsOut: with Runtime the type-only import
// (and the annotation behind it) closes no cycle; without it, the cycle
// is there, as it is for the type checker.
func TestLayersLeaveTypeOnlyImportsOut(t *testing.T) {
	d := starletteShape(t)
	all := BuildUnits(d, UnitOptions{Granularity: FileUnit})
	if L := DetectLayers(all, LayerOptions{MinLayerSize: 1}); len(L.Cycles) != 1 || all.TypeOnly != 0 {
		t.Errorf("all dependencies: cycles %v, type-only %d; want the cycle, 0", L.Cycles, all.TypeOnly)
	}
	run := BuildUnits(d, UnitOptions{Granularity: FileUnit, Runtime: true})
	L := DetectLayers(run, LayerOptions{MinLayerSize: 1})
	if len(L.Cycles) != 0 || len(L.Violations) != 0 || run.TypeOnly != 1 {
		t.Errorf("runtime: cycles %v, violations %v, type-only %d; want none, none, 1", L.Cycles, L.Violations, run.TypeOnly)
	}
	if got := describe(L); len(got) != 2 || got[0] != "L0: requests.py" || got[1] != "L1: app.py" {
		t.Errorf("runtime layers = %q, want requests.py under app.py", got)
	}
}
