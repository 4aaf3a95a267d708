package analysis

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"path"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/graph/graphtest"
)

type e struct {
	src, dst, rel string
	w             float32
}

func build(t testing.TB, names []string, edges []e) *graph.Graph {
	t.Helper()
	g := graph.New()
	for _, n := range names {
		if _, err := g.AddNode(graph.Node{ExternalID: "file::" + n, Label: n, Type: graph.File}); err != nil {
			t.Fatal(err)
		}
	}
	for _, x := range edges {
		rel := x.rel
		if rel == "" {
			rel = "imports"
		}
		if err := g.AddEdgeByID("file::"+x.src, "file::"+x.dst, graph.Edge{Relation: rel, Weight: x.w}); err != nil {
			t.Fatal(err)
		}
	}
	g.Finalize()
	return g
}

func n(t testing.TB, g *graph.Graph, name string) graph.NodeID {
	t.Helper()
	id, ok := g.Lookup("file::" + name)
	if !ok {
		t.Fatalf("no node %s", name)
	}
	return id
}

func acts(t testing.TB, g *graph.Graph, kv ...any) []graph.Scored {
	var out []graph.Scored
	for i := 0; i < len(kv); i += 2 {
		out = append(out, graph.Scored{Node: n(t, g, kv[i].(string)), Score: float32(kv[i+1].(float64))})
	}
	return out
}

func approx(a, b float32) bool { return math.Abs(float64(a-b)) < 1e-5 }

// authGraph is the "authentication testing" example: every auth
// module has a test except password_reset.py, which imports auth.py and
// session.py and is imported by routes.py.
func authGraph(t testing.TB) *graph.Graph {
	return build(t,
		[]string{"auth.py", "session.py", "middleware.py", "routes.py", "test_auth.py", "test_session.py", "test_middleware.py", "password_reset.py", "config.py", "billing.py"},
		[]e{
			{"test_auth.py", "auth.py", "tests", 1}, {"test_session.py", "session.py", "tests", 1}, {"test_middleware.py", "middleware.py", "tests", 1},
			{"password_reset.py", "auth.py", "", 1}, {"password_reset.py", "session.py", "", 1}, {"password_reset.py", "session.py", "calls", 0.5},
			{"routes.py", "password_reset.py", "", 1}, {"routes.py", "auth.py", "", 1}, {"middleware.py", "session.py", "", 1},
			{"auth.py", "config.py", "", 1}, {"billing.py", "config.py", "", 1}, {"billing.py", "session.py", "", 1},
		})
}

func TestStructuralHoleMissingTest(t *testing.T) {
	g := authGraph(t)
	act := acts(t, g, "test_auth.py", 0.9, "auth.py", 0.85, "test_session.py", 0.8, "test_middleware.py", 0.75,
		"session.py", 0.7, "middleware.py", 0.6, "routes.py", 0.5, "config.py", 0.25)
	res, err := StructuralHoles(g, act, DefaultHoleParams())
	if err != nil {
		t.Fatal(err)
	}
	if res.Total != 2 || len(res.Holes) != 2 {
		t.Fatalf("holes = %+v, want password_reset.py and routes.py", res)
	}
	// routes.py is activated, but it is the one module of the cluster
	// without tests; it ranks second (the query reached it less).
	if u := res.Holes[1]; u.Node != n(t, g, "routes.py") || u.Kind != HoleUntested || u.ActivatedNeighbors != 3 {
		t.Errorf("second hole = %+v, want routes.py untested", u)
	}
	h := res.Holes[0]
	if h.Node != n(t, g, "password_reset.py") || h.ActivatedNeighbors != 3 || !approx(h.SiblingAvgActivation, (0.85+0.7+0.5)/3/0.9) {
		t.Errorf("hole = %+v, want password_reset.py with 3 neighbours avg 0.759 (relative to the top, 0.9)", h)
	}
	if h.Kind != HoleBridge || h.Reason != "3 activated neighbors (avg=0.76) but node inactive; it has no tests" {
		t.Errorf("reason = %q", h.Reason)
	}
	want := []graph.NodeID{n(t, g, "auth.py"), n(t, g, "session.py"), n(t, g, "routes.py")}
	if !slices.Equal(h.Neighbors, want) {
		t.Errorf("neighbours = %v, want %v", h.Neighbors, want)
	}
	// billing.py touches session.py and config.py, but config.py is below
	// min_sibling_activation: one activated neighbour, no hole. Lowering
	// the threshold makes it one, ranked below password_reset.py.
	p := DefaultHoleParams()
	p.MinSiblingActivation = 0.2
	res, _ = StructuralHoles(g, act, p)
	// config.py joins the context and, untested, is a hole too.
	var got []string
	for _, h := range res.Holes {
		got = append(got, g.Label(h.Node))
	}
	if want := []string{"password_reset.py", "billing.py", "routes.py", "config.py"}; !slices.Equal(got, want) {
		t.Errorf("with threshold 0.2: %v, want %v", got, want)
	}
	p.TopK = 1
	res, _ = StructuralHoles(g, act, p)
	if res.Total != 4 || len(res.Holes) != 1 {
		t.Errorf("top_k 1: total %d, %d holes", res.Total, len(res.Holes))
	}
}

// TestStructuralHoleMissingValidation: user, payment and search routes all
// call validators; admin_routes.py shares their neighbours but not their
// validation and stays dark.
func TestStructuralHoleMissingValidation(t *testing.T) {
	g := build(t,
		[]string{"user_routes.py", "payment_routes.py", "search_routes.py", "admin_routes.py", "validate_user_input.py", "validate_payment_input.py", "validate_search_params.py", "schema_validator.py", "app.py", "db.py", "orm.py"},
		[]e{
			{"user_routes.py", "validate_user_input.py", "calls", 1}, {"payment_routes.py", "validate_payment_input.py", "calls", 1},
			{"search_routes.py", "validate_search_params.py", "calls", 1},
			{"validate_user_input.py", "schema_validator.py", "", 1}, {"validate_payment_input.py", "schema_validator.py", "", 1},
			{"validate_search_params.py", "schema_validator.py", "", 1},
			{"app.py", "user_routes.py", "", 1}, {"app.py", "payment_routes.py", "", 1}, {"app.py", "search_routes.py", "", 1}, {"app.py", "admin_routes.py", "", 1},
			{"admin_routes.py", "user_routes.py", "", 1}, {"admin_routes.py", "payment_routes.py", "", 1}, {"admin_routes.py", "db.py", "", 1}, {"db.py", "orm.py", "", 1},
		})
	act := acts(t, g, "validate_user_input.py", 0.8, "validate_payment_input.py", 0.75, "validate_search_params.py", 0.7, "schema_validator.py", 0.72,
		"user_routes.py", 0.66, "payment_routes.py", 0.64, "search_routes.py", 0.62, "app.py", 0.35)
	res, err := StructuralHoles(g, act, DefaultHoleParams())
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Holes) == 0 || res.Holes[0].Node != n(t, g, "admin_routes.py") || res.Holes[0].ActivatedNeighbors != 3 {
		t.Fatalf("holes = %+v, want admin_routes.py first with 3 activated neighbours", res.Holes)
	}
	for _, h := range res.Holes {
		if h.Node == n(t, g, "orm.py") || h.Node == n(t, g, "db.py") {
			t.Errorf("%s is not surrounded by activation but was reported", g.Label(h.Node))
		}
	}
}

// TestStructuralHolesHubsAndConventions: a module imported by many, a few
// of them activated, is no hole (most of its neighbourhood is dark); a
// route that skips the validator its sibling routes import is one.
func TestStructuralHolesHubsAndConventions(t *testing.T) {
	g := graph.New()
	add := func(p string) {
		if _, err := g.AddNode(graph.Node{ExternalID: "file::" + p, Label: path.Base(p), Type: graph.File, Provenance: graph.Provenance{SourcePath: p}}); err != nil {
			t.Fatal(err)
		}
	}
	edge := func(a, b string) {
		if err := g.AddEdgeByID("file::"+a, "file::"+b, graph.Edge{Relation: "imports", Weight: 1}); err != nil {
			t.Fatal(err)
		}
	}
	routes := []string{"routes/user.py", "routes/payment.py", "routes/search.py", "routes/admin.py"}
	for _, f := range append(slices.Clone(routes), "lib/validate.py", "lib/config.py") {
		add(f)
	}
	for i := 0; i < 12; i++ {
		f := fmt.Sprintf("other/m%d.py", i)
		add(f)
		edge(f, "lib/config.py")
	}
	for _, r := range routes {
		edge(r, "lib/config.py")
		if r != "routes/admin.py" {
			edge(r, "lib/validate.py")
		}
	}
	g.Finalize()
	var act []graph.Scored
	for i, r := range routes {
		act = append(act, graph.Scored{Node: node(t, g, "file::"+r), Score: 0.9 - float32(i)*0.1})
	}
	act = append(act, graph.Scored{Node: node(t, g, "file::lib/validate.py"), Score: 0.8})
	res, err := StructuralHoles(g, act, DefaultHoleParams())
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Holes) != 1 {
		t.Fatalf("holes = %+v, want only routes/admin.py", res.Holes)
	}
	h := res.Holes[0]
	if h.Node != node(t, g, "file::routes/admin.py") || h.Kind != HoleMissingDependency || h.Missing != node(t, g, "file::lib/validate.py") || h.ActivatedNeighbors != 3 {
		t.Errorf("hole = %+v", h)
	}
	if want := "does not use validate.py, which 3 of its 3 activated sibling modules use"; h.Reason != want {
		t.Errorf("reason = %q, want %q", h.Reason, want)
	}
}

func TestIsTestPath(t *testing.T) {
	for p, want := range map[string]bool{"tests/test_a.py": true, "a_test.go": true, "src/FooTest.java": true, "src/Latest.java": false, "lib/x.spec.ts": true,
		"pkg/contest.py": false, "conftest.py": true, "src/testing/x.go": true, "src/app.py": false, "__tests__/a.js": true,
		"typing_tests/mypy.py": true, "trio/_core/_tests/a.py": true, "integration-tests/x.ts": true, "contests/a.py": false} {
		if got := IsTestPath(p); got != want {
			t.Errorf("%s: %v, want %v", p, got, want)
		}
	}
}

func TestGhostEdges(t *testing.T) {
	g := build(t, []string{"session_pool.py", "healing_manager.py", "worker_pool.py", "readme.md"},
		[]e{{"session_pool.py", "worker_pool.py", "", 1}})
	sp, hm, wp, rd := n(t, g, "session_pool.py"), n(t, g, "healing_manager.py"), n(t, g, "worker_pool.py"), n(t, g, "readme.md")
	act := []graph.Scored{{Node: sp, Score: 0.9}, {Node: hm, Score: 0.5}, {Node: wp, Score: 0.6}, {Node: rd, Score: 0.4}}
	dims := map[graph.NodeID][graph.NumDimensions]float32{
		sp: {0.9, 0.8, 0.1, 0.7},
		hm: {0, 0.6, 0, 0.8},
		wp: {0.8, 0.7, 0, 0.6},
		rd: {0, 0.5, 0, 0}, // one dimension only
	}
	got, err := GhostEdges(g, act, dims, DefaultGhostParams())
	if err != nil {
		t.Fatal(err)
	}
	// sp–wp share an edge; rd fires in one dimension; hm–wp and sp–hm share
	// semantic and causal.
	want := []GhostEdge{
		{Source: wp, Target: hm, SharedDimensions: []graph.Dimension{graph.Semantic, graph.Causal}, DimensionNames: []string{"semantic", "causal"}, Strength: 0.25*0.6 + 0.25*0.6},
		{Source: sp, Target: hm, SharedDimensions: []graph.Dimension{graph.Semantic, graph.Causal}, DimensionNames: []string{"semantic", "causal"}, Strength: 0.25*0.6 + 0.25*0.7},
	}
	slices.SortFunc(want, func(a, b GhostEdge) int {
		if a.Strength > b.Strength {
			return -1
		}
		return 1
	})
	if len(got) != 2 {
		t.Fatalf("ghost edges = %+v", got)
	}
	for i := range want {
		if got[i].Source != want[i].Source || got[i].Target != want[i].Target || !approx(got[i].Strength, want[i].Strength) ||
			!reflect.DeepEqual(got[i].DimensionNames, want[i].DimensionNames) {
			t.Errorf("ghost %d = %+v, want %+v", i, got[i], want[i])
		}
	}
}

// impactGraph:
// codeGraph is a small repository as ingest builds it:
//
//	a.py: class Foo (method bar), function helper
//	b.py: imports Foo; use() calls Foo.bar; unrelated()
//	c.py: imports use; run() calls use
//	d.py: other() calls run               (three hops from a.py)
//	e.py: imports the module a.py (a best guess: weight 0.5)
//	t_test.py: tests a.py
//	x.py: imports b.unrelated             (not affected by a.py)
//	b.py co_changes a.py                   (history, not a dependency)
//
// a.pyi declares a.py (a stub). A directory and a package contain every
// file: neither may carry impact.
func codeGraph(t testing.TB) *graph.Graph {
	t.Helper()
	g := graph.New()
	add := func(id string, typ graph.NodeType, tags ...string) {
		label := id
		if i := strings.LastIndex(id, "::"); i >= 0 {
			label = id[i+2:]
		}
		file, _, _ := strings.Cut(strings.TrimPrefix(id, "file::"), "::")
		n := graph.Node{ExternalID: id, Label: label, Type: typ, Tags: tags}
		if strings.HasPrefix(id, "file::") {
			n.Provenance.SourcePath = file
		}
		if _, err := g.AddNode(n); err != nil {
			t.Fatal(err)
		}
	}
	edge := func(src, rel, dst string, w float32) {
		if err := g.AddEdgeByID(src, dst, graph.Edge{Relation: rel, Weight: w}); err != nil {
			t.Fatal(err)
		}
	}
	add("dir::.", graph.Directory)
	add("package::py::pkg", graph.Module, "package")
	for _, f := range []string{"a.py", "b.py", "c.py", "d.py", "e.py", "t_test.py", "x.py"} {
		add("file::"+f, graph.File)
		edge("dir::.", "contains", "file::"+f, 1)
		edge("package::py::pkg", "contains", "file::"+f, 1)
	}
	add("file::a.py::Foo", graph.Class)
	add("file::a.py::Foo::bar", graph.Function)
	add("file::a.py::helper", graph.Function)
	add("file::b.py::use", graph.Function)
	add("file::b.py::unrelated", graph.Function)
	add("file::c.py::run", graph.Function)
	add("file::d.py::other", graph.Function)
	edge("file::a.py", "contains", "file::a.py::Foo", 1)
	edge("file::a.py::Foo", "contains", "file::a.py::Foo::bar", 1)
	edge("file::a.py", "contains", "file::a.py::helper", 1)
	edge("file::a.py::helper", "calls", "file::a.py::Foo", 1)
	edge("file::b.py", "contains", "file::b.py::use", 1)
	edge("file::b.py", "contains", "file::b.py::unrelated", 1)
	edge("file::b.py", "imports", "file::a.py::Foo", 1)
	edge("file::b.py::use", "calls", "file::a.py::Foo::bar", 1)
	edge("file::c.py", "contains", "file::c.py::run", 1)
	edge("file::c.py", "imports", "file::b.py::use", 1)
	edge("file::c.py::run", "calls", "file::b.py::use", 1)
	edge("file::d.py", "contains", "file::d.py::other", 1)
	edge("file::d.py::other", "calls", "file::c.py::run", 1)
	edge("file::e.py", "imports", "file::a.py", 0.5)
	edge("file::t_test.py", "tests", "file::a.py", 1)
	edge("file::x.py", "imports", "file::b.py::unrelated", 1)
	edge("file::b.py", "co_changes", "file::a.py", 1)
	add("file::a.pyi", graph.File)
	edge("file::a.pyi", "declares", "file::a.py", 1)
	g.Finalize()
	return g
}

func node(t testing.TB, g *graph.Graph, id string) graph.NodeID {
	t.Helper()
	v, ok := g.Lookup(id)
	if !ok {
		t.Fatalf("no node %s", id)
	}
	return v
}

// listed renders a blast radius as "id@hop" in answer order.
func listed(g *graph.Graph, res ImpactResult) []string {
	var out []string
	for _, b := range res.BlastRadius {
		out = append(out, fmt.Sprintf("%s@%d", g.ExternalID(b.Node), b.HopDistance))
	}
	return out
}

func TestImpactDependents(t *testing.T) {
	g := codeGraph(t)
	tests := []struct {
		name   string
		source string
		p      func(*ImpactParams)
		want   []string
		level  string
	}{
		{name: "a file lists the files depending on it, direct first", source: "file::a.py",
			want:  []string{"file::b.py@1", "file::t_test.py@1", "file::e.py@1", "file::c.py@2", "file::d.py@3"},
			level: "file"},
		{name: "max_hops 1 keeps direct dependents", source: "file::a.py", p: func(p *ImpactParams) { p.MaxHops = 1 },
			want: []string{"file::b.py@1", "file::t_test.py@1", "file::e.py@1"}, level: "file"},
		{name: "an entity lists entities", source: "file::a.py::Foo::bar",
			want:  []string{"file::b.py::use@1", "file::c.py::run@2", "file::c.py@2", "file::d.py::other@3"},
			level: "entity"},
		{name: "a class includes its methods and lists files on request", source: "file::a.py::Foo", p: func(p *ImpactParams) { p.Level = LevelFile },
			want: []string{"file::b.py@1", "file::a.py@1", "file::c.py@2", "file::d.py@3"}, level: "file"},
		{name: "dependencies of c.py", source: "file::c.py", p: func(p *ImpactParams) { p.Direction = Dependencies },
			want: []string{"file::b.py@1", "file::a.py@2"}, level: "file"},
		{name: "a directory depends on nothing outside itself", source: "dir::.", want: nil, level: "file"},
		{name: "a stub's change reaches its module's users, not the module", source: "file::a.pyi",
			want: []string{"file::b.py@1", "file::t_test.py@1", "file::e.py@1", "file::c.py@2", "file::d.py@3"}, level: "file"},
		{name: "top_k cuts the list, not the counts", source: "file::a.py", p: func(p *ImpactParams) { p.TopK = 2 },
			want: []string{"file::b.py@1", "file::t_test.py@1"}, level: "file"},
		{name: "keep limits the list, the walk still crosses what it drops", source: "file::a.py",
			p:    func(p *ImpactParams) { p.Keep = func(n graph.NodeID) bool { return g.ExternalID(n) != "file::c.py" } },
			want: []string{"file::b.py@1", "file::t_test.py@1", "file::e.py@1", "file::d.py@3"}, level: "file"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := DefaultImpactParams()
			if tc.p != nil {
				tc.p(&p)
			}
			res, err := Impact(g, node(t, g, tc.source), p)
			if err != nil {
				t.Fatal(err)
			}
			if got := listed(g, res); !slices.Equal(got, tc.want) {
				t.Errorf("blast radius = %v\nwant %v", got, tc.want)
			}
			if res.Level != tc.level {
				t.Errorf("level = %s, want %s", res.Level, tc.level)
			}
			for _, b := range res.BlastRadius {
				if !graph.IsFinite(b.SignalStrength) || b.SignalStrength <= 0 || b.SignalStrength > 1 {
					t.Errorf("%s: signal %v", g.ExternalID(b.Node), b.SignalStrength)
				}
			}
		})
	}
}

func TestImpactDetails(t *testing.T) {
	g := codeGraph(t)
	res, err := Impact(g, node(t, g, "file::a.py"), DefaultImpactParams())
	if err != nil {
		t.Fatal(err)
	}
	if res.Direction != "dependents" || res.Scope != 4 || res.Affected != 5 || !slices.Equal(res.ByHop, []int{3, 1, 1}) || res.MaxHopsReached != 3 {
		t.Errorf("direction %s scope %d affected %d by hop %v max hops %d", res.Direction, res.Scope, res.Affected, res.ByHop, res.MaxHopsReached)
	}
	// b.py is reached through two of its entities (the file's import and
	// use()): its signal is their noisy-or, above e.py's best guess.
	b, e := res.BlastRadius[0], res.BlastRadius[2]
	if b.Entities != 2 || b.SignalStrength <= e.SignalStrength || !approx(e.SignalStrength, 0.5*0.95*0.85) {
		t.Errorf("b.py %+v, e.py %+v", b, e)
	}
	var via []string
	for _, u := range b.Via {
		via = append(via, g.ExternalID(u.Dependent)+" "+u.Relation+" "+g.ExternalID(u.Dependency))
	}
	if want := []string{"file::b.py::use calls file::a.py::Foo::bar", "file::b.py imports file::a.py::Foo"}; !slices.Equal(via, want) {
		t.Errorf("via = %v, want %v", via, want)
	}
	// Chains go to the nodes two hops or more away first; d.py's: a.py
	// contains Foo contains bar, called by use, called by run, called by
	// other.
	if len(res.CausalChains) != 5 {
		t.Fatalf("%d chains, want 5", len(res.CausalChains))
	}
	c := res.CausalChains[1]
	var path []string
	for _, v := range c.Nodes {
		path = append(path, g.ExternalID(v))
	}
	wantPath := []string{"file::a.py", "file::a.py::Foo", "file::a.py::Foo::bar", "file::b.py::use", "file::c.py::run", "file::d.py::other"}
	if !slices.Equal(path, wantPath) || !slices.Equal(c.Relations, []string{"contains", "contains", "calls", "calls", "calls"}) ||
		!slices.Equal(c.Reversed, []bool{false, false, true, true, true}) || !approx(c.CumulativeStrength, 0.85*0.85*0.85) {
		t.Errorf("second chain = %v %v %v %v", path, c.Relations, c.Reversed, c.CumulativeStrength)
	}
	p := DefaultImpactParams()
	p.Direction = BothWays
	res, _ = Impact(g, node(t, g, "file::b.py"), p)
	dirs := map[string]string{}
	for _, n := range res.BlastRadius {
		dirs[g.ExternalID(n.Node)] = n.Direction.String()
	}
	if want := map[string]string{"file::a.py": "dependencies", "file::c.py": "dependents", "file::d.py": "dependents", "file::x.py": "dependents"}; !maps.Equal(dirs, want) {
		t.Errorf("both ways from b.py: %v, want %v", dirs, want)
	}
	p = DefaultImpactParams()
	p.EdgeBudget = 2
	res, _ = Impact(g, node(t, g, "file::a.py"), p)
	if !res.Truncated || res.EdgesVisited > 3 {
		t.Errorf("budget 2: truncated=%v visited=%d", res.Truncated, res.EdgesVisited)
	}
	if _, err := Impact(g, 999, DefaultImpactParams()); err == nil {
		t.Error("accepted an unknown node")
	}
}

func TestParseImpactDirection(t *testing.T) {
	for in, want := range map[string]ImpactDirection{"": Dependents, "forward": Dependents, "Dependents": Dependents, "reverse": Dependencies,
		"upstream": Dependencies, "dependencies": Dependencies, "both": BothWays} {
		if got, err := ParseImpactDirection(in); err != nil || got != want {
			t.Errorf("%q: %v %v, want %v", in, got, err, want)
		}
	}
	if _, err := ParseImpactDirection("sideways"); err == nil || !strings.Contains(err.Error(), "dependents") {
		t.Errorf("sideways: %v", err)
	}
	if _, err := ParseLevel("module"); err == nil {
		t.Error("ParseLevel accepted module")
	}
}

func TestRelations(t *testing.T) {
	for rel, want := range map[string]RelKind{"imports": DependsOn, "calls::cancel": DependsOn, "imported_by": DependedOnBy, "contains": Contains,
		"co_changes": Association, "decorated_by": DependsOn, "registered_in": DependsOn, "member_of": DependsOn} {
		if got := ClassifyRelation(rel); got != want {
			t.Errorf("%s: %v, want %v", rel, got, want)
		}
	}
	for rel, want := range map[string]string{"imports": "imported_by", "calls": "called_by", "references": "referenced_by", "contains": "contained_in",
		"instantiates": "instantiated_by", "imported_by": "imports", "decorated_by": "decorates", "calls::cancel": "called_by::cancel", "uses": "used_by"} {
		if got := PassiveRelation(rel); got != want {
			t.Errorf("passive %s = %s, want %s", rel, got, want)
		}
	}
}

// whyGraph is the why tool's example.
func whyGraph(t testing.TB) *graph.Graph {
	return build(t, []string{"worker_pool.py", "process_manager.py", "whatsapp_manager.py", "spawner.py", "chat_handler.py", "unrelated.py"}, []e{
		{"worker_pool.py", "process_manager.py", "calls::cancel", 0.85},
		{"process_manager.py", "whatsapp_manager.py", "imports", 0.8},
		{"spawner.py", "worker_pool.py", "imports", 0.9},
		{"spawner.py", "chat_handler.py", "calls", 0.6},
		{"chat_handler.py", "whatsapp_manager.py", "imports", 0.9},
		{"unrelated.py", "spawner.py", "imports", 1},
	})
}

func TestWhyPaths(t *testing.T) {
	g := whyGraph(t)
	src, dst := n(t, g, "worker_pool.py"), n(t, g, "whatsapp_manager.py")
	res, err := Why(g, src, dst, DefaultWhyParams())
	if err != nil {
		t.Fatal(err)
	}
	if res.TotalPathsFound != 2 || res.Truncated {
		t.Fatalf("paths = %+v", res)
	}
	p1, p2 := res.Paths[0], res.Paths[1]
	if !slices.Equal(p1.Nodes, []graph.NodeID{src, n(t, g, "process_manager.py"), dst}) || !approx(p1.CumulativeStrength, 0.85*0.95*0.8*0.81) ||
		!slices.Equal(p1.Relations, []string{"calls::cancel", "imports"}) || !slices.Equal(p1.Reversed, []bool{false, false}) {
		t.Errorf("path 1 = %+v", p1)
	}
	// worker_pool ← spawner → chat_handler → whatsapp_manager turns around
	// at spawner (both depend on ...): a shared neighbour, weaker.
	if !slices.Equal(p2.Nodes, []graph.NodeID{src, n(t, g, "spawner.py"), n(t, g, "chat_handler.py"), dst}) ||
		!approx(p2.CumulativeStrength, 0.9*0.95*0.6*0.3*0.9*0.95*0.729) ||
		!slices.Equal(p2.Reversed, []bool{true, false, false}) {
		t.Errorf("path 2 = %+v", p2)
	}
	p := DefaultWhyParams()
	p.Direction = Forward
	if res, _ := Why(g, src, dst, p); res.TotalPathsFound != 1 {
		t.Errorf("forward only: %d paths, want 1", res.TotalPathsFound)
	}
	p = DefaultWhyParams()
	p.MaxHops = 2
	if res, _ := Why(g, src, dst, p); res.TotalPathsFound != 1 {
		t.Errorf("max_hops 2: %d paths, want 1", res.TotalPathsFound)
	}
	p = DefaultWhyParams()
	p.ExpansionBudget = 1
	if res, _ := Why(g, src, dst, p); !res.Truncated || res.TotalPathsFound != 0 {
		t.Errorf("budget 1: %+v", res)
	}
	if res, _ := Why(g, src, src, DefaultWhyParams()); len(res.Paths) != 1 || len(res.Paths[0].Nodes) != 1 {
		t.Errorf("self path: %+v", res)
	}
}

// TestWhyPrefersDependencies: between c.py and a.py the first explanation
// is the dependency chain, not "same directory", "same package" or the
// co-change of b.py, and x.py — which shares only b.py with a.py's
// dependents — is explained by a weaker, shared-neighbour path.
func TestWhyPrefersDependencies(t *testing.T) {
	g := codeGraph(t)
	p := DefaultWhyParams()
	p.TopK = 10
	res, err := Why(g, node(t, g, "file::c.py"), node(t, g, "file::a.py"), p)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Paths) < 3 {
		t.Fatalf("paths = %+v", res.Paths)
	}
	var first []string
	for _, v := range res.Paths[0].Nodes {
		first = append(first, g.ExternalID(v))
	}
	want := []string{"file::c.py", "file::b.py::use", "file::a.py::Foo::bar", "file::a.py::Foo", "file::a.py"}
	if !slices.Equal(first, want) || !slices.Equal(res.Paths[0].Relations, []string{"imports", "calls", "contains", "contains"}) ||
		!slices.Equal(res.Paths[0].Reversed, []bool{false, false, true, true}) {
		t.Errorf("first path = %v %v %v", first, res.Paths[0].Relations, res.Paths[0].Reversed)
	}
	for i, c := range res.Paths {
		for _, v := range c.Nodes {
			if isContainer(g, v) && i < 2 {
				t.Errorf("path %d goes through container %s", i, g.ExternalID(v))
			}
		}
	}
}

// TestPropertyAnalyses runs the analyses on random power-law graphs and
// checks ranges, budgets, hop limits and path validity.
func TestPropertyAnalyses(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for trial := 0; trial < 25; trial++ {
		nn := 30 + r.IntN(700)
		g := graphtest.PowerLaw(nn, nn*(1+r.IntN(4)), uint64(trial+1))
		src := graph.NodeID(r.IntN(nn))
		ip := DefaultImpactParams()
		ip.Direction = ImpactDirection(r.IntN(3))
		ip.Level = Level(r.IntN(3))
		ip.MaxHops = 1 + r.IntN(5)
		ip.EdgeBudget = 50 + r.IntN(5000)
		res, err := Impact(g, src, ip)
		if err != nil {
			t.Fatal(err)
		}
		if res.EdgesVisited > ip.EdgeBudget+1 {
			t.Fatalf("visited %d edges over budget %d", res.EdgesVisited, ip.EdgeBudget)
		}
		for _, b := range res.BlastRadius {
			if !graph.IsFinite(b.SignalStrength) || b.SignalStrength < ip.Threshold || b.SignalStrength > 1 || b.HopDistance < 1 || b.HopDistance > ip.MaxHops || b.Node == src {
				t.Fatalf("trial %d: bad impact node %+v", trial, b)
			}
		}
		for _, c := range res.CausalChains {
			checkChain(t, g, c, Both)
			if c.Nodes[0] != src {
				t.Fatalf("chain %v does not start at the source", c.Nodes)
			}
		}
		dst := graph.NodeID(r.IntN(nn))
		wp := DefaultWhyParams()
		wp.MaxHops = 1 + r.IntN(6)
		wr, err := Why(g, src, dst, wp)
		if err != nil {
			t.Fatal(err)
		}
		if wr.Expansions > wp.ExpansionBudget {
			t.Fatalf("expansions %d over budget", wr.Expansions)
		}
		for i, c := range wr.Paths {
			checkChain(t, g, c, wp.Direction)
			if len(c.Nodes)-1 > wp.MaxHops || c.Nodes[0] != src || c.Nodes[len(c.Nodes)-1] != dst {
				t.Fatalf("bad path %+v", c)
			}
			if i > 0 && wr.Paths[i-1].CumulativeStrength < c.CumulativeStrength {
				t.Fatalf("paths not ranked: %v then %v", wr.Paths[i-1].CumulativeStrength, c.CumulativeStrength)
			}
		}
		var act []graph.Scored
		for i := 0; i < r.IntN(200); i++ {
			act = append(act, graph.Scored{Node: graph.NodeID(r.IntN(nn)), Score: r.Float32()})
		}
		hr, err := StructuralHoles(g, act, DefaultHoleParams())
		if err != nil {
			t.Fatal(err)
		}
		am, _ := activationMap(g, act)
		for _, h := range hr.Holes {
			// A bridge is inactive; sibling holes are in the context (an
			// entity of theirs at least was activated).
			if (h.Kind == HoleBridge && am[h.Node] > 0.01) || h.ActivatedNeighbors < 2 || h.SiblingAvgActivation <= 0.3 || h.SiblingAvgActivation > 1 || h.Score <= 0 || h.Score > 1 {
				t.Fatalf("bad hole %+v", h)
			}
		}
	}
}

// checkChain verifies that consecutive nodes are joined by an edge with
// the stated relation in the stated orientation, and that the path is
// simple with a finite strength in [0, 1].
func checkChain(t *testing.T, g *graph.Graph, c Chain, d Direction) {
	t.Helper()
	if !graph.IsFinite(c.CumulativeStrength) || c.CumulativeStrength < 0 || c.CumulativeStrength > 1 {
		t.Fatalf("chain strength %v", c.CumulativeStrength)
	}
	seen := map[graph.NodeID]bool{}
	for i, v := range c.Nodes {
		if seen[v] {
			t.Fatalf("chain %v is not simple", c.Nodes)
		}
		seen[v] = true
		if i == 0 {
			continue
		}
		a, b := c.Nodes[i-1], v
		if c.Reversed[i-1] {
			a, b = b, a
			if d == Forward {
				t.Fatalf("reversed hop in a forward search")
			}
		} else if d == Reverse {
			t.Fatalf("forward hop in a reverse search")
		}
		if _, ok := g.FindEdgeByName(a, b, c.Relations[i-1]); !ok {
			t.Fatalf("chain %v: no %s edge %d -> %d", c.Nodes, c.Relations[i-1], a, b)
		}
	}
}

func BenchmarkImpact(b *testing.B) {
	g := graphtest.PowerLaw(10000, 26000, 1)
	p := DefaultImpactParams()
	for i := 0; b.Loop(); i++ {
		if _, err := Impact(g, graph.NodeID(i*7919%g.NumNodes()), p); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkImpactFilesTop15 is impact as the tool calls it: a file's
// dependents at file level, 15 listed of many affected.
func BenchmarkImpactFilesTop15(b *testing.B) {
	g := graphtest.PowerLaw(20000, 60000, 1)
	var files []graph.NodeID
	for i := 0; i < g.NumNodes(); i++ {
		if g.Type(graph.NodeID(i)) == graph.File {
			files = append(files, graph.NodeID(i))
		}
	}
	// The files with the most affected, as a change to a core module.
	p := DefaultImpactParams()
	wide := func(f graph.NodeID) int { r, _ := Impact(g, f, p); return r.Affected }
	slices.SortFunc(files, func(a, b graph.NodeID) int { return cmp.Compare(wide(b), wide(a)) })
	files = files[:20]
	p.TopK = 15
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if _, err := Impact(g, files[i%len(files)], p); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkImpactBoth(b *testing.B) {
	g := graphtest.PowerLaw(10000, 26000, 1)
	p := DefaultImpactParams()
	p.Direction = BothWays
	for i := 0; b.Loop(); i++ {
		if _, err := Impact(g, graph.NodeID(i*7919%g.NumNodes()), p); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkWhy(b *testing.B) {
	g := graphtest.PowerLaw(10000, 26000, 1)
	p := DefaultWhyParams()
	for i := 0; b.Loop(); i++ {
		if _, err := Why(g, graph.NodeID(i*7919%g.NumNodes()), graph.NodeID(i*104729%g.NumNodes()), p); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkStructuralHoles(b *testing.B) {
	g := graphtest.PowerLaw(10000, 26000, 1)
	var act []graph.Scored
	for i := 0; i < 2000; i++ {
		act = append(act, graph.Scored{Node: graph.NodeID(i * 13 % g.NumNodes()), Score: float32(i%100) / 100})
	}
	for b.Loop() {
		if _, err := StructuralHoles(g, act, DefaultHoleParams()); err != nil {
			b.Fatal(err)
		}
	}
}
