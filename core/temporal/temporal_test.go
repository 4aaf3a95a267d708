package temporal

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/graph/graphtest"
	"github.com/m1nd-go/m1nd/core/internal/finite"
)

const hour = 3600.0

var now = time.Unix(int64(graphtest.Now), 0)

func opts() Options { return DefaultOptions() }

type spec struct {
	typ  graph.NodeType
	ageH float64 // -1: unknown timestamp
	freq float32
}

// build makes one node for each spec and a chain of edges i → i+1.
func build(t testing.TB, chain bool, specs ...spec) *graph.Graph {
	t.Helper()
	g := graph.New()
	for i, s := range specs {
		lm := graphtest.Now - s.ageH*hour
		if s.ageH == -1 {
			lm = 0
		}
		if _, err := g.AddNode(graph.Node{ExternalID: fmt.Sprint(i), Label: fmt.Sprint("n", i), Type: s.typ, LastModified: lm, ChangeFrequency: s.freq}); err != nil {
			t.Fatal(err)
		}
		if chain && i > 0 {
			if err := g.AddEdge(graph.Edge{Source: graph.NodeID(i - 1), Target: graph.NodeID(i), Relation: "imports", Weight: 1}); err != nil {
				t.Fatal(err)
			}
		}
	}
	g.Finalize()
	return g
}

func index(t testing.TB, g *graph.Graph, mod func(*Options)) *Index {
	t.Helper()
	o := opts()
	if mod != nil {
		mod(&o)
	}
	x, err := New(g, o)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

func near(a, b float32) bool { return math.Abs(float64(a-b)) < 1e-5 }

func TestRecencyHalfLives(t *testing.T) {
	g := build(t, false,
		spec{graph.File, 7 * 24, 0},      // one half-life
		spec{graph.Function, 14 * 24, 0}, //
		spec{graph.Module, 30 * 24, 0},   //
		spec{graph.Directory, 60 * 24, 0},
		spec{graph.File, 0, 0},   // just changed
		spec{graph.File, -1, 0},  // unknown
		spec{graph.File, -48, 0}) // in the future
	x := index(t, g, nil)
	want := []float32{0.5, 0.5, 0.5, 0.25, 1, 0, 1}
	for i, w := range want {
		if got := x.Recency(graph.NodeID(i), now); !near(got, w) {
			t.Errorf("node %d (%v): recency %v, want %v", i, g.Type(graph.NodeID(i)), got, w)
		}
	}
}

func TestResurrection(t *testing.T) {
	g := build(t, false, spec{graph.File, -1, 0}, spec{graph.File, -1, 0}, spec{graph.File, -1, 0})
	x := index(t, g, nil)
	day := 24 * hour
	x.ObserveCommits([]Commit{
		{Time: graphtest.Now - 100*day, Nodes: []graph.NodeID{0, 1, 2}},
		{Time: graphtest.Now - 10*day, Nodes: []graph.NodeID{0}}, // back after 90 dormant days
		{Time: graphtest.Now - 12*day, Nodes: []graph.NodeID{1}}, // a short gap after…
		{Time: graphtest.Now - 11*day, Nodes: []graph.NodeID{1}}, // …a long one: prev is the latest earlier change
		{Time: graphtest.Now - 40*day, Nodes: []graph.NodeID{2}}, // resurrected, then dormant again
	})
	raw := float32(math.Exp(-math.Ln2 * 10 * 24 / (7 * 24)))
	res := float32(0.3 + 0.1*math.Log1p(90.0/35))
	if got := x.Recency(0, now); !near(got, max(raw, res)) || got <= raw {
		t.Errorf("resurrected node: recency %v, want floor %v above raw %v", got, res, raw)
	}
	if got, want := x.Recency(1, now), float32(math.Exp(-math.Ln2*11*24/(7*24))); !near(got, want) {
		t.Errorf("node with a 1-day gap: recency %v, want plain decay %v", got, want)
	}
	if got, want := x.Recency(2, now), float32(math.Exp(-math.Ln2*40*24/(7*24))); !near(got, want) {
		t.Errorf("dormant-again node: %v, want %v", got, want)
	}
}

func TestVelocityAndScore(t *testing.T) {
	g := build(t, false, spec{graph.File, 0, 0.2}, spec{graph.File, 0, 0.4}, spec{graph.File, 0, 0.6}, spec{graph.File, -1, 0})
	x := index(t, g, nil)
	// mean 0.3, population std sqrt(0.05) ≈ 0.2236.
	std := float32(math.Sqrt(0.05))
	for i, f := range []float32{0.2, 0.4, 0.6, 0} {
		if got, want := x.Velocity(graph.NodeID(i)), (f-0.3)/std; !near(got, want) {
			t.Errorf("velocity %d = %v, want %v", i, got, want)
		}
	}
	// Node 2: recency 1, velocity 0.5 + z/4.
	v := 0.5 + (0.6-0.3)/std/4
	if got, want := x.Score(2, now), (0.6*1+0.4*v)/1.0; !near(got, want) {
		t.Errorf("score = %v, want %v", got, want)
	}
	// No timestamp and no changes: no temporal signal at all.
	if got := x.Score(3, now); got != 0 {
		t.Errorf("node without history scores %v", got)
	}
}

func TestCoChangeBootstrap(t *testing.T) {
	g := build(t, true, spec{}, spec{}, spec{}, spec{}, spec{}) // chain 0-1-2-3-4
	x := index(t, g, nil)
	hop := float32(0.3 * 0.95)
	got := x.CoChange().Partners(0, 10)
	want := []Partner{{Node: 1, Strength: hop}, {Node: 2, Strength: hop * hop}, {Node: 3, Strength: hop * hop * hop}}
	if len(got) != len(want) {
		t.Fatalf("partners of 0 = %v, want %v (4 is beyond 3 hops)", got, want)
	}
	for i := range want {
		if got[i].Node != want[i].Node || !near(got[i].Strength, want[i].Strength) {
			t.Errorf("partner %d = %v, want %v", i, got[i], want[i])
		}
	}
	// Reverse direction counts: 4's partners are 3, 2, 1.
	if p := x.CoChange().Partners(4, 10); len(p) != 3 || p[0].Node != 3 {
		t.Errorf("partners of 4 = %v", p)
	}
	// A budget of 10 over 5 nodes leaves 2 per row.
	y := index(t, g, func(o *Options) { o.CoChangeBudget = 10 })
	for n := graph.NodeID(0); n < 5; n++ {
		if p := y.CoChange().Partners(n, 10); len(p) != 2 {
			t.Errorf("budgeted row %d has %d partners", n, len(p))
		}
	}
}

func TestObserve(t *testing.T) {
	g := build(t, false, spec{}, spec{}, spec{}, spec{}, spec{})
	x := index(t, g, func(o *Options) { o.MaxCommitGroup = 3; o.CoChangeBudget = 8; o.CoChangeRowCap = 2 })
	c := x.CoChange()
	if c.Entries() != 0 {
		t.Fatalf("edgeless graph bootstraps %d entries", c.Entries())
	}
	x.Observe([][]graph.NodeID{{0, 1}, {0, 1, 1}, {0, 2}})
	// 0 changed 3 times, 1 twice, co 2: 2 / (3+2−2 + 2) = 0.4.
	if s := c.Strength(0, 1); !near(s, 0.4) || c.Strength(1, 0) != s {
		t.Errorf("strength(0,1) = %v, want 0.4 (symmetric)", s)
	}
	if p := c.Partners(0, 5); len(p) != 2 || p[0].Node != 1 || p[0].Observed != 2 {
		t.Errorf("partners(0) = %v", p)
	}
	// A group above MaxCommitGroup counts changes but records no pairs.
	before := c.Entries()
	x.Observe([][]graph.NodeID{{1, 2, 3, 4}})
	if c.Entries() != before || c.Strength(3, 4) != 0 {
		t.Error("large group recorded pairs")
	}
	// Row 0 is full (cap 2): a weaker new pair is turned away.
	if d := x.Observe([][]graph.NodeID{{0, 4}}); d == 0 || c.Strength(0, 4) != 0 {
		t.Errorf("full row accepted a weaker pair (dropped=%d)", d)
	}
	// Budget: 8 entries at most, whatever is observed.
	x.Observe([][]graph.NodeID{{2, 3}, {3, 4}, {2, 4}, {1, 3}, {1, 4}})
	if c.Entries() > 8 {
		t.Errorf("entries %d exceed the budget 8", c.Entries())
	}
	// Out-of-range IDs are ignored.
	x.Observe([][]graph.NodeID{{0, 99}})
}

func TestActivate(t *testing.T) {
	g := build(t, true, spec{graph.File, 0, 0.5}, spec{graph.File, 24, 0.5}, spec{graph.File, 48, 0.5}, spec{graph.File, -1, 0})
	x := index(t, g, nil)
	got := x.Activate([]graph.Scored{{Node: 0, Score: 0.9}})
	if len(got) != 3 || got[0].Node != 0 {
		t.Fatalf("Activate = %v: want the seed first, then its partners 1 and 2 (3 has no history)", got)
	}
	for _, s := range got {
		rel := float32(0.9)
		if s.Node != 0 {
			rel *= x.CoChange().Strength(0, s.Node)
		}
		if want := rel * x.Score(s.Node, now); !near(s.Score, want) {
			t.Errorf("node %d: %v, want %v", s.Node, s.Score, want)
		}
	}
	if x.Activate(nil) != nil {
		t.Error("no seeds, no result")
	}
}

// TestReferenceIsTheGraphsClock: Activate scores recency at the newest
// change the index knows, never at the wall clock (issue 27: the same
// question asked minutes apart gave other scores).
func TestReferenceIsTheGraphsClock(t *testing.T) {
	g := build(t, true, spec{graph.File, 30, 0.5}, spec{graph.File, 5, 0.5}, spec{graph.File, 48, 0.5}, spec{graph.File, -1, 0})
	x := index(t, g, nil)
	if got, want := x.Reference(), now.Add(-5*time.Hour); !got.Equal(want) {
		t.Fatalf("Reference = %v, want the newest LastModified %v", got, want)
	}
	seeds := []graph.Scored{{Node: 0, Score: 0.9}, {Node: 2, Score: 0.4}}
	a := x.Activate(seeds)
	if len(a) == 0 || !slices.Equal(a, x.ActivateAt(seeds, x.Reference())) {
		t.Fatalf("Activate = %v, want ActivateAt(Reference)", a)
	}
	if slices.Equal(a, x.ActivateAt(seeds, now.Add(3*time.Hour))) {
		t.Fatal("a later time must score lower; the test cannot tell clocks apart")
	}
	// A commit newer than every LastModified moves the reference; one
	// older does not.
	x.ObserveCommits([]Commit{{Time: graphtest.Now + 2*hour, Nodes: []graph.NodeID{1}}, {Time: graphtest.Now - 90*hour, Nodes: []graph.NodeID{3}}})
	if got, want := x.Reference(), now.Add(2*time.Hour); !got.Equal(want) {
		t.Fatalf("after a newer commit Reference = %v, want %v", got, want)
	}
	// A new generation of the same graph keeps what the old one knew.
	g.Finalize()
	y := index(t, g, nil)
	y.InheritFrom(x)
	if !y.Reference().Equal(x.Reference()) {
		t.Errorf("inherited Reference = %v, want %v", y.Reference(), x.Reference())
	}
	if r := index(t, build(t, false, spec{graph.File, -1, 0}), nil).Reference(); r.Unix() != 0 {
		t.Errorf("a graph without times: Reference = %v, want the Unix epoch", r)
	}
}

func TestInheritFrom(t *testing.T) {
	g := build(t, true, spec{graph.File, 50 * 24, 0.2}, spec{graph.File, 50 * 24, 0.2})
	x := index(t, g, nil)
	x.Observe([][]graph.NodeID{{0, 1}})
	// An incremental update: node 0 edited today after 50 quiet days.
	g.SetLastModified(0, graphtest.Now)
	if _, err := g.AddNode(graph.Node{ExternalID: "new", Label: "new"}); err != nil {
		t.Fatal(err)
	}
	g.Finalize()
	y := index(t, g, nil)
	if !y.InheritFrom(x) {
		t.Fatal("same graph must inherit")
	}
	if s := y.CoChange().Strength(0, 1); s < 0.33 {
		t.Errorf("observed pair lost: %v", s)
	}
	if r := y.Recency(0, now); r != 1 {
		t.Errorf("recency = %v", r)
	}
	// 20 days on, plain decay would be 0.14; the 50-day gap gives a floor.
	if r, want := y.Recency(0, now.Add(20*24*time.Hour)), float32(0.3+0.1*math.Log1p(50.0/35)); !near(r, want) {
		t.Errorf("a resurrected file must keep its floor: %v, want %v", r, want)
	}
	if r := x.Recency(0, now.Add(20*24*time.Hour)); !near(r, float32(math.Exp(-math.Ln2*20/7))) {
		t.Errorf("the old index saw no resurrection: %v", r)
	}
	other := build(t, false, spec{})
	if index(t, other, nil).InheritFrom(x) {
		t.Error("a different graph must not inherit")
	}
}

func TestPropertiesAndDeterminism(t *testing.T) {
	g := graphtest.PowerLaw(1500, 4000, 6)
	x := index(t, g, nil)
	y := index(t, g, nil)
	budget := x.Options().CoChangeBudget
	if e := x.CoChange().Entries(); e != 0 {
		t.Fatalf("structural rows are built on first use; %d entries before any query", e)
	}
	x.CoChange().Partners(0, 5)
	if e := x.CoChange().Entries(); e == 0 || e > budget {
		t.Fatalf("entries %d (budget %d)", e, budget)
	}
	perRow := min(x.Options().CoChangeRowCap, budget/g.NumNodes())
	for n := graph.NodeID(0); int(n) < g.NumNodes(); n += 97 {
		p := x.CoChange().Partners(n, 1000)
		if len(p) > perRow {
			t.Fatalf("row %d has %d > %d", n, len(p), perRow)
		}
		if !slices.Equal(p, y.CoChange().Partners(n, 1000)) {
			t.Fatalf("bootstrap not deterministic at %d", n)
		}
		for _, q := range p {
			if !(q.Strength > 0 && q.Strength <= 1) || q.Node == n {
				t.Fatalf("bad partner %v of %d", q, n)
			}
		}
	}
	seeds := []graph.Scored{{Node: 1, Score: 1}, {Node: 200, Score: 0.7}, {Node: 1400, Score: 0.3}}
	a := x.Activate(seeds)
	if !slices.Equal(a, y.Activate(seeds)) {
		t.Fatal("Activate not deterministic")
	}
	for i, s := range a {
		if !graph.IsFinite(s.Score) || s.Score <= 0 || s.Score > 1 {
			t.Fatalf("score out of range: %v", s)
		}
		if i > 0 && graph.CompareScored(a[i-1], s) >= 0 {
			t.Fatalf("not ordered at %d", i)
		}
	}
}

func TestConcurrentObserveAndActivate(t *testing.T) {
	g := graphtest.PowerLaw(2000, 5000, 8)
	x := index(t, g, nil)
	var wg sync.WaitGroup
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 50; i++ {
				x.Activate([]graph.Scored{{Node: graph.NodeID(i * 7), Score: 0.8}})
			}
		}()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; i < 50; i++ {
			x.ObserveCommits([]Commit{{Time: graphtest.Now - float64(i)*hour, Nodes: []graph.NodeID{graph.NodeID(i), graph.NodeID(i + 1), graph.NodeID(i * 3)}}})
		}
	}()
	wg.Wait()
	if x.CoChange().Entries() > x.Options().CoChangeBudget {
		t.Error("budget exceeded")
	}
}

func TestOptionsValidate(t *testing.T) {
	g := build(t, false, spec{})
	for i, m := range []func(*Options){
		func(o *Options) { o.DefaultHalfLifeHours = 0 },
		func(o *Options) { o.HalfLifeHours = map[graph.NodeType]float32{graph.File: -1} },
		func(o *Options) { o.ResurrectionFloor = 2 },
		func(o *Options) { o.RecencyWeight, o.VelocityWeight = 0, 0 },
		func(o *Options) { o.BootstrapHopDecay = 0 },
		func(o *Options) { o.CoChangeRowCap = 0 },
		func(o *Options) { o.BootstrapDepth = 9 },
		func(o *Options) { o.MaxCommitGroup = 1 },
		func(o *Options) { o.JaccardSmoothing = float32(math.Inf(1)) },
	} {
		o := DefaultOptions()
		m(&o)
		if _, err := New(g, o); err == nil {
			t.Errorf("case %d: expected an error", i)
		}
	}
}

// activateBefore is ActivateAt as it was before its scratch (fresh
// slices each call): the reference the kept-scratch version must equal.
func activateBefore(x *Index, seeds []graph.Scored, now time.Time) []graph.Scored {
	if len(seeds) == 0 {
		return nil
	}
	nowS := float64(now.UnixNano()) / 1e9
	var cand []graph.Scored
	for _, s := range seeds {
		x.co.ensureAll(s.Node)
	}
	x.co.mu.RLock()
	for _, s := range seeds {
		if int(s.Node) >= len(x.last) {
			continue
		}
		r := finite.Clamp(s.Score, 0, 1)
		cand = append(cand, graph.Scored{Node: s.Node, Score: r})
		for _, p := range x.co.partners(s.Node, x.opts.PartnersPerSeed, nil) {
			cand = append(cand, graph.Scored{Node: p.Node, Score: r * p.Strength})
		}
	}
	x.co.mu.RUnlock()
	slices.SortFunc(cand, func(a, b graph.Scored) int {
		if a.Node != b.Node {
			return int(a.Node) - int(b.Node)
		}
		return graph.CompareScored(a, b)
	})
	var out []graph.Scored
	x.mu.RLock()
	for i, c := range cand {
		if i > 0 && cand[i-1].Node == c.Node {
			continue
		}
		if v := finite.Clamp(c.Score*x.score(c.Node, nowS), 0, 1); v >= x.opts.MinScore && v > 0 {
			out = append(out, graph.Scored{Node: c.Node, Score: v})
		}
	}
	x.mu.RUnlock()
	graph.SortScored(out)
	return out
}

// TestActivateScratchEqualsBefore: the kept scratch changes no score,
// order or tie, with observed and bootstrap rows, over many calls.
func TestActivateScratchEqualsBefore(t *testing.T) {
	g := graphtest.PowerLaw(1500, 4000, 6)
	x := index(t, g, nil)
	r := rand.New(rand.NewPCG(29, 27))
	var commits []Commit
	for i := range 200 {
		c := Commit{Time: graphtest.Now - float64(i)*hour}
		for range 2 + r.IntN(5) {
			c.Nodes = append(c.Nodes, graph.NodeID(r.IntN(1500)))
		}
		commits = append(commits, c)
	}
	x.ObserveCommits(commits)
	for i := range 300 {
		var seeds []graph.Scored
		for range 1 + r.IntN(40) {
			seeds = append(seeds, graph.Scored{Node: graph.NodeID(r.IntN(1500)), Score: r.Float32()})
		}
		want := activateBefore(x, seeds, x.Reference())
		if got := x.Activate(seeds); !slices.Equal(got, want) {
			t.Fatalf("call %d:\n got %v\nwant %v", i, got, want)
		}
		// AppendActivate: the same answer after what dst held.
		prefix := []graph.Scored{{Node: 7, Score: 0.5}}
		if got := x.AppendActivate(slices.Clip(prefix), seeds); !slices.Equal(got, append(prefix, want...)) {
			t.Fatalf("call %d, appended:\n got %v\nwant %v", i, got, append(prefix, want...))
		}
	}
}

// TestActivateAllocatesOnlyItsAnswer: once its rows exist and its scratch
// is warm, a D3 query allocates the slice it returns and nothing else.
func TestActivateAllocatesOnlyItsAnswer(t *testing.T) {
	g := graphtest.PowerLaw(1500, 4000, 6)
	x := index(t, g, nil)
	x.ObserveCommits([]Commit{{Time: graphtest.Now, Nodes: []graph.NodeID{1, 200, 7}}})
	seeds := []graph.Scored{{Node: 1, Score: 1}, {Node: 200, Score: 0.7}, {Node: 1400, Score: 0.3}}
	if len(x.Activate(seeds)) == 0 {
		t.Fatal("the test needs an answer")
	}
	if n := testing.AllocsPerRun(50, func() { x.Activate(seeds) }); n > 1 {
		t.Errorf("%v allocations a call, want 1 (the answer)", n)
	}
	// Into a buffer with room for the answer: nothing at all.
	buf := make([]graph.Scored, 0, 64)
	if n := testing.AllocsPerRun(50, func() { buf = x.AppendActivate(buf[:0], seeds) }); n > 0 {
		t.Errorf("AppendActivate: %v allocations a call into a buffer with room, want 0", n)
	}
}
