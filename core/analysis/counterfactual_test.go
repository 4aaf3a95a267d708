package analysis

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/graph/graphtest"
)

// cfView is the part of a counterfactual answer the table compares, by
// label.
type cfView struct {
	Broken   map[string]float32 // label → lost fraction
	Cascade  []int
	Orphaned map[string]int // label → depth
	Weakened map[string]float32
	Reach    Reachability
}

func viewCF(g *graph.Graph, r CounterfactualResult) cfView {
	v := cfView{Broken: map[string]float32{}, Orphaned: map[string]int{}, Weakened: map[string]float32{}, Reach: r.Reachability}
	for _, b := range r.Broken {
		v.Broken[g.Label(b.Node)] = b.LostFraction
	}
	for _, c := range r.Cascade {
		v.Cascade = append(v.Cascade, c.Affected)
	}
	for _, o := range r.Orphaned {
		v.Orphaned[g.Label(o.Node)] = o.Depth
	}
	for _, w := range r.Weakened {
		v.Weakened[g.Label(w.Node)] = w.LostFraction
	}
	return v
}

func TestCounterfactualFiles(t *testing.T) {
	g := authGraph(t)
	// Entry points: the tests, routes and billing (nothing depends on them).
	for _, tc := range []struct {
		name    string
		remove  []string
		cascade bool
		want    cfView
	}{
		{"auth: its users break, config keeps billing", []string{"auth.py"}, true, cfView{
			Broken:   map[string]float32{"test_auth.py": 1, "password_reset.py": 0.5, "routes.py": 0.5},
			Cascade:  []int{3},
			Orphaned: map[string]int{},
			Weakened: map[string]float32{"config.py": 0.5},
			Reach:    Reachability{EntryPoints: 5, Before: 10, After: 9},
		}},
		{"routes: password_reset is left unused", []string{"routes.py"}, true, cfView{
			Broken:   map[string]float32{},
			Orphaned: map[string]int{"password_reset.py": 1},
			Weakened: map[string]float32{"auth.py": float32(2) / 3, "session.py": 0.25},
			Reach:    Reachability{EntryPoints: 5, Before: 10, After: 8, Lost: 1},
		}},
		{"session: a wave two deep", []string{"session.py"}, true, cfView{
			Broken:   map[string]float32{"test_session.py": 1, "password_reset.py": 0.5, "middleware.py": 1, "billing.py": 0.5},
			Cascade:  []int{4, 2},
			Orphaned: map[string]int{},
			Weakened: map[string]float32{},
			Reach:    Reachability{EntryPoints: 5, Before: 10, After: 9},
		}},
		{"session without cascade: first ring only", []string{"session.py"}, false, cfView{
			Broken:   map[string]float32{"test_session.py": 1, "password_reset.py": 0.5, "middleware.py": 1, "billing.py": 0.5},
			Cascade:  []int{4},
			Orphaned: map[string]int{},
			Weakened: map[string]float32{},
			Reach:    Reachability{EntryPoints: 5, Before: 10, After: 9},
		}},
		{"routes and billing: config and password_reset orphaned", []string{"routes.py", "billing.py"}, true, cfView{
			Broken:   map[string]float32{},
			Orphaned: map[string]int{"password_reset.py": 1},
			Weakened: map[string]float32{"auth.py": float32(2) / 3, "session.py": 0.5, "config.py": 0.5},
			Reach:    Reachability{EntryPoints: 5, Before: 10, After: 7, Lost: 1},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var ids []graph.NodeID
			for _, r := range tc.remove {
				ids = append(ids, n(t, g, r))
			}
			p := DefaultCounterfactualParams()
			p.IncludeCascade = tc.cascade
			res, err := Counterfactual(g, ids, p)
			if err != nil {
				t.Fatal(err)
			}
			if res.Level != "file" {
				t.Errorf("level %s", res.Level)
			}
			if diff := cmp.Diff(tc.want, viewCF(g, res)); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
			if res.TotalAffected != sum(tc.want.Cascade) || res.OrphanedCount != len(tc.want.Orphaned) {
				t.Errorf("totals %d / %d", res.TotalAffected, res.OrphanedCount)
			}
		})
	}
}

func sum(l []int) int {
	s := 0
	for _, x := range l {
		s += x
	}
	return s
}

// A cycle only the removed file used is orphaned as a whole, the far end
// at depth 2; containment never makes a dependency.
func TestCounterfactualCycleAndContainment(t *testing.T) {
	g := build(t, []string{"main.py", "a.py", "b.py", "c.py", "lib/", "lib/x.py"}, []e{
		{"main.py", "a.py", "", 1}, {"a.py", "b.py", "", 1}, {"b.py", "a.py", "calls", 1}, {"b.py", "c.py", "", 1},
		{"lib/", "lib/x.py", "contains", 1}, {"main.py", "lib/x.py", "", 1},
	})
	res, err := Counterfactual(g, []graph.NodeID{n(t, g, "main.py")}, DefaultCounterfactualParams())
	if err != nil {
		t.Fatal(err)
	}
	got := viewCF(g, res)
	want := map[string]int{"a.py": 1, "lib/x.py": 1, "b.py": 2, "c.py": 3}
	if diff := cmp.Diff(want, got.Orphaned); diff != "" {
		t.Errorf("orphaned (-want +got)\n%s", diff)
	}
	if res.PctActivationLost != 1 {
		t.Errorf("pct_activation_lost %v, want 1", res.PctActivationLost)
	}
}

// Removing a function at entity level: what only it called is orphaned;
// at file level the file stands for its functions.
func TestCounterfactualEntities(t *testing.T) {
	g := graph.New()
	add := func(id, label string, typ graph.NodeType) {
		if _, err := g.AddNode(graph.Node{ExternalID: id, Label: label, Type: typ}); err != nil {
			t.Fatal(err)
		}
	}
	add("file::m.py", "m.py", graph.File)
	add("file::m.py::login", "login", graph.Function)
	add("file::m.py::check", "check", graph.Function)
	add("file::h.py", "h.py", graph.File)
	add("file::h.py::hash", "hash", graph.Function)
	add("file::app.py", "app.py", graph.File)
	edge := func(a, b, rel string) {
		if err := g.AddEdgeByID(a, b, graph.Edge{Relation: rel, Weight: 1}); err != nil {
			t.Fatal(err)
		}
	}
	edge("file::m.py", "file::m.py::login", "contains")
	edge("file::m.py", "file::m.py::check", "contains")
	edge("file::h.py", "file::h.py::hash", "contains")
	edge("file::m.py::login", "file::m.py::check", "calls")
	edge("file::m.py::check", "file::h.py::hash", "calls")
	edge("file::app.py", "file::m.py::login", "calls")
	edge("file::m.py", "file::h.py", "imports")
	g.Finalize()
	id := func(s string) graph.NodeID { v, _ := g.Lookup(s); return v }

	res, err := Counterfactual(g, []graph.NodeID{id("file::m.py::login")}, DefaultCounterfactualParams())
	if err != nil {
		t.Fatal(err)
	}
	got := viewCF(g, res)
	if res.Level != "entity" || !slices.Equal(res.Removed, []graph.NodeID{id("file::m.py::login")}) {
		t.Fatalf("level %s removed %v", res.Level, res.Removed)
	}
	if diff := cmp.Diff(map[string]float32{"app.py": 1}, got.Broken); diff != "" {
		t.Errorf("broken (-want +got)\n%s", diff)
	}
	// hash is only called by check: at entity level its file's import
	// does not use it.
	if diff := cmp.Diff(map[string]int{"check": 1, "hash": 2}, got.Orphaned); diff != "" {
		t.Errorf("orphaned (-want +got)\n%s", diff)
	}
	if diff := cmp.Diff(map[string]float32{}, got.Weakened); diff != "" {
		t.Errorf("weakened (-want +got)\n%s", diff)
	}
	if b := res.Broken[0].Via; b.Dependent != id("file::app.py") || b.Relation != "calls" {
		t.Errorf("via %+v", b)
	}

	// The file at file level: app.py breaks, h.py is orphaned.
	res, err = Counterfactual(g, []graph.NodeID{id("file::m.py")}, DefaultCounterfactualParams())
	if err != nil {
		t.Fatal(err)
	}
	got = viewCF(g, res)
	if diff := cmp.Diff(cfView{Broken: map[string]float32{"app.py": 1}, Cascade: []int{1}, Orphaned: map[string]int{"h.py": 1}, Weakened: map[string]float32{},
		Reach: Reachability{EntryPoints: 1, Before: 3, After: 1, Lost: 1}}, got); diff != "" {
		t.Errorf("file level (-want +got)\n%s", diff)
	}
}

// A passive relation reads the right way round: "x imported_by y" makes y
// depend on x.
func TestCounterfactualPassiveRelation(t *testing.T) {
	g := build(t, []string{"x.py", "y.py"}, []e{{"x.py", "y.py", "imported_by", 1}})
	res, err := Counterfactual(g, []graph.NodeID{n(t, g, "x.py")}, DefaultCounterfactualParams())
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Broken) != 1 || res.Broken[0].Node != n(t, g, "y.py") {
		t.Fatalf("broken %+v", res.Broken)
	}
	if u := res.Broken[0].Via; u.Dependent != n(t, g, "y.py") || u.Relation != "imports" {
		t.Errorf("via %+v", u)
	}
}

func TestCounterfactualErrorsAndPurity(t *testing.T) {
	g := authGraph(t)
	if _, err := Counterfactual(g, nil, DefaultCounterfactualParams()); err == nil {
		t.Error("no nodes: want an error")
	}
	if _, err := Counterfactual(g, []graph.NodeID{graph.NodeID(g.NumNodes())}, DefaultCounterfactualParams()); err == nil {
		t.Error("out of range: want an error")
	}
	before := g.NumEdges()
	d, err := NewDepGraph(g, true)
	if err != nil {
		t.Fatal(err)
	}
	p := DefaultCounterfactualParams()
	p.Deps = d
	a, _ := Counterfactual(g, []graph.NodeID{n(t, g, "session.py")}, p)
	b, _ := Counterfactual(g, []graph.NodeID{n(t, g, "session.py")}, DefaultCounterfactualParams())
	if diff := cmp.Diff(a, b); diff != "" {
		t.Errorf("a reused DepGraph answers differently:\n%s", diff)
	}
	if g.NumEdges() != before {
		t.Error("the graph changed")
	}
}

func BenchmarkCounterfactual(b *testing.B) {
	g := graphtest.PowerLaw(10000, 26000, 1)
	p := DefaultCounterfactualParams()
	for i := 0; b.Loop(); i++ {
		if _, err := Counterfactual(g, []graph.NodeID{graph.NodeID(i * 8 % g.NumNodes())}, p); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCounterfactualLarge is a graph the size of the Go source
// tree's (120K nodes, 550K edges), with its dependency view reused as the
// server does (built once per graph).
func BenchmarkCounterfactualLarge(b *testing.B) {
	g := graphtest.PowerLaw(120000, 550000, 1)
	d, err := NewDepGraph(g, true)
	if err != nil {
		b.Fatal(err)
	}
	p := DefaultCounterfactualParams()
	p.Deps = d
	for i := 0; b.Loop(); i++ {
		if _, err := Counterfactual(g, []graph.NodeID{graph.NodeID(i * 8 * 7919 % g.NumNodes() &^ 7)}, p); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDepGraphLarge(b *testing.B) {
	g := graphtest.PowerLaw(120000, 550000, 1)
	for b.Loop() {
		if _, err := NewDepGraph(g, true); err != nil {
			b.Fatal(err)
		}
	}
}
