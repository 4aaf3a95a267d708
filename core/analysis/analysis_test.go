package analysis

import (
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
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

// authGraph is the spec's "authentication testing" example: every auth
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
	if res.Total != 1 || len(res.Holes) != 1 {
		t.Fatalf("holes = %+v, want exactly password_reset.py", res)
	}
	h := res.Holes[0]
	if h.Node != n(t, g, "password_reset.py") || h.ActivatedNeighbors != 3 || !approx(h.SiblingAvgActivation, (0.85+0.7+0.5)/3) {
		t.Errorf("hole = %+v, want password_reset.py with 3 neighbours avg 0.683", h)
	}
	if h.Reason != "3 activated neighbors (avg=0.68) but node inactive" {
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
	if res.Total != 2 || res.Holes[0].Node != n(t, g, "password_reset.py") || res.Holes[1].Node != n(t, g, "billing.py") {
		t.Errorf("with threshold 0.2: %+v, want password_reset.py then billing.py", res.Holes)
	}
	p.TopK = 1
	res, _ = StructuralHoles(g, act, p)
	if res.Total != 2 || len(res.Holes) != 1 {
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
//
//	chat_handler → chat_routes (1.0) → main (0.8)
//	chat_handler → ws_relay (0.9) → stream_parser (1.0) → x (1.0) → y (1.0)
//	chat_handler → x (0.1, a weak shortcut)
//	caller → chat_handler (1.0)
func impactGraph(t testing.TB) *graph.Graph {
	return build(t, []string{"chat_handler", "chat_routes", "main", "ws_relay", "stream_parser", "x", "y", "caller"}, []e{
		{"chat_handler", "chat_routes", "imported_by", 1}, {"chat_routes", "main", "registered_in", 0.8},
		{"chat_handler", "ws_relay", "", 0.9}, {"ws_relay", "stream_parser", "", 1}, {"stream_parser", "x", "", 1}, {"x", "y", "", 1},
		{"chat_handler", "x", "references", 0.1}, {"caller", "chat_handler", "calls", 1},
	})
}

func TestImpactForward(t *testing.T) {
	g := impactGraph(t)
	res, err := Impact(g, n(t, g, "chat_handler"), DefaultImpactParams())
	if err != nil {
		t.Fatal(err)
	}
	d := float32(0.85)
	want := map[string]ImpactNode{
		"chat_routes":   {SignalStrength: d, HopDistance: 1},
		"ws_relay":      {SignalStrength: 0.9 * d, HopDistance: 1},
		"main":          {SignalStrength: d * 0.8 * d, HopDistance: 2},
		"stream_parser": {SignalStrength: 0.9 * d * d, HopDistance: 2},
		// Reached first over the weak shortcut (1 hop), strongest over 3.
		"x": {SignalStrength: 0.9 * d * d * d, HopDistance: 1},
		// The strong route to y takes 4 hops > max_hops 3: only the
		// shortcut's 2-hop signal counts.
		"y": {SignalStrength: 0.1 * d * d, HopDistance: 2},
	}
	if len(res.BlastRadius) != len(want) {
		t.Fatalf("blast radius = %+v", res.BlastRadius)
	}
	var energy float32
	for i, b := range res.BlastRadius {
		w, ok := want[g.Label(b.Node)]
		if !ok || !approx(b.SignalStrength, w.SignalStrength) || b.HopDistance != w.HopDistance {
			t.Errorf("%s: %+v, want %+v", g.Label(b.Node), b, w)
		}
		if i > 0 && res.BlastRadius[i-1].SignalStrength < b.SignalStrength {
			t.Error("blast radius not sorted")
		}
		energy += b.SignalStrength
	}
	if !approx(res.TotalEnergy, energy) || res.MaxHopsReached != 2 || res.Direction != "forward" {
		t.Errorf("energy %v (want %v), max hops %d, direction %s", res.TotalEnergy, energy, res.MaxHopsReached, res.Direction)
	}
	// The first causal chain ends at the strongest node two hops out.
	c := res.CausalChains[0]
	wantPath := []graph.NodeID{n(t, g, "chat_handler"), n(t, g, "ws_relay"), n(t, g, "stream_parser")}
	if !slices.Equal(c.Nodes, wantPath) || !slices.Equal(c.Relations, []string{"imports", "imports"}) || !approx(c.CumulativeStrength, 0.9*d*d) {
		t.Errorf("first chain = %+v, want chat_handler → ws_relay → stream_parser", c)
	}
	found := false
	for _, c := range res.CausalChains {
		if slices.Equal(c.Nodes, []graph.NodeID{n(t, g, "chat_handler"), n(t, g, "chat_routes"), n(t, g, "main")}) {
			found = slices.Equal(c.Relations, []string{"imported_by", "registered_in"}) && approx(c.CumulativeStrength, d*0.8*d)
		}
	}
	if !found {
		t.Errorf("no chain chat_handler → chat_routes → main (imported_by, registered_in) in %+v", res.CausalChains)
	}
	// x's chain is its best path (three hops), not its shortest.
	for _, c := range res.CausalChains {
		if c.Nodes[len(c.Nodes)-1] == n(t, g, "x") && len(c.Nodes) != 4 {
			t.Errorf("chain to x = %v, want the 3-hop strong path", c.Nodes)
		}
	}
}

func TestImpactReverseBothAndBudget(t *testing.T) {
	g := impactGraph(t)
	p := DefaultImpactParams()
	p.Direction = Reverse
	res, _ := Impact(g, n(t, g, "chat_handler"), p)
	if len(res.BlastRadius) != 1 || res.BlastRadius[0].Node != n(t, g, "caller") || res.BlastRadius[0].HopDistance != 1 {
		t.Errorf("reverse = %+v, want only caller", res.BlastRadius)
	}
	p.Direction = Both
	res, _ = Impact(g, n(t, g, "main"), p)
	hops := map[string]int{}
	for _, b := range res.BlastRadius {
		hops[g.Label(b.Node)] = b.HopDistance
	}
	if hops["chat_routes"] != 1 || hops["chat_handler"] != 2 || hops["caller"] != 3 || hops["ws_relay"] != 3 {
		t.Errorf("both from main: %v", hops)
	}
	for _, c := range res.CausalChains {
		for _, r := range c.Reversed[:1] {
			if !r {
				t.Errorf("chain %v: first hop from main goes against chat_routes → main", c)
			}
		}
	}
	p = DefaultImpactParams()
	p.EdgeBudget = 2
	res, _ = Impact(g, n(t, g, "chat_handler"), p)
	if !res.Truncated || res.EdgesVisited > 3 {
		t.Errorf("budget 2: truncated=%v visited=%d", res.Truncated, res.EdgesVisited)
	}
	if _, err := ParseDirection("sideways"); err == nil {
		t.Error("ParseDirection accepted sideways")
	}
	if d, _ := ParseDirection("Upstream"); d != Reverse {
		t.Error("upstream is reverse")
	}
	if _, err := Impact(g, 999, DefaultImpactParams()); err == nil {
		t.Error("accepted an unknown node")
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
	if !slices.Equal(p1.Nodes, []graph.NodeID{src, n(t, g, "process_manager.py"), dst}) || !approx(p1.CumulativeStrength, 0.68) ||
		!slices.Equal(p1.Relations, []string{"calls::cancel", "imports"}) || !slices.Equal(p1.Reversed, []bool{false, false}) {
		t.Errorf("path 1 = %+v", p1)
	}
	if !slices.Equal(p2.Nodes, []graph.NodeID{src, n(t, g, "spawner.py"), n(t, g, "chat_handler.py"), dst}) || !approx(p2.CumulativeStrength, 0.9*0.6*0.9) ||
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

// TestPropertyAnalyses runs the analyses on random power-law graphs and
// checks ranges, budgets, hop limits and path validity.
func TestPropertyAnalyses(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for trial := 0; trial < 25; trial++ {
		nn := 30 + r.IntN(700)
		g := graphtest.PowerLaw(nn, nn*(1+r.IntN(4)), uint64(trial+1))
		src := graph.NodeID(r.IntN(nn))
		ip := DefaultImpactParams()
		ip.Direction = Direction(r.IntN(3))
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
			checkChain(t, g, c, ip.Direction)
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
			if am[h.Node] > 0.01 || h.ActivatedNeighbors < 2 || h.SiblingAvgActivation <= 0.3 || h.SiblingAvgActivation > 1 {
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

func BenchmarkImpactBoth(b *testing.B) {
	g := graphtest.PowerLaw(10000, 26000, 1)
	p := DefaultImpactParams()
	p.Direction = Both
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
