package analysis

import (
	"slices"
	"testing"

	"github.com/m1nd-go/m1nd/core/graph"
)

// typeOnlyGraph: models.py imports app.py for types alone (the starlette
// shape: requests.py under `if TYPE_CHECKING:` imports applications.py,
// which imports requests.py at run time); app.py also reaches models.py
// through routing.py. views.py imports models.py both ways.
func typeOnlyGraph(t testing.TB) *graph.Graph {
	return build(t, []string{"app.py", "models.py", "routing.py", "views.py"}, []e{
		{"app.py", "models.py", "imports", 1},
		{"models.py", "app.py", TypeImports, 1},
		{"models.py", "app.py", "references", 1}, // an annotation naming App
		{"models.py", "routing.py", "imports", 1},
		{"routing.py", "app.py", "imports", 1},
		{"views.py", "models.py", TypeImports, 1},
		{"views.py", "models.py", "imports", 1},
	})
}

func TestDepGraphTypeOnly(t *testing.T) {
	g := typeOnlyGraph(t)
	d, err := NewDepGraph(g, true)
	if err != nil {
		t.Fatal(err)
	}
	app, models, routing, views := n(t, g, "app.py"), n(t, g, "models.py"), n(t, g, "routing.py"), n(t, g, "views.py")
	for _, c := range []struct {
		a, b graph.NodeID
		want bool
	}{
		{models, app, true},      // only a type-only import: the reference is a type's too
		{app, models, false},     // a runtime import
		{views, models, false},   // imported both ways: the runtime one counts
		{models, routing, false}, // runtime
	} {
		if got := d.TypeOnly(c.a, c.b); got != c.want {
			t.Errorf("TypeOnly(%s, %s) = %v, want %v", g.ExternalID(c.a), g.ExternalID(c.b), got, c.want)
		}
	}
	// Impact still follows it: changing app.py's types breaks models.py's check.
	if !slices.Contains(d.Dependents(app), models) {
		t.Errorf("dependents of app.py = %v, want models.py among them", d.Dependents(app))
	}
	if ClassifyRelation(TypeImports) != DependsOn || !IsTypeOnly(TypeImports) || IsTypeOnly("imports") || IsTypeOnly("calls::cancel") {
		t.Error("imports::type must classify as a dependency, type-only; imports and calls::cancel not type-only")
	}
}

// TestWhyPrefersRuntimePath: from models.py to app.py the first answer is
// the chain that runs (models → routing → app), not the direct import the
// type checker alone reads.
func TestWhyPrefersRuntimePath(t *testing.T) {
	g := build(t, []string{"app.py", "models.py", "routing.py"}, []e{
		{"models.py", "app.py", TypeImports, 1},
		{"models.py", "routing.py", "imports", 1},
		{"routing.py", "app.py", "imports", 1},
	})
	p := DefaultWhyParams()
	p.Direction = Forward
	res, err := Why(g, n(t, g, "models.py"), n(t, g, "app.py"), p)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Paths) != 2 {
		t.Fatalf("paths = %+v, want 2", res.Paths)
	}
	if first := res.Paths[0].Relations; !slices.Equal(first, []string{"imports", "imports"}) {
		t.Errorf("first path's relations = %v, want the runtime chain [imports imports]", first)
	}
	if second := res.Paths[1]; !slices.Equal(second.Relations, []string{TypeImports}) || !approx(second.CumulativeStrength, 0.9*0.95*0.5) {
		t.Errorf("second path = %+v, want the type-only import at 0.9×0.95×0.5", second)
	}
}
