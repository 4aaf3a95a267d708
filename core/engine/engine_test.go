package engine

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/graph/graphtest"
	"github.com/m1nd-go/m1nd/core/temporal"
)

var clock = func() time.Time { return time.Unix(int64(graphtest.Now), 0) }

func newEngine(t testing.TB, g *graph.Graph, mod func(*Options)) *Engine {
	t.Helper()
	o := DefaultOptions()
	o.Now = clock
	if mod != nil {
		mod(&o)
	}
	e, err := New(g, o)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func activate(t testing.TB, e *Engine, q Query) *Result {
	t.Helper()
	r, err := e.Activate(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func byLabel(g *graph.Graph, r *Result) map[string]Node {
	m := map[string]Node{}
	for _, n := range r.Activated {
		m[g.Label(n.ID)] = n
	}
	return m
}

// The worked example through the whole facade: with the cascade's own
// relevance as seed scores (no semantic re-rank), the structural dimension
// carries exactly the D1 values of docs/design.md#activation-pipeline, and
// auth.py leads the ranking.
func TestWorkedExample(t *testing.T) {
	g, _ := graphtest.Backend()
	e := newEngine(t, g, func(o *Options) { o.Seed.SemanticWeight = 0 })
	r := activate(t, e, Query{Text: "authentication", NoLearn: true, Dimensions: []graph.Dimension{graph.Structural}})
	want := map[string]float32{
		"auth.py": 0.9, "session.py": 0.85, "user_model.py": 0.495, "database.py": 0.495,
		"routes.py": 0.495, "main.py": 0.495, "middleware.py": 0.4675,
	}
	got := map[string]float32{}
	for l, n := range byLabel(g, r) {
		got[l] = n.Dims[graph.Structural]
	}
	if diff := cmp.Diff(want, got, cmpopts.EquateApprox(0, 1e-6)); diff != "" {
		t.Errorf("D1 (-want +got):\n%s", diff)
	}
	if r.Weights != [4]float32{1, 0, 0, 0} {
		t.Errorf("structural-only weights = %v", r.Weights)
	}

	// All four dimensions and XLR: auth.py still first, every score
	// finite, and the resonance bookkeeping consistent.
	r = activate(t, e, Query{Text: "authentication", NoLearn: true, XLR: true})
	if len(r.Activated) == 0 || g.Label(r.Activated[0].ID) != "auth.py" {
		t.Fatalf("top result %v", r.Activated)
	}
	if !r.XLR {
		t.Error("XLR did not run")
	}
	for _, n := range r.Activated {
		if !graph.IsFinite(n.Activation) || n.Activation < 0 || n.Gate <= 0 || n.Gate > 1 {
			t.Errorf("%s: %+v", g.Label(n.ID), n)
		}
	}
	top := r.Activated[0]
	if top.DimCount != 4 {
		t.Errorf("auth.py should fire in all four dimensions: %+v", top)
	}
}

func TestDeterminismAndNoLearn(t *testing.T) {
	g := graphtest.PowerLaw(3000, 7800, 21)
	e := newEngine(t, g, nil)
	weights := func() []float32 {
		w := make([]float32, g.NumEdges())
		for i := range w {
			w[i] = g.Weight(graph.EdgeIdx(i))
		}
		return w
	}
	before := weights()
	q := Query{Text: "auth session handler", XLR: true, NoLearn: true, TopK: 25}
	a, b := activate(t, e, q), activate(t, e, q)
	if !cmp.Equal(a, b, cmpopts.IgnoreFields(Result{}, "Timings", "Elapsed")) {
		t.Fatal("the same query twice gave different results")
	}
	if len(a.Activated) != 25 {
		t.Fatalf("got %d results, want 25", len(a.Activated))
	}
	if !slices.Equal(before, weights()) {
		t.Error("a NoLearn query changed weights")
	}
	// Learning changes weights, a bounded neighbourhood of them, and
	// reports exactly that.
	q.NoLearn = false
	r := activate(t, e, q)
	if !r.Learned || r.Plasticity.EdgesStrengthened == 0 || slices.Equal(before, weights()) {
		t.Errorf("learning query: learned=%v stats=%+v", r.Learned, r.Plasticity)
	}
	changed := 0
	for i, w := range weights() {
		if w != before[i] {
			changed++
		}
	}
	st := r.Plasticity
	if limit := 2 * e.Plasticity().Params().MaxEdgesPerQuery; changed > st.EdgesStrengthened+st.EdgesDecayed || changed > limit {
		t.Errorf("one read changed %d of %d weights (stats %+v), want at most strengthened+decayed and %d", changed, g.NumEdges(), st, limit)
	}
}

func TestProperties(t *testing.T) {
	g := graphtest.PowerLaw(4000, 10400, 22)
	e := newEngine(t, g, nil)
	for _, text := range []string{"auth", "cache validate encode", "AuthUserService", "zzzzqqq", "", "src/auth_token_8.py", "login"} {
		for _, k := range []int{1, 5, 20, 100} {
			r := activate(t, e, Query{Text: text, TopK: k, XLR: k%2 == 0})
			if len(r.Activated) > k {
				t.Fatalf("%q: %d results > top_k %d", text, len(r.Activated), k)
			}
			var wsum float32
			for _, w := range r.Weights {
				wsum += w
			}
			if len(r.Activated) > 0 && math.Abs(float64(wsum-1)) > 1e-5 {
				t.Fatalf("%q: effective weights %v do not sum to 1", text, r.Weights)
			}
			for i, n := range r.Activated {
				if !graph.IsFinite(n.Activation) || n.Activation < 0 || n.Activation > 1 {
					t.Fatalf("%q: activation %v out of range", text, n.Activation)
				}
				for _, d := range n.Dims {
					if !graph.IsFinite(d) || d < 0 || d > 1 {
						t.Fatalf("%q: dimension score %v", text, n.Dims)
					}
				}
				if i > 0 && graph.CompareScored(graph.Scored{Node: r.Activated[i-1].ID, Score: r.Activated[i-1].Activation}, graph.Scored{Node: n.ID, Score: n.Activation}) >= 0 {
					t.Fatalf("%q: results not ordered at %d", text, i)
				}
			}
			if len(r.Seeds) > 200 {
				t.Fatalf("%q: %d seeds", text, len(r.Seeds))
			}
		}
	}
}

func TestNoMatchAndErrors(t *testing.T) {
	g, _ := graphtest.Backend()
	e := newEngine(t, g, nil)
	r := activate(t, e, Query{Text: "qqqqzzzz"})
	if len(r.Seeds) != 0 || len(r.Activated) != 0 || r.Learned {
		t.Errorf("nothing matches, yet %+v", r)
	}
	for _, q := range []Query{{Text: "auth", TopK: -1}, {Text: "auth", TopK: MaxTopK + 1}, {Text: "auth", Dimensions: []graph.Dimension{7}}, {Text: "auth", MaxSeeds: -1}} {
		if _, err := e.Activate(context.Background(), q); err == nil {
			t.Errorf("%+v: expected an error", q)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := e.Activate(ctx, Query{Text: "auth"}); err == nil {
		t.Error("a cancelled context must fail")
	}
	empty := graph.New()
	empty.Finalize()
	ee, err := New(empty, DefaultOptions())
	if err != nil {
		t.Fatalf("an empty finalized graph: %v", err)
	}
	if r := activate(t, ee, Query{Text: "auth", XLR: true}); len(r.Activated) != 0 {
		t.Errorf("empty graph activated %v", r.Activated)
	}
	unfinal := graph.New()
	if _, err := unfinal.AddNode(graph.Node{ExternalID: "x"}); err != nil {
		t.Fatal(err)
	}
	if _, err := New(unfinal, DefaultOptions()); err == nil {
		t.Error("an unfinalized graph must be refused")
	}
	bad := DefaultOptions()
	bad.Activation.Decay = 2
	if _, err := New(g, bad); err == nil {
		t.Error("invalid options must be refused")
	}
	if d, err := ParseDimensions([]string{"Structural", "causal"}); err != nil || !slices.Equal(d, []graph.Dimension{graph.Structural, graph.Causal}) {
		t.Errorf("ParseDimensions = %v, %v", d, err)
	}
	if _, err := ParseDimensions([]string{"spatial"}); err == nil {
		t.Error("unknown dimension accepted")
	}
}

func TestGenerationChange(t *testing.T) {
	g, _ := graphtest.Backend()
	e := newEngine(t, g, nil)
	gen := e.Generation()
	e.ObserveCommits([]temporal.Commit{{Time: graphtest.Now - 3600, Nodes: []graph.NodeID{1, 4}}})
	id, err := g.AddNode(graph.Node{ExternalID: "file::oauth_provider.py", Label: "oauth_provider.py", Type: graph.File, LastModified: graphtest.Now})
	if err != nil {
		t.Fatal(err)
	}
	if err := g.AddEdge(graph.Edge{Source: id, Target: 1, Relation: "imports", Weight: 1, CausalStrength: 0.6}); err != nil {
		t.Fatal(err)
	}
	g.Finalize()
	r := activate(t, e, Query{Text: "oauth", NoLearn: true})
	if e.Generation() == gen || r.Generation != g.Generation() {
		t.Fatalf("engine did not notice the new generation (%d → %d)", gen, e.Generation())
	}
	if len(r.Seeds) == 0 || r.Seeds[0].Node != id {
		t.Errorf("the new node is not found: %v", r.Seeds)
	}
	// Observations made on the old generation carry over.
	if s := e.Temporal().CoChange().Strength(1, 4); s < 0.3 {
		t.Errorf("observed co-change lost across generations: %v", s)
	}
}

func TestObserveFeedsTemporal(t *testing.T) {
	g, id := graphtest.Backend()
	e := newEngine(t, g, nil)
	q := Query{Text: "authentication", NoLearn: true, Dimensions: []graph.Dimension{graph.Temporal}, TopK: 10}
	before := byLabel(g, activate(t, e, q))["main.py"].Dims[graph.Temporal]
	var groups [][]string
	for range 5 {
		groups = append(groups, []string{"file::auth.py", "main.py", "file::gone.py"})
	}
	if _, unknown, err := e.ObserveExternal(groups); err != nil || unknown != 5 {
		t.Fatalf("ObserveExternal: unknown=%d err=%v", unknown, err)
	}
	if s := e.Temporal().CoChange().Strength(id["auth.py"], id["main.py"]); s < 0.5 {
		t.Errorf("co-change strength after five joint commits = %v", s)
	}
	after := byLabel(g, activate(t, e, q))["main.py"].Dims[graph.Temporal]
	if !(after > before) {
		t.Errorf("five joint commits did not raise main.py's temporal score: %v → %v", before, after)
	}
}

func TestWarmupAndAnalyses(t *testing.T) {
	g, _ := graphtest.Backend()
	e := newEngine(t, g, nil)
	_, boosts, err := e.WarmupTask(context.Background(), Query{Text: "database storage", NoLearn: true}, 0.2)
	if err != nil || len(boosts) == 0 {
		t.Fatalf("warmup: %v %v", boosts, err)
	}
	r := activate(t, e, Query{Text: "authentication", NoLearn: true, GhostEdges: true, StructuralHoles: true})
	boosted := false
	for _, n := range r.Activated {
		boosted = boosted || n.Boost > 0
	}
	if !boosted {
		t.Error("warmup boosts did not reach the next query")
	}
	if r.Holes == nil {
		t.Error("structural holes were requested")
	}
}

// Hub modules (config, logger, utils, database) serve two subsystems. A
// query about payments activates the hubs structurally; XLR's cold channel
// from the other subsystem cancels them, so payment nodes gain rank.
func TestXLRDemotesHubs(t *testing.T) {
	g := graph.New()
	add := func(l string) graph.NodeID {
		id, err := g.AddNode(graph.Node{ExternalID: l, Label: l, Type: graph.File})
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	edge := func(a, b graph.NodeID) {
		if err := g.AddEdge(graph.Edge{Source: a, Target: b, Relation: "imports", Weight: 1, CausalStrength: 0.6}); err != nil {
			t.Fatal(err)
		}
	}
	hubs := []graph.NodeID{add("config.py"), add("logger.py"), add("utils.py"), add("database.py")}
	// 20 files per subsystem make the hubs real hubs (degree 40 against
	// an average of about 9).
	const k = 20
	var pay, chat []graph.NodeID
	for i := 0; i < k; i++ {
		pay = append(pay, add(fmt.Sprintf("payment_%d.py", i)))
		chat = append(chat, add(fmt.Sprintf("chat_%d.py", i)))
	}
	for i := 0; i < k; i++ {
		edge(pay[i], pay[(i+1)%k])
		edge(chat[i], chat[(i+1)%k])
		for _, h := range hubs {
			edge(pay[i], h)
			edge(chat[i], h)
		}
	}
	g.Finalize()
	e := newEngine(t, g, nil)
	q := Query{Text: "payment_0", NoLearn: true, TopK: 30, Dimensions: []graph.Dimension{graph.Structural}}
	rank := func(r *Result) (hubBest, payWorst int) {
		hubBest, payWorst = 1<<30, -1
		for i, n := range r.Activated {
			if slices.Contains(hubs, n.ID) {
				hubBest = min(hubBest, i)
			}
			if slices.Contains(pay, n.ID) {
				payWorst = max(payWorst, i)
			}
		}
		return
	}
	plain := activate(t, e, q)
	q.XLR = true
	withXLR := activate(t, e, q)
	if !withXLR.XLR || len(withXLR.AntiSeeds) == 0 {
		t.Fatalf("XLR did not run with anti-seeds: %+v", withXLR)
	}
	ph, pp := rank(plain)
	t.Logf("plain: best hub %d worst payment %d", ph, pp)
	xh, xp := rank(withXLR)
	t.Logf("xlr: best hub %d worst payment %d anti-seeds %v", xh, xp, withXLR.AntiSeeds)
	if !(xh > ph) || xp > xh {
		t.Errorf("hubs not demoted: best hub rank %d → %d, worst payment rank %d", ph, xh, xp)
	}
}

func TestConcurrentActivateWithWeightWrites(t *testing.T) {
	g := graphtest.PowerLaw(3000, 7800, 23)
	e := newEngine(t, g, nil)
	stop := make(chan struct{})
	var writer sync.WaitGroup
	writer.Add(1)
	go func() {
		defer writer.Done()
		i := 0
		for {
			select {
			case <-stop:
				return
			default:
			}
			i++
			_ = g.AtomicWriteWeight(graph.EdgeIdx((i*7919)%g.NumEdges()), 0.05+float32(i%29)/10)
		}
	}()
	queries := []string{"auth", "session token", "cache", "worker queue", "ParseSchema"}
	var wg sync.WaitGroup
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 6; i++ {
				r, err := e.Activate(context.Background(), Query{Text: queries[(w+i)%len(queries)], XLR: i%2 == 0, NoLearn: w%2 == 0})
				if err != nil {
					t.Error(err)
					return
				}
				for _, n := range r.Activated {
					if !graph.IsFinite(n.Activation) {
						t.Error("non-finite activation")
					}
				}
			}
		}()
	}
	wg.Wait()
	close(stop)
	writer.Wait()
}

// A scoped query lists only the nodes its scope keeps, as many as top_k
// when there are that many, in the unscoped order.
func TestKeepScopesTheResult(t *testing.T) {
	g := graphtest.PowerLaw(3000, 7800, 21)
	e := newEngine(t, g, nil)
	q := Query{Text: "auth session handler", XLR: true, NoLearn: true, TopK: 200}
	all := activate(t, e, q)
	even := func(n graph.NodeID) bool { return n%2 == 0 }
	var want []graph.NodeID
	for _, n := range all.Activated {
		if even(n.ID) && len(want) < 10 {
			want = append(want, n.ID)
		}
	}
	q.TopK, q.Keep = 10, even
	var got []graph.NodeID
	for _, n := range activate(t, e, q).Activated {
		got = append(got, n.ID)
	}
	if len(want) < 10 || !slices.Equal(got, want) {
		t.Fatalf("scoped: %v, want the first 10 even nodes of the unscoped answer %v", got, want)
	}
}

// Weight reorders the candidates before the top_k cut: a node just outside
// the top moves in, its activation stays in [0, 1], and a factor that is
// not a finite non-negative number counts as 1.
func TestWeightRanksBeforeTheCut(t *testing.T) {
	g := graphtest.PowerLaw(3000, 7800, 21)
	e := newEngine(t, g, nil)
	ids := func(r *Result) []graph.NodeID {
		var out []graph.NodeID
		for _, n := range r.Activated {
			out = append(out, n.ID)
		}
		return out
	}
	// TopK 10 and 20 keep the same candidate pool (MinCandidates).
	q := Query{Text: "auth session handler", XLR: true, NoLearn: true, TopK: 20}
	wide := activate(t, e, q)
	if len(wide.Activated) < 20 {
		t.Fatalf("only %d activated", len(wide.Activated))
	}
	outside := wide.Activated[15].ID
	q.TopK = 10
	plain := ids(activate(t, e, q))
	for _, tc := range []struct {
		name   string
		weight func(graph.NodeID) float32
		first  graph.NodeID
	}{
		{"one lifted", func(n graph.NodeID) float32 { return map[bool]float32{true: 100, false: 1}[n == outside] }, outside},
		{"NaN is 1", func(graph.NodeID) float32 { return float32(math.NaN()) }, plain[0]},
		{"negative is 1", func(graph.NodeID) float32 { return -2 }, plain[0]},
	} {
		q.Weight = tc.weight
		r := activate(t, e, q)
		if r.Activated[0].ID != tc.first {
			t.Errorf("%s: first %d, want %d", tc.name, r.Activated[0].ID, tc.first)
		}
		for _, n := range r.Activated {
			if n.Activation < 0 || n.Activation > 1 || n.Weight <= 0 {
				t.Errorf("%s: %+v", tc.name, n)
			}
		}
		if tc.first != outside && !slices.Equal(ids(r), plain) {
			t.Errorf("%s: %v, want the unweighted %v", tc.name, ids(r), plain)
		}
	}
}
