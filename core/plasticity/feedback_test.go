package plasticity

import (
	"math"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/m1nd-go/m1nd/core/graph"
)

func TestContextWords(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"text formatter colors", []string{"color", "formatter", "text"}},
		{"Fix the parseHTTPRequest panic in session_pool.py", []string{"fix", "http", "panic", "parse", "pool", "request", "session"}},
		{"a of the", nil},
		{"class classes", []string{"class", "classe"}},
		{"fix(plugin): timezone offset (#3174) http2", []string{"fix", "http2", "offset", "plugin", "timezone"}},
		{"", nil},
	} {
		if got := ContextWords(tc.in); !slices.Equal(got, tc.want) {
			t.Errorf("ContextWords(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// Relevance weighs each remembered Learn call by how similar its context
// is to the query's: identical contexts count fully, contexts sharing most
// words or seeds partly, unrelated ones not at all.
func TestRelevanceBySimilarity(t *testing.T) {
	g := build(t, []string{"formatter", "json", "text", "hook", "other"}, nil)
	e := newEngine(t)
	learn := func(q string, f Feedback, strength float32, seeds []string, nodes ...string) {
		t.Helper()
		req := LearnRequest{Query: q, Feedback: f, Strength: strength}
		for _, n := range nodes {
			req.Nodes = append(req.Nodes, id(t, g, n))
		}
		for _, s := range seeds {
			req.Seeds = append(req.Seeds, id(t, g, s))
		}
		if _, err := e.Learn(g, req); err != nil {
			t.Fatal(err)
		}
	}
	fmtSeeds := []string{"formatter", "text"}
	for range 3 {
		learn("text formatter colors", Wrong, 1, fmtSeeds, "formatter")
		learn("text formatter colors", Correct, 1, fmtSeeds, "json")
	}
	learn("hook levels", Correct, 0.2, []string{"hook"}, "hook")
	ramp := func(sim float64) float64 { return (sim - 0.3) / 0.7 }
	for _, tc := range []struct {
		name  string
		ctx   Context
		want  map[string]float64 // node → Σ weight·evidence before tanh
		empty bool
	}{
		{name: "same query", ctx: Context{Words: ContextWords("text formatter colors")},
			want: map[string]float64{"formatter": -3, "json": 3}},
		{name: "two of three words", ctx: Context{Words: ContextWords("text formatter")},
			want: map[string]float64{"formatter": -3 * ramp(2.0/3), "json": 3 * ramp(2.0/3)}},
		{name: "two of four words", ctx: Context{Words: ContextWords("text formatter output padding")},
			want: map[string]float64{"formatter": -3 * ramp(2.0/5), "json": 3 * ramp(2.0/5)}},
		{name: "same seeds, other words", ctx: Context{Words: ContextWords("tty"), Seeds: []graph.NodeID{id(t, g, "text"), id(t, g, "formatter")}},
			want: map[string]float64{"formatter": -3, "json": 3}},
		{name: "one shared word of four", ctx: Context{Words: ContextWords("text entry fields data")}, empty: true},
		{name: "other topic at default strength", ctx: Context{Words: ContextWords("hook levels")},
			want: map[string]float64{"hook": 0.4}},
		{name: "nothing", ctx: Context{}, empty: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rel, err := e.Relevance(g, tc.ctx)
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]float64{}
			for _, r := range rel {
				got[g.Label(r.Node)] = float64(r.Score)
			}
			want := map[string]float64{}
			for n, v := range tc.want {
				want[n] = math.Tanh(v)
			}
			if tc.empty {
				want = map[string]float64{}
			}
			if d := cmp.Diff(want, got, cmp.Comparer(func(a, b float64) bool { return math.Abs(a-b) < 1e-5 })); d != "" {
				t.Errorf("relevance (-want +got):\n%s", d)
			}
			if !slices.IsSortedFunc(rel, graph.CompareScored) {
				t.Errorf("not sorted: %v", rel)
			}
		})
	}
	if _, err := e.Relevance(g, Context{Seeds: []graph.NodeID{99}}); err == nil {
		t.Error("Relevance accepted a seed outside the graph")
	}
}

func TestFeedbackMemoryEvictsAndRoundTrips(t *testing.T) {
	g := build(t, []string{"a", "b", "c"}, nil)
	p := DefaultParams()
	p.FeedbackCapacity = 2
	e, err := New(p)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"a", "b", "c"} {
		if _, err := e.Learn(g, LearnRequest{Query: "alpha beta", Feedback: Correct, Strength: 1, Nodes: []graph.NodeID{id(t, g, n)}}); err != nil {
			t.Fatal(err)
		}
	}
	ctx := Context{Words: ContextWords("alpha beta")}
	rel, _ := e.Relevance(g, ctx)
	if len(rel) != 2 || g.Label(rel[0].Node) != "b" || g.Label(rel[1].Node) != "c" {
		t.Fatalf("relevance after eviction = %v, want b and c", rel)
	}
	recs := e.ExportFeedback()
	if len(recs) != 2 || recs[0].Nodes[0].NodeID != "n:b" || recs[1].Nodes[0].NodeID != "n:c" {
		t.Fatalf("export = %+v, want b then c", recs)
	}
	e2 := newEngine(t)
	if err := e2.ImportFeedback(recs); err != nil {
		t.Fatal(err)
	}
	if rel2, _ := e2.Relevance(g, ctx); !cmp.Equal(rel, rel2) {
		t.Errorf("imported relevance %v, want %v", rel2, rel)
	}
	for _, bad := range [][]FeedbackRecord{
		{{Query: "x"}},
		{{Nodes: []FeedbackNode{{NodeID: "n:a", Evidence: float32(math.NaN())}}}},
		{{Nodes: []FeedbackNode{{NodeID: "", Evidence: 1}}}},
		{{Nodes: []FeedbackNode{{NodeID: "n:a", Evidence: 2}}}},
	} {
		if err := e2.ImportFeedback(bad); err == nil {
			t.Errorf("ImportFeedback accepted %+v", bad)
		}
	}
	if st := e2.MemoryStats(); st.FeedbackRecords != 2 {
		t.Errorf("feedback records = %d after rejected imports, want 2", st.FeedbackRecords)
	}
	// FeedbackRecords answers without the engine's lock: a snapshot
	// encoding under Locked must not hold up every seek (it deadlocked
	// here when it took the lock).
	e2.Locked(func() {
		if n, m := e.FeedbackRecords(), e2.FeedbackRecords(); n != 2 || m != 2 {
			t.Errorf("FeedbackRecords = %d learned, %d imported; want 2 and 2", n, m)
		}
	})
	e2.ResetMemory()
	if n := e2.FeedbackRecords(); n != 0 {
		t.Errorf("FeedbackRecords = %d after ResetMemory", n)
	}
	if rel, _ := e2.Relevance(g, ctx); len(rel) != 0 {
		t.Errorf("relevance after ResetMemory = %v", rel)
	}
}
