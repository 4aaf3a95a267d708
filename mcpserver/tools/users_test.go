package tools

import (
	"slices"
	"testing"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/mcpserver/session"
)

// TestUsersOfCountTypeOnlyImports: a file that imports another for types
// alone (imports::type) is one of its users — changing the type breaks
// its type check — as a runtime importer is.
func TestUsersOfCountTypeOnlyImports(t *testing.T) {
	g := graph.New()
	for _, p := range []string{"app.py", "models.py", "views.py", "other.py"} {
		if _, err := g.AddNode(graph.Node{ExternalID: "file::" + p, Label: p, Type: graph.File, Provenance: graph.Provenance{SourcePath: p}}); err != nil {
			t.Fatal(err)
		}
	}
	for _, e := range [][3]string{{"models.py", "app.py", "imports::type"}, {"views.py", "app.py", "imports"}, {"other.py", "app.py", "co_changes"}} {
		if err := g.AddEdgeByID("file::"+e[0], "file::"+e[1], graph.Edge{Relation: e[2], Weight: 1}); err != nil {
			t.Fatal(err)
		}
	}
	g.Finalize()
	if got := UsersOf(&session.Bundle{Graph: g}, "app.py"); !slices.Equal(got, []string{"models.py", "views.py"}) {
		t.Errorf("users of app.py = %v, want [models.py views.py]", got)
	}
}
