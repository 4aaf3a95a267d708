package xlr

import (
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/graph/graphtest"
)

var hubs = []string{"config.py", "logger.py", "utils.py", "database.py"}

var subsystems = [][]string{
	{"payment_handler.py", "billing.py", "invoice.py", "refund.py", "payment_models.py", "stripe_adapter.py", "receipts.py", "tax.py"},
	{"users.py", "accounts.py", "profiles.py", "avatars.py", "roles.py", "permissions.py", "signup.py", "groups.py"},
	{"search.py", "indexer.py", "query_parser.py", "ranker.py", "tokenizer.py", "synonyms.py", "facets.py", "suggest.py"},
}

// hubGraph: three subsystems of eight modules, each module importing every
// hub, and a ring of imports (plus chords) inside each subsystem.
func hubGraph(t testing.TB) *graph.Graph {
	t.Helper()
	g := graph.New()
	add := func(name string) {
		if _, err := g.AddNode(graph.Node{ExternalID: "file::" + name, Label: name, Type: graph.File}); err != nil {
			t.Fatal(err)
		}
	}
	for _, h := range hubs {
		add(h)
	}
	edge := func(a, b string) {
		if err := g.AddEdgeByID("file::"+a, "file::"+b, graph.Edge{Relation: "imports", Weight: 1, CausalStrength: 0.6}); err != nil {
			t.Fatal(err)
		}
	}
	for _, sub := range subsystems {
		for _, m := range sub {
			add(m)
		}
		for i, m := range sub {
			for _, h := range hubs {
				edge(m, h)
			}
			edge(m, sub[(i+1)%len(sub)])
			if i%2 == 0 {
				edge(m, sub[(i+3)%len(sub)])
			}
		}
	}
	g.Finalize()
	return g
}

func node(t testing.TB, g *graph.Graph, name string) graph.NodeID {
	t.Helper()
	id, ok := g.Lookup("file::" + name)
	if !ok {
		t.Fatalf("no node %s", name)
	}
	return id
}

func newEngine(t testing.TB, p Params) *Engine {
	t.Helper()
	e, err := New(p)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func rank(scores []graph.Scored) map[graph.NodeID]int {
	r := map[graph.NodeID]int{}
	for i, s := range scores {
		r[s.Node] = i
	}
	return r
}

// TestSubsystemOutranksHubs is the "payment processing" example: the
// hubs lead plain activation; with XLR the payment modules lead.
func TestSubsystemOutranksHubs(t *testing.T) {
	g := hubGraph(t)
	e := newEngine(t, DefaultParams())
	seeds := []graph.Scored{{Node: node(t, g, "payment_handler.py"), Score: 1}, {Node: node(t, g, "billing.py"), Score: 0.9}}
	// Plain activation, without XLR: the hubs lead.
	plain := []graph.Scored{
		{Node: node(t, g, "config.py"), Score: 0.82},
		{Node: node(t, g, "payment_handler.py"), Score: 0.78},
		{Node: node(t, g, "database.py"), Score: 0.75},
		{Node: node(t, g, "logger.py"), Score: 0.72},
		{Node: node(t, g, "billing.py"), Score: 0.70},
		{Node: node(t, g, "utils.py"), Score: 0.68},
		{Node: node(t, g, "invoice.py"), Score: 0.65},
		{Node: node(t, g, "refund.py"), Score: 0.60},
		{Node: node(t, g, "payment_models.py"), Score: 0.55},
		{Node: node(t, g, "stripe_adapter.py"), Score: 0.50},
	}
	res, err := e.Apply(g, seeds, plain)
	if err != nil {
		t.Fatal(err)
	}
	if res.FallbackToHotOnly {
		t.Fatal("fallback used on a graph where cancellation should work")
	}
	if len(res.AntiSeeds) != DefaultAntiSeeds {
		t.Fatalf("anti-seeds = %v, want %d", res.AntiSeeds, DefaultAntiSeeds)
	}
	payment := map[graph.NodeID]bool{}
	for _, m := range subsystems[0] {
		payment[node(t, g, m)] = true
	}
	for _, a := range res.AntiSeeds {
		if payment[a] {
			t.Errorf("anti-seed %s is in the seeds' subsystem", g.Label(a))
		}
	}
	r := rank(res.Scores)
	for _, h := range hubs {
		for _, m := range []string{"payment_handler.py", "billing.py", "invoice.py", "refund.py", "payment_models.py", "stripe_adapter.py"} {
			if r[node(t, g, m)] > r[node(t, g, h)] {
				t.Errorf("%s (rank %d) should outrank hub %s (rank %d)", m, r[node(t, g, m)], h, r[node(t, g, h)])
			}
		}
	}
	for i, d := range res.Details {
		if d.Node != res.Scores[i].Node {
			t.Fatalf("details out of order at %d", i)
		}
		isHub := false
		for _, h := range hubs {
			isHub = isHub || d.Node == node(t, g, h)
		}
		if isHub && (d.Immune || d.Cold == 0 || d.Net >= 0) {
			t.Errorf("hub %s: %+v, want cold signal and a negative net", g.Label(d.Node), d)
		}
		if !isHub && (!d.Immune || d.Gate <= 0.5) {
			t.Errorf("payment module %s: %+v, want immune and gated up", g.Label(d.Node), d)
		}
	}
	if res.Stats.Suppressed != len(hubs) {
		t.Errorf("suppressed = %d, want the %d hubs", res.Stats.Suppressed, len(hubs))
	}
}

// TestFallbackWhenColdErasesEverything: the candidates are only hubs, which
// the cold channel cancels; XLR falls back to hot-only and says so.
func TestFallbackWhenColdErasesEverything(t *testing.T) {
	g := hubGraph(t)
	e := newEngine(t, DefaultParams())
	seeds := []graph.Scored{{Node: node(t, g, "search.py"), Score: 1}}
	var cands []graph.Scored
	for i, h := range hubs {
		cands = append(cands, graph.Scored{Node: node(t, g, h), Score: 0.9 - 0.1*float32(i)})
	}
	res, err := e.Apply(g, seeds, cands)
	if err != nil {
		t.Fatal(err)
	}
	if !res.FallbackToHotOnly {
		t.Fatalf("no fallback: %+v", res.Details)
	}
	if res.Stats.Suppressed != len(hubs) {
		t.Errorf("suppressed = %d before fallback, want %d", res.Stats.Suppressed, len(hubs))
	}
	for i, s := range res.Scores {
		d := res.Details[i]
		if d.Net <= 0 || d.Gate <= 0.5 || s.Node != cands[i].Node || s.Score <= cands[i].Score/2 {
			t.Errorf("hot-only result %d: %+v / %+v", i, s, d)
		}
	}
	// Same call without the fallback condition (one payment module among
	// the candidates survives): no flag.
	cands = append(cands, graph.Scored{Node: node(t, g, "indexer.py"), Score: 0.1})
	res, _ = e.Apply(g, seeds, cands)
	if res.FallbackToHotOnly {
		t.Error("fallback used although a candidate survived")
	}
}

func TestDeterministicAndBudgeted(t *testing.T) {
	g := graphtest.PowerLaw(3000, 9000, 5)
	seeds := []graph.Scored{{Node: 10, Score: 1}, {Node: 200, Score: 0.8}}
	var cands []graph.Scored
	for i := 0; i < 300; i++ {
		cands = append(cands, graph.Scored{Node: graph.NodeID(i * 7 % g.NumNodes()), Score: float32(300-i) / 300})
	}
	e := newEngine(t, DefaultParams())
	a, err := e.Apply(g, seeds, cands)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := e.Apply(g, seeds, cands)
	if !reflect.DeepEqual(a, b) {
		t.Error("two identical calls differ")
	}
	p := DefaultParams()
	p.PulseBudget = 40
	small := newEngine(t, p)
	c, _ := small.Apply(g, seeds, cands)
	if c.Stats.HotPulses > 20 || c.Stats.ColdPulses > 20 || !c.Stats.BudgetExhausted {
		t.Errorf("budget 40: stats %+v", c.Stats)
	}
	if a.Stats.HotPulses+a.Stats.ColdPulses > DefaultPulseBudget {
		t.Errorf("default budget exceeded: %+v", a.Stats)
	}
}

// TestPropertyScoresFiniteAndInRange runs random queries on random graphs.
func TestPropertyScoresFiniteAndInRange(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	e := newEngine(t, DefaultParams())
	for trial := 0; trial < 30; trial++ {
		n := 50 + r.IntN(800)
		g := graphtest.PowerLaw(n, n*(1+r.IntN(5)), uint64(trial))
		var seeds, cands []graph.Scored
		for i := 0; i < 1+r.IntN(5); i++ {
			seeds = append(seeds, graph.Scored{Node: graph.NodeID(r.IntN(n)), Score: r.Float32()})
		}
		for i := 0; i < r.IntN(100); i++ {
			s := r.Float32() * 1.5
			switch r.IntN(20) {
			case 0:
				s = float32(math.NaN())
			case 1:
				s = float32(math.Inf(1))
			}
			cands = append(cands, graph.Scored{Node: graph.NodeID(r.IntN(n)), Score: s})
		}
		res, err := e.Apply(g, seeds, cands)
		if err != nil {
			t.Fatal(err)
		}
		seen := map[graph.NodeID]bool{}
		for i, s := range res.Scores {
			d := res.Details[i]
			if !graph.IsFinite(s.Score) || s.Score < 0 || s.Score > 1.5 {
				t.Fatalf("trial %d: score %v", trial, s)
			}
			if !(d.Gate > 0 && d.Gate < 1) || d.Density < DensityFloor || d.Density > DensityCap || d.Overlap < 0 || d.Overlap > 1 || d.Hot < 0 || d.Hot > 1 || d.Cold < 0 || d.Cold > 1 {
				t.Fatalf("trial %d: detail out of range %+v", trial, d)
			}
			if seen[s.Node] {
				t.Fatalf("trial %d: node %d twice", trial, s.Node)
			}
			seen[s.Node] = true
			if i > 0 && graph.CompareScored(res.Scores[i-1], s) > 0 {
				t.Fatalf("trial %d: not sorted", trial)
			}
		}
		if res.Stats.HotPulses+res.Stats.ColdPulses > DefaultPulseBudget || len(res.AntiSeeds) > DefaultAntiSeeds {
			t.Fatalf("trial %d: budgets %+v", trial, res.Stats)
		}
	}
}

func TestApplyValidation(t *testing.T) {
	g := hubGraph(t)
	e := newEngine(t, DefaultParams())
	if _, err := e.Apply(g, []graph.Scored{{Node: 9999, Score: 1}}, nil); err == nil {
		t.Error("accepted an out-of-range seed")
	}
	if _, err := e.Apply(graph.New(), nil, nil); err == nil {
		t.Error("accepted an unfinalized graph")
	}
	res, err := e.Apply(g, nil, []graph.Scored{{Node: 1, Score: 0.2}, {Node: 0, Score: 0.5}})
	if err != nil || len(res.Scores) != 2 || res.Scores[0].Node != 0 || res.Scores[0].Score != 0.5 {
		t.Errorf("no seeds: %+v, %v (want candidates unchanged, sorted)", res, err)
	}
	p := DefaultParams()
	p.FCold = p.FHot
	if _, err := New(p); err == nil {
		t.Error("accepted equal frequencies")
	}
	p = DefaultParams()
	p.DensityCap = 0.1
	if _, err := New(p); err == nil {
		t.Error("accepted density cap below floor")
	}
}

func BenchmarkApply(b *testing.B) {
	g := graphtest.PowerLaw(10000, 26000, 1)
	e := newEngine(b, DefaultParams())
	seeds := []graph.Scored{{Node: 42, Score: 1}, {Node: 4242, Score: 0.9}, {Node: 7000, Score: 0.8}}
	var cands []graph.Scored
	for i := 0; i < 200; i++ {
		cands = append(cands, graph.Scored{Node: graph.NodeID(i * 37 % g.NumNodes()), Score: 1 / float32(i+1)})
	}
	for b.Loop() {
		if _, err := e.Apply(g, seeds, cands); err != nil {
			b.Fatal(err)
		}
	}
}
