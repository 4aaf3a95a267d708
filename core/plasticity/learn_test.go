package plasticity

import (
	"math"
	"testing"

	"github.com/m1nd-go/m1nd/core/graph"
)

// poolGraph: a query about session pools reaches session_pool (the right
// answer) and worker_pool (noise) from the seed.
func poolGraph(t testing.TB) *graph.Graph {
	return build(t, []string{"seed", "session_pool", "worker_pool", "acquire", "spawner", "other"}, []edgeSpec{
		{"seed", "session_pool", "", 0.60},
		{"seed", "worker_pool", "", 0.65},
		{"session_pool", "acquire", "", 0.8},
		{"worker_pool", "spawner", "", 0.8},
		{"other", "spawner", "", 0.5},
	})
}

func TestLearnCorrectRaisesRank(t *testing.T) {
	g := poolGraph(t)
	e := newEngine(t)
	seed := id(t, g, "seed")
	before := spread(g, seed)
	if before[id(t, g, "session_pool")] >= before[id(t, g, "worker_pool")] {
		t.Fatal("fixture: worker_pool should outrank session_pool before learning")
	}
	res, err := e.Learn(g, LearnRequest{Query: "session pool", Feedback: Correct, Nodes: []graph.NodeID{seed, id(t, g, "session_pool")}, Strength: 0.2})
	if err != nil {
		t.Fatal(err)
	}
	// seed->session_pool is between two confirmed nodes: +lr.
	if w := weight(t, g, "seed", "session_pool"); !near(w, 0.68) {
		t.Errorf("seed->session_pool = %v, want 0.68", w)
	}
	// Neighbourhood edges get lr·strength.
	if w := weight(t, g, "seed", "worker_pool"); !near(w, 0.65+0.016) {
		t.Errorf("seed->worker_pool = %v, want 0.666", w)
	}
	if w := weight(t, g, "session_pool", "acquire"); !near(w, 0.8+0.016) {
		t.Errorf("session_pool->acquire = %v, want 0.816", w)
	}
	if w := weight(t, g, "other", "spawner"); w != 0.5 {
		t.Errorf("unrelated edge changed to %v", w)
	}
	if res.EdgesStrengthened != 3 || res.EdgesWeakened != 0 || res.NodesAffected != 2 || res.LearningType != "hebbian_ltp" {
		t.Errorf("result = %+v", res)
	}
	after := spread(g, seed)
	if after[id(t, g, "session_pool")] <= after[id(t, g, "worker_pool")] {
		t.Errorf("after learn(correct) session_pool (%v) should outrank worker_pool (%v)",
			after[id(t, g, "session_pool")], after[id(t, g, "worker_pool")])
	}
	// Feedback memory: both judged nodes, evidence 0.25+0.75·0.2 = 0.4.
	rel, err := e.Relevance(g, Context{Words: ContextWords("session pool")})
	if err != nil {
		t.Fatal(err)
	}
	want := float32(math.Tanh(0.4))
	if len(rel) != 2 || !near(rel[0].Score, want) || !near(rel[1].Score, want) {
		t.Errorf("relevance after learn(correct) = %+v, want seed and session_pool at %v", rel, want)
	}
}

func TestLearnWrongLowersAndReachesLTD(t *testing.T) {
	g := poolGraph(t)
	e := newEngine(t)
	seed, wp := id(t, g, "seed"), id(t, g, "worker_pool")
	before := spread(g, seed)[wp]
	res, err := e.Learn(g, LearnRequest{Query: "session pool", Feedback: Wrong, Nodes: []graph.NodeID{wp}, Strength: 0.2, Seeds: []graph.NodeID{seed}})
	if err != nil {
		t.Fatal(err)
	}
	want := float32(0.65*0.995 - 0.08*0.2)
	if w := weight(t, g, "seed", "worker_pool"); !near(w, want) {
		t.Errorf("seed->worker_pool = %v, want %v", w, want)
	}
	if res.EdgesWeakened != 2 || res.EdgesStrengthened != 0 || res.LearningType != "hebbian_ltd" {
		t.Errorf("result = %+v, want 2 edges weakened", res)
	}
	if after := spread(g, seed)[wp]; after >= before {
		t.Errorf("worker_pool activation %v -> %v, want lower", before, after)
	}
	ltd := 0
	for i := 0; i < 6; i++ {
		r, err := e.Learn(g, LearnRequest{Feedback: Wrong, Nodes: []graph.NodeID{wp}, Strength: 0.2})
		if err != nil {
			t.Fatal(err)
		}
		ltd += r.LTDEvents
	}
	if ltd != 2 { // both incident edges cross the threshold at the 5th weaken, once
		t.Errorf("LTD events = %d, want 2 (one per edge, once)", ltd)
	}
	if w := weight(t, g, "seed", "worker_pool"); w < graph.WeightFloor || w >= want {
		t.Errorf("seed->worker_pool = %v after repeated wrong feedback", w)
	}
	// A correct record for worker_pool followed by the wrong one nets to nothing.
	e2 := newEngine(t)
	g2 := poolGraph(t)
	e2.Learn(g2, LearnRequest{Feedback: Correct, Nodes: []graph.NodeID{wp}, Seeds: []graph.NodeID{seed}, Strength: 0.2})
	e2.Learn(g2, LearnRequest{Feedback: Wrong, Nodes: []graph.NodeID{wp}, Seeds: []graph.NodeID{seed}, Strength: 0.2})
	if rel, _ := e2.Relevance(g2, Context{Seeds: []graph.NodeID{seed}}); len(rel) != 0 {
		t.Errorf("relevance after correct+wrong = %+v, want none", rel)
	}
}

func TestLearnPartialAndValidation(t *testing.T) {
	g := poolGraph(t)
	e := newEngine(t)
	seed, sp := id(t, g, "seed"), id(t, g, "session_pool")
	if _, err := e.Learn(g, LearnRequest{Feedback: Partial, Nodes: []graph.NodeID{seed, sp}, Strength: 0.2}); err != nil {
		t.Fatal(err)
	}
	if w := weight(t, g, "seed", "session_pool"); !near(w, 0.68) {
		t.Errorf("confirmed edge = %v, want 0.68", w)
	}
	if w := weight(t, g, "seed", "worker_pool"); !near(w, 0.65+0.008) {
		t.Errorf("neighbourhood edge = %v, want half the correct delta (0.658)", w)
	}
	for _, req := range []LearnRequest{
		{Feedback: "maybe", Nodes: []graph.NodeID{seed}},
		{Feedback: Correct},
		{Feedback: Correct, Nodes: []graph.NodeID{seed}, Strength: 1.5},
		{Feedback: Correct, Nodes: []graph.NodeID{seed}, Strength: float32(math.NaN())},
		{Feedback: Correct, Nodes: []graph.NodeID{1000}},
	} {
		before := weight(t, g, "seed", "session_pool")
		if _, err := e.Learn(g, req); err == nil {
			t.Errorf("Learn accepted %+v", req)
		}
		if weight(t, g, "seed", "session_pool") != before {
			t.Errorf("rejected request %+v changed a weight", req)
		}
	}
	if f, err := ParseFeedback(" Correct "); err != nil || f != Correct {
		t.Errorf("ParseFeedback = %v, %v", f, err)
	}
	if _, err := ParseFeedback("nope"); err == nil {
		t.Error("ParseFeedback accepted nope")
	}
}

func TestLearnCorrectReachesLTPOnce(t *testing.T) {
	g := poolGraph(t)
	e := newEngine(t)
	nodes := []graph.NodeID{id(t, g, "seed"), id(t, g, "session_pool")}
	ltp := 0
	for i := 0; i < 7; i++ {
		r, err := e.Learn(g, LearnRequest{Feedback: Correct, Nodes: nodes, Strength: 0.2})
		if err != nil {
			t.Fatal(err)
		}
		ltp += r.LTPEvents
	}
	if ltp != 3 { // the three strengthened edges, each once
		t.Errorf("LTP events = %d, want 3", ltp)
	}
	if w := weight(t, g, "seed", "session_pool"); !near(w, 0.6+7*0.08+0.15) {
		t.Errorf("seed->session_pool = %v, want %v", w, 0.6+7*0.08+0.15)
	}
}
