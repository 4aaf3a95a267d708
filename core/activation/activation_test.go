package activation

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/graph/graphtest"
	"github.com/m1nd-go/m1nd/core/seed"
)

var approx = cmpopts.EquateApprox(0, 1e-6)

type edge struct {
	s, t   int
	w      float32
	inhib  bool
	causal float32
	bidi   bool
}

func build(t testing.TB, n int, edges ...edge) *graph.Graph {
	t.Helper()
	g := graph.New()
	for i := 0; i < n; i++ {
		if _, err := g.AddNode(graph.Node{ExternalID: fmt.Sprint(i), Label: fmt.Sprint("n", i)}); err != nil {
			t.Fatal(err)
		}
	}
	for _, e := range edges {
		d := graph.Forward
		if e.bidi {
			d = graph.Bidirectional
		}
		if err := g.AddEdge(graph.Edge{Source: graph.NodeID(e.s), Target: graph.NodeID(e.t), Relation: "r", Weight: e.w, Inhibitory: e.inhib, CausalStrength: e.causal, Direction: d}); err != nil {
			t.Fatal(err)
		}
	}
	g.Finalize()
	return g
}

func asMap(s []graph.Scored) map[graph.NodeID]float32 {
	m := map[graph.NodeID]float32{}
	for _, x := range s {
		m[x.Node] = x.Score
	}
	return m
}

type engineFn func(*graph.Graph, []graph.Scored, Params, *Workspace) ([]graph.Scored, error)

var engines = map[string]engineFn{"wavefront": Wavefront, "heap": Heap}

// The worked example (docs/design.md#activation-pipeline): the
// query "authentication" seeds auth.py (0.9) and session.py (0.85); D1
// then gives session.py, user_model.py and database.py their forward
// arrivals, and main.py, routes.py and middleware.py their reverse ones.
func TestWorkedExampleD1(t *testing.T) {
	g, _ := graphtest.Backend()
	f, err := seed.NewFinder(g, nil, seed.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	seeds := seed.Scored(f.Find("authentication", 0))
	want := map[string]float32{
		"auth.py":       0.9,         // seed
		"session.py":    0.85,        // seed; 0.9·1.0·0.55 = 0.495 loses the scatter-max
		"user_model.py": 0.9 * 0.55,  // 0.495
		"database.py":   0.9 * 0.55,  // 0.495; via session.py only 0.4675
		"routes.py":     0.9 * 0.55,  // reverse: routes.py imports auth.py
		"main.py":       0.9 * 0.55,  // reverse: main.py imports auth.py
		"middleware.py": 0.85 * 0.55, // reverse: middleware.py imports session.py (0.4675)
	}
	for name, run := range engines {
		got, err := run(g, seeds, DefaultParams(), nil)
		if err != nil {
			t.Fatal(err)
		}
		gotByName := map[string]float32{}
		for _, s := range got {
			gotByName[g.Label(s.Node)] = s.Score
		}
		if diff := cmp.Diff(want, gotByName, approx); diff != "" {
			t.Errorf("%s (-want +got):\n%s", name, diff)
		}
		if !slices.IsSortedFunc(got, func(a, b graph.Scored) int { return int(a.Node) - int(b.Node) }) {
			t.Errorf("%s: result not in NodeID order", name)
		}
	}
}

func TestChainDecayDepthAndThreshold(t *testing.T) {
	// 0 → 1 → … → 9, weight 1.
	var es []edge
	for i := 0; i < 9; i++ {
		es = append(es, edge{s: i, t: i + 1, w: 1})
	}
	g := build(t, 10, es...)
	seeds := []graph.Scored{{Node: 0, Score: 1}}
	for name, run := range engines {
		p := DefaultParams()
		got := asMap(must(run(g, seeds, p, nil)))
		// 0.55^6 = 0.0277 < 0.04: node 6 is cut by the threshold before
		// the depth limit (5) matters.
		want := map[graph.NodeID]float32{0: 1, 1: 0.55, 2: 0.3025, 3: 0.166375, 4: 0.09150625, 5: 0.0503284375}
		if diff := cmp.Diff(want, got, approx); diff != "" {
			t.Errorf("%s default (-want +got):\n%s", name, diff)
		}
		p.MaxDepth = 2
		if got := asMap(must(run(g, seeds, p, nil))); len(got) != 3 {
			t.Errorf("%s: MaxDepth 2 reached %v", name, got)
		}
		p = DefaultParams()
		p.Threshold = 0.2
		if got := asMap(must(run(g, seeds, p, nil))); len(got) != 3 {
			t.Errorf("%s: threshold 0.2 kept %v", name, got)
		}
		p = DefaultParams()
		p.Decay = 1
		p.MaxDepth = HardMaxDepth
		if got := asMap(must(run(g, seeds, p, nil))); len(got) != 10 || got[9] != 1 {
			t.Errorf("%s: decay 1 should carry full signal to node 9: %v", name, got)
		}
		// Reverse propagation from the end of the chain.
		p = DefaultParams()
		back := asMap(must(run(g, []graph.Scored{{Node: 9, Score: 1}}, p, nil)))
		if !near(back[8], 0.55) || !near(back[7], 0.3025) {
			t.Errorf("%s: reverse propagation %v", name, back)
		}
		p.ReverseFactor = 0
		if back := asMap(must(run(g, []graph.Scored{{Node: 9, Score: 1}}, p, nil))); len(back) != 1 {
			t.Errorf("%s: ReverseFactor 0 still propagated: %v", name, back)
		}
	}
}

func near(a, b float32) bool { return math.Abs(float64(a-b)) < 1e-6 }

func must(s []graph.Scored, err error) []graph.Scored {
	if err != nil {
		panic(err)
	}
	return s
}

func TestSaturationCap(t *testing.T) {
	g := build(t, 3, edge{s: 0, t: 1, w: 3}, edge{s: 1, t: 2, w: 3})
	for name, run := range engines {
		got := asMap(must(run(g, []graph.Scored{{Node: 0, Score: 5}}, DefaultParams(), nil)))
		// Seed capped at 1; 1·3·0.55 = 1.65 capped at 1 again.
		if got[0] != 1 || got[1] != 1 || got[2] != 1 {
			t.Errorf("%s: %v, want every node capped at 1", name, got)
		}
	}
}

func TestInhibition(t *testing.T) {
	// Seeds 0 and 1. 1 → 2 excites (0.55); 0 → 2 inhibits with
	// 1·1·0.55·0.5 = 0.275; 0 → 3 inhibits a node nothing excites.
	g := build(t, 5, edge{s: 1, t: 2, w: 1}, edge{s: 0, t: 2, w: 1, inhib: true}, edge{s: 0, t: 3, w: 1, inhib: true}, edge{s: 4, t: 0, w: 1, inhib: true})
	seeds := []graph.Scored{{Node: 0, Score: 1}, {Node: 1, Score: 1}}
	for _, order := range [][]graph.Scored{seeds, {seeds[1], seeds[0]}} {
		got := asMap(must(Wavefront(g, order, DefaultParams(), nil)))
		want := map[graph.NodeID]float32{0: 1, 1: 1, 2: 0.275}
		if diff := cmp.Diff(want, got, approx); diff != "" {
			t.Errorf("wavefront (-want +got):\n%s", diff)
		}
	}
	// Floor at zero: a strong inhibitor erases the target.
	g2 := build(t, 3, edge{s: 1, t: 2, w: 1}, edge{s: 0, t: 2, w: 3, inhib: true})
	for name, run := range engines {
		got := asMap(must(run(g2, []graph.Scored{{Node: 1, Score: 1}, {Node: 0, Score: 1}}, DefaultParams(), nil)))
		if v, ok := got[2]; ok && v > 0 && name == "wavefront" {
			t.Errorf("%s: inhibited node kept %v", name, v)
		}
		for _, v := range got {
			if v < 0 {
				t.Errorf("%s: negative activation %v", name, got)
			}
		}
	}
}

func TestFanoutLimitAndBudget(t *testing.T) {
	// Node 0 is imported by 100 files (1..100).
	var es []edge
	for i := 1; i <= 100; i++ {
		es = append(es, edge{s: i, t: 0, w: 1})
	}
	hub := build(t, 101, es...)
	for name, run := range engines {
		p := DefaultParams()
		got := asMap(must(run(hub, []graph.Scored{{Node: 0, Score: 1}}, p, nil)))
		if len(got) != 101 || !near(got[42], 0.55*64.0/100) {
			t.Errorf("%s: hub's importers got %v (want 0.55·64/100)", name, got[42])
		}
		p.FanoutLimit = 0
		if got := asMap(must(run(hub, []graph.Scored{{Node: 0, Score: 1}}, p, nil))); !near(got[42], 0.55) {
			t.Errorf("%s: FanoutLimit 0 must not damp: %v", name, got[42])
		}
		// An importer (degree 1) is not damped.
		if got := asMap(must(run(hub, []graph.Scored{{Node: 7, Score: 1}}, DefaultParams(), nil))); !near(got[0], 0.55) {
			t.Errorf("%s: low-degree source damped: %v", name, got[0])
		}
	}
	// Budget: on a chain only MaxFired nodes fire.
	var chain []edge
	for i := 0; i < 9; i++ {
		chain = append(chain, edge{s: i, t: i + 1, w: 1})
	}
	g := build(t, 10, chain...)
	for name, run := range engines {
		p := DefaultParams()
		p.MaxFired = 2
		got := asMap(must(run(g, []graph.Scored{{Node: 0, Score: 1}}, p, nil)))
		if len(got) != 3 {
			t.Errorf("%s: MaxFired 2 reached %v, want nodes 0, 1, 2", name, got)
		}
	}
	// The wavefront fires the strongest of an over-budget depth.
	star := build(t, 5, edge{s: 0, t: 1, w: 0.5}, edge{s: 0, t: 2, w: 1}, edge{s: 1, t: 3, w: 1}, edge{s: 2, t: 4, w: 1})
	p := DefaultParams()
	p.MaxFired = 2 // the seed, then the stronger of 1 (0.275) and 2 (0.55)
	got := asMap(must(Wavefront(star, []graph.Scored{{Node: 0, Score: 1}}, p, nil)))
	if _, ok := got[3]; ok || !near(got[4], 0.3025) {
		t.Errorf("budgeted wavefront fired the weaker node: %v", got)
	}
}

func TestBidirectionalNotDoubled(t *testing.T) {
	a := build(t, 3, edge{s: 0, t: 1, w: 1, bidi: true}, edge{s: 1, t: 2, w: 0.5, bidi: true})
	for name, run := range engines {
		got := asMap(must(run(a, []graph.Scored{{Node: 0, Score: 1}}, DefaultParams(), nil)))
		want := map[graph.NodeID]float32{0: 1, 1: 0.55, 2: 0.55 * 0.5 * 0.55}
		if diff := cmp.Diff(want, got, approx); diff != "" {
			t.Errorf("%s (-want +got):\n%s", name, diff)
		}
	}
}

// randomGraph has weights <= 1 and no inhibition, the regime in which the
// heap engine's result is bounded by the wavefront's.
func randomGraph(t testing.TB, n, m int, seed uint64) *graph.Graph {
	r := rand.New(rand.NewPCG(seed, 1))
	var es []edge
	for i := 0; i < m; i++ {
		s, d := r.IntN(n), r.IntN(n)
		if s != d {
			es = append(es, edge{s: s, t: d, w: 0.2 + 0.8*r.Float32(), causal: float32(r.IntN(3)) * 0.4, bidi: r.IntN(5) == 0})
		}
	}
	return build(t, n, es...)
}

func TestHeapBoundedByWavefront(t *testing.T) {
	for trial := uint64(0); trial < 30; trial++ {
		g := randomGraph(t, 60, 150, trial)
		r := rand.New(rand.NewPCG(trial, 2))
		var seeds []graph.Scored
		for i := 0; i < 1+r.IntN(4); i++ {
			seeds = append(seeds, graph.Scored{Node: graph.NodeID(r.IntN(60)), Score: 0.3 + 0.7*r.Float32()})
		}
		wf := asMap(must(Wavefront(g, seeds, DefaultParams(), nil)))
		hp := asMap(must(Heap(g, seeds, DefaultParams(), nil)))
		for n, v := range hp {
			if v > wf[n]+1e-6 {
				t.Fatalf("trial %d node %d: heap %v > wavefront %v", trial, n, v, wf[n])
			}
		}
		// Seeds and their direct neighbours agree exactly.
		for _, s := range seeds {
			if !near(hp[s.Node], wf[s.Node]) {
				t.Fatalf("trial %d seed %d: heap %v wavefront %v", trial, s.Node, hp[s.Node], wf[s.Node])
			}
		}
	}
}

func TestPreferHeap(t *testing.T) {
	sparse := graphtest.PowerLaw(5000, 6000, 1) // avg degree < 8
	p := DefaultParams()
	if !PreferHeap(sparse, 1, p) {
		t.Error("1 seed in 5000 nodes, sparse: want heap")
	}
	if PreferHeap(sparse, 50, p) {
		t.Error("50 seeds in 5000 nodes (ratio 0.01): want wavefront")
	}
	dense := randomGraph(t, 2000, 20000, 3) // avg degree ~ 10+
	if PreferHeap(dense, 1, p) {
		t.Errorf("avg degree %.1f: want wavefront", dense.AvgDegree())
	}
	if _, e, _ := Structural(sparse, []graph.Scored{{Node: 3, Score: 1}}, p, nil); e != HeapEngine {
		t.Errorf("Structural ran %v", e)
	}
}

func TestBloom(t *testing.T) {
	b := NewBloom(1000, 0.01)
	for i := 0; i < 1000; i++ {
		b.Add(graph.NodeID(i * 7))
	}
	for i := 0; i < 1000; i++ {
		if !b.MayContain(graph.NodeID(i * 7)) {
			t.Fatalf("false negative for %d", i*7)
		}
	}
	fp := 0
	for i := 0; i < 100000; i++ {
		if b.MayContain(graph.NodeID(1_000_000 + i)) {
			fp++
		}
	}
	if rate := float64(fp) / 100000; rate > 0.02 {
		t.Errorf("false-positive rate %.4f, want about 0.01", rate)
	}
	b.Reset(10, 0.01)
	if b.MayContain(7) {
		t.Error("Reset must empty the filter")
	}
}

func TestCausal(t *testing.T) {
	// 0 → 1 (0.8) → 2 (0.5); 3 → 1 (0.6) is another cause of 1; 4 has no
	// causal edge; 2 → 5 has causal strength 0.
	g := build(t, 6,
		edge{s: 0, t: 1, w: 1, causal: 0.8}, edge{s: 1, t: 2, w: 1, causal: 0.5},
		edge{s: 3, t: 1, w: 1, causal: 0.6}, edge{s: 2, t: 5, w: 1})
	p := DefaultCausalParams()
	fwd := asMap(must(Causal(g, []graph.Scored{{Node: 0, Score: 1}}, p, nil)))
	// Forward chains only: 3 (a sibling cause of 1) is not on a chain from 0.
	want := map[graph.NodeID]float32{0: 1, 1: 0.8, 2: 0.4}
	if diff := cmp.Diff(want, fwd, approx); diff != "" {
		t.Errorf("forward (-want +got):\n%s", diff)
	}
	back := asMap(must(Causal(g, []graph.Scored{{Node: 2, Score: 1}}, p, nil)))
	want = map[graph.NodeID]float32{2: 1, 1: 0.5 * 0.7, 0: 0.5 * 0.7 * 0.8 * 0.7, 3: 0.5 * 0.7 * 0.6 * 0.7}
	if diff := cmp.Diff(want, back, approx); diff != "" {
		t.Errorf("backward (-want +got):\n%s", diff)
	}
	if got := must(Causal(g, []graph.Scored{{Node: 4, Score: 1}}, p, nil)); len(got) != 0 {
		t.Errorf("a seed outside the causal subgraph: %v", got)
	}
	p.MaxDepth = 1
	if got := asMap(must(Causal(g, []graph.Scored{{Node: 0, Score: 1}}, p, nil))); len(got) != 2 {
		t.Errorf("depth 1: %v", got)
	}
	p = DefaultCausalParams()
	p.Budget = 1 // only the seed expands
	if got := asMap(must(Causal(g, []graph.Scored{{Node: 0, Score: 1}}, p, nil))); len(got) != 2 {
		t.Errorf("budget 1: %v", got)
	}
}

func TestCausalBudgetOnLargeGraph(t *testing.T) {
	g := graphtest.PowerLaw(20000, 52000, 5)
	p := DefaultCausalParams()
	p.Budget = 50
	var seeds []graph.Scored
	for i := 0; i < 10; i++ {
		seeds = append(seeds, graph.Scored{Node: graph.NodeID(i * 1999), Score: 1})
	}
	got := must(Causal(g, seeds, p, nil))
	// Each expansion adds at most its neighbours.
	bound := len(seeds)
	deg := g.Degrees()
	bound += p.Budget * (deg.MaxOut + deg.MaxIn)
	if len(got) == 0 || len(got) > bound {
		t.Errorf("%d results for budget %d", len(got), p.Budget)
	}
	p.Budget = 1_000_000
	if all := must(Causal(g, seeds, p, nil)); len(all) <= len(got) {
		t.Errorf("a larger budget must reach further (%d vs %d)", len(all), len(got))
	}
}

func TestMerge(t *testing.T) {
	g := build(t, 6, edge{s: 0, t: 1, w: 1}, edge{s: 2, t: 1, w: 1}) // node 1 is the PageRank hub
	pr := func(n graph.NodeID) float32 { return 0.1 * g.PageRank(n) }
	all := [4]bool{true, true, true, true}
	mp := DefaultMergeParams()
	dims := [4][]graph.Scored{
		{{Node: 0, Score: 0.8}, {Node: 1, Score: 0.5}, {Node: 2, Score: 0.2}, {Node: 3, Score: 0.6}},
		{{Node: 0, Score: 0.6}, {Node: 1, Score: 0.4}, {Node: 2, Score: 0.005}},
		{{Node: 0, Score: 0.4}, {Node: 1, Score: 0.3}},
		{{Node: 0, Score: 0.2}, {Node: 3, Score: 0.9}},
	}
	got := must2(Merge(g, dims, all, 10, mp, nil))
	const max = 1.6 // Bonus4 + PageRankBoost
	wantScore := map[graph.NodeID]float32{
		0: ((0.35*0.8+0.25*0.6+0.15*0.4+0.25*0.2)*1.5 + pr(0)) / max, // 4 dimensions
		1: ((0.35*0.5+0.25*0.4+0.15*0.3)*1.3 + pr(1)) / max,          // 3
		2: ((0.35*0.2 + 0.25*0.005) + pr(2)) / max,                   // 0.005 is below the contribution threshold
		3: ((0.35*0.6 + 0.25*0.9) + pr(3)) / max,                     // 2
	}
	if len(got) != 4 {
		t.Fatalf("got %v", got)
	}
	for i, a := range got {
		if !near(a.Score, wantScore[a.Node]) {
			t.Errorf("node %d: %v, want %v", a.Node, a.Score, wantScore[a.Node])
		}
		if i > 0 && got[i-1].Score < a.Score {
			t.Error("not ranked")
		}
	}
	if got[0].Node != 0 || got[0].DimCount != 4 || got[0].Dims != [4]float32{0.8, 0.6, 0.4, 0.2} {
		t.Errorf("top = %+v", got[0])
	}
	// Empty temporal and causal: their weight goes to the others in
	// proportion (0.35 : 0.25).
	dims2 := [4][]graph.Scored{dims[0], dims[1], nil, nil}
	w := EffectiveWeights(&dims2, all, mp)
	if !near(w[0], 0.35/0.6) || !near(w[1], 0.25/0.6) || w[2] != 0 || w[3] != 0 {
		t.Errorf("effective weights %v", w)
	}
	got = must2(Merge(g, dims2, all, 1, mp, nil))
	if len(got) != 1 || !near(got[0].Score, (0.35/0.6*0.8+0.25/0.6*0.6+pr(0))/max) {
		t.Errorf("redistributed top-1 = %+v", got)
	}
	// Keeping a node below the cut returns it after the cut, with its own
	// score; a kept node no dimension reached is not invented.
	got = must2(MergeKeeping(g, dims, all, 1, []graph.NodeID{2, 5}, mp, nil))
	if len(got) != 2 || got[0].Node != 0 || got[1].Node != 2 || !near(got[1].Score, wantScore[2]) {
		t.Errorf("MergeKeeping(top 1, keep 2 and 5) = %+v", got)
	}
	// A dimension not requested is ignored even when it has results.
	got = must2(Merge(g, dims, [4]bool{true, false, false, false}, 10, mp, nil))
	for _, a := range got {
		if a.Dims[1] != 0 || a.Dims[3] != 0 || !near(a.Score, (a.Dims[0]+pr(a.Node))/max) {
			t.Errorf("structural-only merge: %+v", a)
		}
	}
	if got := must2(Merge(g, [4][]graph.Scored{}, all, 10, mp, nil)); len(got) != 0 {
		t.Errorf("nothing to merge: %v", got)
	}
	// Non-finite input never escapes.
	bad := [4][]graph.Scored{{{Node: 4, Score: float32(math.NaN())}, {Node: 5, Score: float32(math.Inf(1))}}}
	for _, a := range must2(Merge(g, bad, all, 10, mp, nil)) {
		if !graph.IsFinite(a.Score) || a.Score < 0 || a.Score > 1 {
			t.Errorf("non-finite input gave %+v", a)
		}
	}
}

func must2(a []Activated, err error) []Activated {
	if err != nil {
		panic(err)
	}
	return a
}

func TestPropertiesOnPowerLaw(t *testing.T) {
	g := graphtest.PowerLaw(4000, 10400, 11)
	r := rand.New(rand.NewPCG(4, 4))
	pool := NewPool(g.NumNodes())
	for trial := 0; trial < 20; trial++ {
		var seeds []graph.Scored
		for i := 0; i < 1+r.IntN(30); i++ {
			seeds = append(seeds, graph.Scored{Node: graph.NodeID(r.IntN(4000)), Score: r.Float32() * 1.2})
		}
		p := DefaultParams()
		p.MaxDepth = 1 + r.IntN(6)
		dist := hops(g, seeds, p.MaxDepth)
		for name, run := range engines {
			ws := pool.Get()
			a := must(run(g, seeds, p, ws))
			pool.Put(ws)
			b := must(run(g, seeds, p, nil))
			if !slices.Equal(a, b) {
				t.Fatalf("%s: pooled and fresh workspaces differ", name)
			}
			for _, s := range a {
				if !graph.IsFinite(s.Score) || s.Score <= 0 || s.Score > p.SaturationCap {
					t.Fatalf("%s: score %v out of range", name, s)
				}
				if _, ok := dist[s.Node]; !ok {
					t.Fatalf("%s: node %d is beyond %d hops", name, s.Node, p.MaxDepth)
				}
			}
		}
		ws := pool.Get()
		c := must(Causal(g, seeds, DefaultCausalParams(), ws))
		pool.Put(ws)
		for _, s := range c {
			if !graph.IsFinite(s.Score) || s.Score <= 0 || s.Score > 1 {
				t.Fatalf("causal score %v", s)
			}
		}
	}
}

// hops returns the nodes within d undirected hops of the seeds.
func hops(g *graph.Graph, seeds []graph.Scored, d int) map[graph.NodeID]int {
	dist := map[graph.NodeID]int{}
	var front []graph.NodeID
	for _, s := range seeds {
		if _, ok := dist[s.Node]; !ok {
			dist[s.Node] = 0
			front = append(front, s.Node)
		}
	}
	for k := 1; k <= d; k++ {
		var next []graph.NodeID
		for _, u := range front {
			for _, nb := range g.Neighbors(u) {
				if _, ok := dist[nb.Node]; !ok {
					dist[nb.Node] = k
					next = append(next, nb.Node)
				}
			}
		}
		front = next
	}
	return dist
}

func TestConcurrentWithWeightWrites(t *testing.T) {
	g := graphtest.PowerLaw(3000, 7800, 12)
	pool := NewPool(g.NumNodes())
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		r := rand.New(rand.NewPCG(9, 9))
		for {
			select {
			case <-stop:
				return
			default:
			}
			e := graph.EdgeIdx(r.IntN(g.NumEdges()))
			_ = g.AtomicWriteWeight(e, 0.05+2.9*r.Float32())
		}
	}()
	var readers sync.WaitGroup
	for w := 0; w < 6; w++ {
		readers.Add(1)
		go func() {
			defer readers.Done()
			for i := 0; i < 30; i++ {
				seeds := []graph.Scored{{Node: graph.NodeID((w*131 + i*17) % 3000), Score: 1}}
				ws := pool.Get()
				d1, _, err := Structural(g, seeds, DefaultParams(), ws)
				if err != nil {
					t.Error(err)
				}
				d4 := must(Causal(g, seeds, DefaultCausalParams(), ws))
				m := must2(Merge(g, [4][]graph.Scored{d1, nil, nil, d4}, [4]bool{true, true, true, true}, 20, DefaultMergeParams(), ws))
				pool.Put(ws)
				for _, a := range m {
					if !graph.IsFinite(a.Score) {
						t.Error("non-finite score")
					}
				}
			}
		}()
	}
	readers.Wait()
	close(stop)
	wg.Wait()
}

func TestParamsValidate(t *testing.T) {
	for i, m := range []func(*Params){
		func(p *Params) { p.Decay = 0 },
		func(p *Params) { p.Decay = 1.1 },
		func(p *Params) { p.Threshold = float32(math.NaN()) },
		func(p *Params) { p.MaxDepth = 0 },
		func(p *Params) { p.MaxDepth = 21 },
		func(p *Params) { p.SaturationCap = 0 },
		func(p *Params) { p.InhibitoryFactor = 2 },
		func(p *Params) { p.ReverseFactor = -1 },
		func(p *Params) { p.BloomFPR = 1 },
		func(p *Params) { p.HeapSeedRatio = math.Inf(1) },
		func(p *Params) { p.FanoutLimit = -1 },
		func(p *Params) { p.MaxFired = 0 },
	} {
		p := DefaultParams()
		m(&p)
		if p.Validate() == nil {
			t.Errorf("params case %d: expected an error", i)
		}
		g := build(t, 1)
		if _, err := Wavefront(g, nil, p, nil); err == nil {
			t.Errorf("params case %d: Wavefront accepted invalid params", i)
		}
	}
	for i, m := range []func(*CausalParams){
		func(p *CausalParams) { p.BackwardDiscount = 0 },
		func(p *CausalParams) { p.MaxDepth = 0 },
		func(p *CausalParams) { p.Budget = 0 },
	} {
		p := DefaultCausalParams()
		m(&p)
		if p.Validate() == nil {
			t.Errorf("causal case %d: expected an error", i)
		}
	}
	for i, m := range []func(*MergeParams){
		func(p *MergeParams) { p.Weights = [4]float32{} },
		func(p *MergeParams) { p.Weights[2] = -1 },
		func(p *MergeParams) { p.Bonus4 = 0.5 },
		func(p *MergeParams) { p.PageRankBoost = float32(math.Inf(1)) },
	} {
		p := DefaultMergeParams()
		m(&p)
		if p.Validate() == nil {
			t.Errorf("merge case %d: expected an error", i)
		}
	}
	unfinal := graph.New()
	if _, err := unfinal.AddNode(graph.Node{ExternalID: "x"}); err != nil {
		t.Fatal(err)
	}
	if _, err := Wavefront(unfinal, nil, DefaultParams(), nil); err == nil {
		t.Error("an unfinalized graph must be refused")
	}
}

func TestHeapOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(2, 2))
	w := &Workspace{}
	for j := 0; j < 5000; j++ {
		w.push(heapEntry{node: graph.NodeID(r.IntN(100)), act: float32(r.IntN(50))})
	}
	prev := w.pop()
	for n := 1; len(w.heap) > 0; n++ {
		e := w.pop()
		if better(e, prev) {
			t.Fatalf("pop %d: %+v came after %+v", n, e, prev)
		}
		prev = e
	}
}

// TestCausalDefaultBudgetKeepsTop: the default budget cuts only the weak
// tail of D4. With 200 seeds on a power-law graph (a go-std query has 200)
// the default spends its whole budget, and the 100 strongest nodes it
// reaches beyond the seeds are those of a search without a budget, in the
// same order, same scores.
func TestCausalDefaultBudgetKeepsTop(t *testing.T) {
	g := graphtest.PowerLaw(20000, 52000, 5)
	var seeds []graph.Scored
	isSeed := map[graph.NodeID]bool{}
	for i := 0; i < 200; i++ {
		seeds = append(seeds, graph.Scored{Node: graph.NodeID(i * 97), Score: 1 - float32(i)/400})
		isSeed[graph.NodeID(i*97)] = true
	}
	reached := func(p CausalParams) []graph.Scored {
		var out []graph.Scored
		for _, s := range must(Causal(g, seeds, p, nil)) {
			if !isSeed[s.Node] {
				out = append(out, s)
			}
		}
		return out
	}
	p := DefaultCausalParams()
	budgeted := reached(p)
	p.Budget = 1_000_000
	all := reached(p)
	if len(all) <= len(budgeted) {
		t.Fatalf("the default budget (%d) did not bind: %d nodes either way; the test needs a larger graph", DefaultCausalParams().Budget, len(all))
	}
	if diff := cmp.Diff(graph.SelectTop(all, 100), graph.SelectTop(budgeted, 100)); diff != "" {
		t.Errorf("top 100 with the default budget differs from no budget (-none +default):\n%s", diff)
	}
}
