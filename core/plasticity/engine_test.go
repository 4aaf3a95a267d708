package plasticity

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/m1nd-go/m1nd/core/graph"
)

func TestParamsValidate(t *testing.T) {
	if err := DefaultParams().Validate(); err != nil {
		t.Fatalf("defaults invalid: %v", err)
	}
	bad := []func(*Params){
		func(p *Params) { p.LearningRate = 0 },
		func(p *Params) { p.LearningRate = float32(math.NaN()) },
		func(p *Params) { p.DecayRate = 1.5 },
		func(p *Params) { p.LTPThreshold = 0 },
		func(p *Params) { p.LTDPenalty = -1 },
		func(p *Params) { p.HomeostaticCeiling = 0 },
		func(p *Params) { p.WeightFloor = 0 },
		func(p *Params) { p.WeightCap = 0.01 },
		func(p *Params) { p.ActiveThreshold = 1 },
		func(p *Params) { p.MemoryCapacity = 0 },
	}
	for i, f := range bad {
		p := DefaultParams()
		f(&p)
		if _, err := New(p); err == nil {
			t.Errorf("case %d: New accepted invalid params %+v", i, p)
		}
	}
}

func TestHebbianStrengthenAndDecay(t *testing.T) {
	g := build(t, []string{"a", "b", "c", "d"}, []edgeSpec{{"a", "b", "", 1}, {"c", "d", "", 1}, {"b", "c", "", 1}})
	e := newEngine(t)
	st, err := e.Update(g, Query{Text: "a b", Seeds: []graph.NodeID{id(t, g, "a")}, Activated: scored(t, g, "a", 0.8, "b", 0.8)})
	if err != nil {
		t.Fatal(err)
	}
	if w := weight(t, g, "a", "b"); !near(w, 1+0.08*0.8*0.8) {
		t.Errorf("a->b = %v, want %v", w, 1+0.08*0.8*0.8)
	}
	// b is active, so b->c is not decayed (its source fired) nor strengthened (c did not).
	if w := weight(t, g, "b", "c"); w != 1 {
		t.Errorf("b->c = %v, want 1 (source active, target inactive)", w)
	}
	// c->d is far from the query: idle, not decayed.
	if w := weight(t, g, "c", "d"); w != 1 {
		t.Errorf("c->d = %v, want 1 (idle edges keep their weight)", w)
	}
	if st.EdgesStrengthened != 1 || st.EdgesDecayed != 0 {
		t.Errorf("stats = %+v, want 1 strengthened, 0 decayed", st)
	}
	// An edge from a silent node into an activated one decays.
	st, err = e.Update(g, Query{Activated: scored(t, g, "d", 0.9)})
	if err != nil {
		t.Fatal(err)
	}
	if w := weight(t, g, "c", "d"); !near(w, 0.995) || st.EdgesDecayed != 1 {
		t.Errorf("c->d = %v (stats %+v), want 0.995 and 1 decayed", w, st)
	}
	if fc := g.Nodes().Plasticity[id(t, g, "a")].FireCount; fc != 1 {
		t.Errorf("fire count of a = %d, want 1", fc)
	}
	if fc := g.Nodes().Plasticity[id(t, g, "c")].FireCount; fc != 0 {
		t.Errorf("fire count of c = %d, want 0", fc)
	}
}

func TestCapAndFloorHold(t *testing.T) {
	g := build(t, []string{"a", "b", "x", "y", "p", "q"}, []edgeSpec{
		{"a", "b", "", 2.95}, {"x", "y", "", 0.0502}, {"p", "q", "", 0.01},
	})
	e := newEngine(t)
	for i := 0; i < 200; i++ {
		if _, err := e.Update(g, Query{Activated: scored(t, g, "a", 1.0, "b", 1.0, "y", 1.0, "q", 1.0)}); err != nil {
			t.Fatal(err)
		}
		if w := weight(t, g, "a", "b"); w > graph.WeightCap {
			t.Fatalf("iteration %d: a->b = %v above the cap", i, w)
		}
		if w := weight(t, g, "x", "y"); w < graph.WeightFloor {
			t.Fatalf("iteration %d: x->y = %v below the floor", i, w)
		}
	}
	if w := weight(t, g, "a", "b"); w != graph.WeightCap {
		t.Errorf("a->b = %v, want exactly the cap %v", w, graph.WeightCap)
	}
	if w := weight(t, g, "x", "y"); w != graph.WeightFloor {
		t.Errorf("x->y = %v, want exactly the floor %v", w, graph.WeightFloor)
	}
	if w := weight(t, g, "p", "q"); w != 0.01 {
		t.Errorf("p->q = %v: decay must never raise a weight that started below the floor", w)
	}
}

func TestLTPFiresOnceAfterFiveConsecutive(t *testing.T) {
	g := build(t, []string{"a", "b"}, []edgeSpec{{"a", "b", "", 1}})
	e := newEngine(t)
	want := float32(1)
	ltp := 0
	for i := 1; i <= 10; i++ {
		st, err := e.Update(g, Query{Activated: scored(t, g, "a", 1.0, "b", 1.0)})
		if err != nil {
			t.Fatal(err)
		}
		want = min(want+0.08, 3)
		if i == 5 {
			want = min(want+0.15, 3)
			if st.LTPEvents != 1 {
				t.Errorf("update 5: ltp_events = %d, want 1", st.LTPEvents)
			}
		}
		ltp += st.LTPEvents
		if w := weight(t, g, "a", "b"); !near(w, want) {
			t.Errorf("update %d: a->b = %v, want %v", i, w, want)
		}
	}
	if ltp != 1 {
		t.Errorf("LTP fired %d times over 10 updates, want exactly once", ltp)
	}
	if !g.EdgePlasticity().LTP[edge(t, g, "a", "b")] {
		t.Error("LTP flag not set")
	}
}

func TestLTPNeedsConsecutiveStrengthens(t *testing.T) {
	g := build(t, []string{"a", "b", "c"}, []edgeSpec{{"a", "b", "", 1}, {"c", "b", "", 1}})
	e := newEngine(t)
	ab := edge(t, g, "a", "b")
	run := func(n int, act []graph.Scored) int {
		total := 0
		for i := 0; i < n; i++ {
			st, err := e.Update(g, Query{Activated: act})
			if err != nil {
				t.Fatal(err)
			}
			total += st.LTPEvents
		}
		return total
	}
	ab4 := run(4, scored(t, g, "a", 1.0, "b", 1.0))
	// b fires without a: a->b led into an active node from an inactive one.
	run(1, scored(t, g, "c", 1.0, "b", 1.0))
	if s, w := g.EdgePlasticity().Strengthen[ab], g.EdgePlasticity().Weaken[ab]; s != 0 || w != 1 {
		t.Fatalf("after a weaken event: strengthen=%d weaken=%d, want 0 and 1", s, w)
	}
	ab4 += run(4, scored(t, g, "a", 1.0, "b", 1.0))
	if ab4 != 0 || g.EdgePlasticity().LTP[ab] {
		t.Fatalf("LTP fired after 4+4 strengthens separated by a weaken event")
	}
	if n := run(1, scored(t, g, "a", 1.0, "b", 1.0)); n != 1 {
		t.Fatalf("5th consecutive strengthen gave %d LTP events, want 1", n)
	}
}

func TestLTDFiresOnceAndIdleEdgesAreNotWeakened(t *testing.T) {
	g := build(t, []string{"s", "t", "x", "y"}, []edgeSpec{{"s", "t", "", 1}, {"x", "y", "", 1}})
	e := newEngine(t)
	st0 := edge(t, g, "s", "t")
	want := float32(1)
	ltd := 0
	for i := 1; i <= 8; i++ {
		st, err := e.Update(g, Query{Activated: scored(t, g, "t", 0.9)})
		if err != nil {
			t.Fatal(err)
		}
		want = max(want*0.995, 0.05)
		if i == 5 {
			want = max(want-0.15, 0.05)
		}
		ltd += st.LTDEvents
		if w := g.Weight(st0); !near(w, want) {
			t.Errorf("update %d: s->t = %v, want %v", i, w, want)
		}
	}
	if ltd != 1 || !g.EdgePlasticity().LTD[st0] {
		t.Errorf("LTD fired %d times (flag %v), want exactly once", ltd, g.EdgePlasticity().LTD[st0])
	}
	xy := edge(t, g, "x", "y")
	if w := g.EdgePlasticity().Weaken[xy]; w != 0 {
		t.Errorf("idle edge x->y has weaken count %d, want 0", w)
	}
	if w := g.Weight(xy); w != 1 {
		t.Errorf("idle edge x->y = %v, want 1 (far from every query: untouched)", w)
	}
}

func TestHomeostasisTrimsLearnedGains(t *testing.T) {
	// h has four importers at weight 1 (sum 4, below the ceiling 5) and hub
	// ten (sum 10, above it at ingest already).
	names := []string{"h", "hub"}
	var edges []edgeSpec
	for i := 0; i < 10; i++ {
		n := "src" + string(rune('a'+i))
		names = append(names, n)
		if i < 4 {
			edges = append(edges, edgeSpec{n, "h", "", 1})
		}
		edges = append(edges, edgeSpec{n, "hub", "", 1})
	}
	g := build(t, names, edges)
	e := newEngine(t)
	in := func(target string) (sum float32) {
		lo, hi := g.InRange(id(t, g, target))
		for pos := lo; pos < hi; pos++ {
			sum += g.Weight(g.InEdge(pos))
		}
		return sum
	}
	// Co-activating the four importers with h raises each edge by 0.08 per
	// query: after four queries the sum (5.28) passes the ceiling.
	var trimmed int
	for range 4 {
		st, err := e.Update(g, Query{Activated: scored(t, g, "h", 1.0, "srca", 1.0, "srcb", 1.0, "srcc", 1.0, "srcd", 1.0)})
		if err != nil {
			t.Fatal(err)
		}
		trimmed += st.HomeostaticNodes
	}
	if trimmed != 1 {
		t.Errorf("homeostatic_nodes over four queries = %d, want 1 (the fourth)", trimmed)
	}
	if s := in("h"); math.Abs(float64(s-5)) > 1e-4 {
		t.Errorf("incoming sum of h = %v, want the ceiling 5.0", s)
	}
	for _, n := range []string{"srca", "srcb", "srcc", "srcd"} {
		if w := weight(t, g, n, "h"); !near(w, 1.25) {
			t.Errorf("%s->h = %v, want 1.25 (gains trimmed equally)", n, w)
		}
	}
	// hub: its ingest sum (10) is its limit, and nothing is taken from
	// ingest weights; only the learned gain of srca->hub is trimmed, and
	// only as far as the edges from silent importers decayed to make room.
	if _, err := e.Update(g, Query{Activated: scored(t, g, "hub", 1.0, "srca", 1.0)}); err != nil {
		t.Fatal(err)
	}
	if s := in("hub"); s > 10+1e-4 {
		t.Errorf("incoming sum of hub = %v, want at most its ingest sum 10", s)
	}
	for _, n := range []string{"srcb", "srcj"} {
		if w := weight(t, g, n, "hub"); !near(w, 0.995) {
			t.Errorf("%s->hub = %v, want 0.995 (decayed once, never scaled)", n, w)
		}
	}
	if w := weight(t, g, "srca", "hub"); w <= 1 || w > 1.08 {
		t.Errorf("srca->hub = %v, want a gain above 1, trimmed below 1.08", w)
	}
}

// One activation writes at most MaxEdgesPerQuery edges per step and says
// how many it left alone.
func TestUpdateIsBounded(t *testing.T) {
	names := []string{"t"}
	var edges []edgeSpec
	for i := 0; i < 40; i++ {
		n := fmt.Sprintf("s%02d", i)
		names = append(names, n)
		edges = append(edges, edgeSpec{n, "t", "", 1})
	}
	g := build(t, names, edges)
	p := DefaultParams()
	p.MaxEdgesPerQuery = 8
	e, err := New(p)
	if err != nil {
		t.Fatal(err)
	}
	act := scored(t, g, "t", 1.0)
	for i := 0; i < 12; i++ {
		act = append(act, graph.Scored{Node: id(t, g, fmt.Sprintf("s%02d", i)), Score: 1 - float32(i)/100})
	}
	st, err := e.Update(g, Query{Activated: act})
	if err != nil {
		t.Fatal(err)
	}
	// 12 co-activated edges (8 written), 28 from silent sources (8 written).
	if st.EdgesStrengthened != 8 || st.EdgesDecayed != 8 || st.EdgesCapped != 4+20 {
		t.Errorf("stats = %+v, want 8 strengthened, 8 decayed, 24 capped", st)
	}
	// The strongest co-activations were the ones strengthened.
	if w := weight(t, g, "s00", "t"); w <= 1 {
		t.Errorf("s00->t = %v, want strengthened", w)
	}
	if w := weight(t, g, "s11", "t"); w != 1 {
		t.Errorf("s11->t = %v, want untouched (beyond the cap)", w)
	}
	changed := 0
	for i := 0; i < g.NumEdges(); i++ {
		if g.Weight(graph.EdgeIdx(i)) != 1 {
			changed++
		}
	}
	if changed != 16 {
		t.Errorf("%d weights changed, want 16", changed)
	}
}

func TestUpdateRejectsBadInputAndChangesNothing(t *testing.T) {
	g := build(t, []string{"a", "b"}, []edgeSpec{{"a", "b", "", 1}})
	e := newEngine(t)
	_, err := e.Update(g, Query{Activated: []graph.Scored{{Node: 0, Score: 1}, {Node: 99, Score: 1}}})
	if !errors.Is(err, ErrBadNode) {
		t.Fatalf("err = %v, want ErrBadNode", err)
	}
	if w := weight(t, g, "a", "b"); w != 1 {
		t.Errorf("weight changed to %v by a rejected update", w)
	}
	if _, err := e.Update(graph.New(), Query{}); err == nil {
		t.Error("Update accepted an unfinalized graph")
	}
	// Non-finite activations are treated as zero, never written.
	if _, err := e.Update(g, Query{Activated: []graph.Scored{{Node: 0, Score: float32(math.NaN())}, {Node: 1, Score: float32(math.Inf(1))}}}); err != nil {
		t.Fatal(err)
	}
	if w := weight(t, g, "a", "b"); !graph.IsFinite(w) || w > 1 {
		t.Errorf("weight %v after NaN/Inf activations", w)
	}
}

func TestQueryMemoryRingEvicts(t *testing.T) {
	p := DefaultParams()
	p.MemoryCapacity = 3
	e, err := New(p)
	if err != nil {
		t.Fatal(err)
	}
	g := build(t, []string{"a", "b", "c", "d", "e"}, nil)
	q := func(seeds []string, act ...any) {
		var s []graph.NodeID
		for _, n := range seeds {
			s = append(s, id(t, g, n))
		}
		if _, err := e.Update(g, Query{Seeds: s, Activated: scored(t, g, act...)}); err != nil {
			t.Fatal(err)
		}
	}
	q([]string{"a", "b"}, "a", 1.0, "c", 0.5) // evicted below
	q([]string{"a", "b"}, "a", 1.0, "d", 0.5)
	q([]string{"c"}, "c", 1.0)
	if n := e.NodeFrequency("n:c"); n != 2 {
		t.Errorf("frequency of c = %d, want 2", n)
	}
	if bg := e.TopBigrams(5); len(bg) != 1 || bg[0] != (Bigram{A: "n:a", B: "n:b", Count: 2}) {
		t.Errorf("bigrams = %+v, want a-b ×2", bg)
	}
	q([]string{"e"}, "e", 1.0) // evicts the first record
	q([]string{"e"}, "e", 1.0) // evicts the second
	if n := e.NodeFrequency("n:c"); n != 1 {
		t.Errorf("frequency of c after eviction = %d, want 1", n)
	}
	if n := e.NodeFrequency("n:d"); n != 0 {
		t.Errorf("frequency of d after eviction = %d, want 0", n)
	}
	if bg := e.TopBigrams(5); len(bg) != 0 {
		t.Errorf("bigrams after eviction = %+v, want none", bg)
	}
	st := e.MemoryStats()
	if st.Records != 3 || st.Capacity != 3 || st.DistinctNodes != 2 {
		t.Errorf("memory stats = %+v, want 3 records over nodes c, e", st)
	}
	if pr, _ := e.Priming(g, []graph.NodeID{id(t, g, "a")}); len(pr) != 0 {
		t.Errorf("priming for evicted seed a = %v, want none", pr)
	}
}

func TestPrimingFromSharedSeeds(t *testing.T) {
	g := build(t, []string{"auth", "session", "token", "billing", "invoice", "x"}, nil)
	e := newEngine(t)
	ids := func(names ...string) []graph.NodeID {
		var out []graph.NodeID
		for _, n := range names {
			out = append(out, id(t, g, n))
		}
		return out
	}
	e.Update(g, Query{Text: "auth session", Seeds: ids("auth", "session"), Activated: scored(t, g, "auth", 1.0, "session", 0.9, "token", 0.6)})
	e.Update(g, Query{Text: "billing", Seeds: ids("billing"), Activated: scored(t, g, "billing", 1.0, "invoice", 0.7)})
	st, err := e.Update(g, Query{Text: "auth", Seeds: ids("auth"), Activated: scored(t, g, "auth", 1.0)})
	if err != nil {
		t.Fatal(err)
	}
	if st.PrimingNodes != 2 {
		t.Errorf("priming_nodes = %d, want 2 (session, token)", st.PrimingNodes)
	}
	pr, err := e.Priming(g, ids("auth"))
	if err != nil {
		t.Fatal(err)
	}
	// Records sharing "auth": the first (jaccard 1/2) and the third (jaccard 1).
	// token: 0.5·0.6 / 1.5 = 0.2; session: 0.5·0.9 / 1.5 = 0.3.
	if len(pr) != 2 || pr[0].Node != id(t, g, "session") || pr[1].Node != id(t, g, "token") {
		t.Fatalf("priming = %+v, want session then token", pr)
	}
	if !near(pr[0].Score, 0.3) || !near(pr[1].Score, 0.2) {
		t.Errorf("priming scores = %v, %v, want 0.3, 0.2", pr[0].Score, pr[1].Score)
	}
	if pr, _ := e.Priming(g, ids("x")); len(pr) != 0 {
		t.Errorf("priming for an unseen seed = %v, want none", pr)
	}
}

func TestWarmupBoostsDecay(t *testing.T) {
	g := build(t, []string{"a", "b", "c"}, nil)
	w, err := NewWarmup(DefaultWarmupParams())
	if err != nil {
		t.Fatal(err)
	}
	now := time.Unix(1_700_000_000, 0)
	w.SetClock(func() time.Time { return now })
	applied, err := w.Prime(g, scored(t, g, "a", 0.8, "b", 0.4), 0.2)
	if err != nil {
		t.Fatal(err)
	}
	if len(applied) != 2 || !near(applied[0].Score, 0.2) || !near(applied[1].Score, 0.1) {
		t.Fatalf("applied = %+v, want a 0.2, b 0.1", applied)
	}
	w.Tick()
	b := w.Boosts(g)
	if len(b) != 2 || !near(b[0].Score, 0.2*0.85) {
		t.Fatalf("after one query: %+v, want a at 0.17", b)
	}
	now = now.Add(15 * time.Minute)
	if b := w.Boosts(g); !near(b[0].Score, 0.2*0.85/2) {
		t.Errorf("after one half-life: %v, want %v", b[0].Score, 0.2*0.85/2)
	}
	for i := 0; i < 40; i++ {
		w.Tick()
	}
	if b := w.Boosts(g); len(b) != 0 || w.Len() != 0 {
		t.Errorf("boosts did not expire: %+v", b)
	}
	if _, err := w.Prime(g, nil, 2); err == nil {
		t.Error("Prime accepted strength 2")
	}
}

// Query memory exported from one engine and imported into a fresh one
// primes the same nodes; invalid records are refused whole.
func TestQueryMemoryExportImport(t *testing.T) {
	g := build(t, []string{"auth", "session", "token", "billing"}, nil)
	ids := func(names ...string) []graph.NodeID {
		var out []graph.NodeID
		for _, n := range names {
			out = append(out, id(t, g, n))
		}
		return out
	}
	e := newEngine(t)
	e.Update(g, Query{Text: "auth session", Seeds: ids("auth", "session"), Activated: scored(t, g, "auth", 1.0, "session", 0.9, "token", 0.6)})
	e.Update(g, Query{Text: "billing", Seeds: ids("billing"), Activated: scored(t, g, "billing", 1.0)})
	recs := e.ExportQueryMemory()
	if len(recs) != 2 || recs[0].Query != "auth session" {
		t.Fatalf("exported %+v", recs)
	}
	f := newEngine(t)
	if err := f.ImportQueryMemory(recs); err != nil {
		t.Fatal(err)
	}
	want, _ := e.Priming(g, ids("auth"))
	got, _ := f.Priming(g, ids("auth"))
	if len(got) == 0 || len(got) != len(want) || got[0] != want[0] {
		t.Fatalf("priming after import %+v, want %+v", got, want)
	}
	bad := []QueryRecord{{Query: "q", Nodes: []ScoredNode{{NodeID: "auth", Score: float32(math.Inf(1))}}}}
	if err := f.ImportQueryMemory(bad); err == nil || f.MemoryStats().Records != 2 {
		t.Fatalf("invalid record: err %v, %d records", err, f.MemoryStats().Records)
	}
}

// Renamed nodes are still recognised by both memories.
func TestRenameNodes(t *testing.T) {
	g := build(t, []string{"auth", "session"}, nil)
	e := newEngine(t)
	e.Update(g, Query{Text: "auth", Seeds: []graph.NodeID{id(t, g, "auth")}, Activated: scored(t, g, "auth", 1.0, "session", 0.5)})
	if _, err := e.Learn(g, LearnRequest{Query: "auth", Feedback: Correct, Nodes: []graph.NodeID{id(t, g, "session")}, Strength: 1}); err != nil {
		t.Fatal(err)
	}
	e.RenameNodes(func(s string) string { return "ns::" + s })
	for _, r := range e.ExportQueryMemory() {
		for _, n := range r.Nodes {
			if !strings.HasPrefix(n.NodeID, "ns::") {
				t.Fatalf("query memory keeps %q", n.NodeID)
			}
		}
	}
	fb := e.ExportFeedback()
	if len(fb) != 1 || !strings.HasPrefix(fb[0].Nodes[0].NodeID, "ns::") {
		t.Fatalf("feedback memory after rename: %+v", fb)
	}
}
