package plasticity

import (
	"encoding/json"
	"math"
	"slices"
	"sort"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/graph/graphtest"
)

var stateNames = []string{"auth", "session", "db", "config", "routes", "tests"}
var stateEdges = []edgeSpec{
	{"auth", "session", "", 0.9}, {"auth", "db", "", 0.7}, {"session", "db", "", 0.6},
	{"routes", "auth", "", 0.8}, {"tests", "auth", "", 0.5}, {"auth", "config", "", 0.4},
	{"session", "config", "", 0.4}, {"auth", "session", "calls", 0.3},
}

func TestStateSurvivesRenumbering(t *testing.T) {
	g1 := build(t, stateNames, stateEdges)
	e1 := newEngine(t)
	for i := 0; i < 6; i++ {
		if _, err := e1.Update(g1, Query{Activated: scored(t, g1, "auth", 1.0, "session", 0.8, "db", 0.5)}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := e1.Learn(g1, LearnRequest{Feedback: Wrong, Nodes: []graph.NodeID{id(t, g1, "tests")}, Strength: 0.2}); err != nil {
		t.Fatal(err)
	}
	states := e1.ExportState(g1)
	if len(states) == 0 {
		t.Fatal("nothing exported")
	}
	data, err := json.Marshal(states)
	if err != nil {
		t.Fatal(err)
	}
	var decoded []SynapticState
	if err := json.Unmarshal(data, &decoded); err != nil {
		t.Fatal(err)
	}

	// Rebuild with the nodes in reverse order (every NodeID changes) and
	// the edges in another order.
	rev := slices.Clone(stateNames)
	slices.Reverse(rev)
	edges := slices.Clone(stateEdges)
	slices.Reverse(edges)
	g2 := build(t, rev, edges)
	if id(t, g2, "auth") == id(t, g1, "auth") {
		t.Fatal("fixture: renumbering did not change IDs")
	}
	e2 := newEngine(t)
	st, err := e2.ImportState(g2, decoded)
	if err != nil {
		t.Fatal(err)
	}
	if st.Applied != len(states) || st.Unmatched+st.Ambiguous+st.Clamped+st.NonFinite != 0 {
		t.Errorf("import stats = %+v, want all %d applied", st, len(states))
	}
	p1, p2 := g1.EdgePlasticity(), g2.EdgePlasticity()
	for i := 0; i < g1.NumEdges(); i++ {
		a := graph.EdgeIdx(i)
		b, ok := g2.FindEdgeByName(id(t, g2, g1.Label(g1.Source(a))), id(t, g2, g1.Label(g1.Target(a))), g1.RelationName(a))
		if !ok {
			t.Fatalf("edge %d missing in the rebuilt graph", i)
		}
		got := [5]any{g2.Weight(b), p2.Strengthen[b], p2.Weaken[b], p2.LTP[b], p2.LTD[b]}
		want := [5]any{g1.Weight(a), p1.Strengthen[a], p1.Weaken[a], p1.LTP[a], p1.LTD[a]}
		if got != want {
			t.Errorf("edge %s -> %s (%s): got %v, want %v", g1.Label(g1.Source(a)), g1.Label(g1.Target(a)), g1.RelationName(a), got, want)
		}
	}
	// Drift against the original weights agrees on both graphs.
	d1, _ := e1.Drift(g1, nil, DriftOptions{})
	d2, _ := e2.Drift(g2, nil, DriftOptions{})
	if d1.EdgesChanged != d2.EdgesChanged || d1.LTPCount != d2.LTPCount || d1.LTDCount != d2.LTDCount {
		t.Errorf("drift differs after renumbering: %+v vs %+v", d1, d2)
	}
}

func TestSynapticStateJSONFieldNames(t *testing.T) {
	data, err := json.Marshal(SynapticState{SourceLabel: "a", TargetLabel: "b", Relation: "imports"})
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	want := []string{"current_weight", "original_weight", "relation", "source_label", "strengthen_count", "target_label", "weaken_count", "ltd_applied", "ltp_applied"}
	sort.Strings(want)
	if diff := cmp.Diff(want, keys); diff != "" {
		t.Errorf("JSON fields (-want +got):\n%s", diff)
	}
}

func TestImportClampsAndMatches(t *testing.T) {
	g := build(t, []string{"a", "b", "c", "dup", "dup2"}, []edgeSpec{
		{"a", "b", "", 0.5}, {"b", "c", "", 0.5}, {"a", "c", "", 0.5}, {"c", "a", "", 0.5},
	})
	e := newEngine(t)
	nan := float32(math.NaN())
	st, err := e.ImportState(g, []SynapticState{
		{SourceLabel: "n:a", TargetLabel: "n:b", Relation: "imports", OriginalWeight: 0.5, CurrentWeight: 10},  // clamped to cap
		{SourceLabel: "n:b", TargetLabel: "n:c", Relation: "imports", OriginalWeight: 0.4, CurrentWeight: nan}, // → original
		{SourceLabel: "a", TargetLabel: "c", Relation: "imports", OriginalWeight: 0.5, CurrentWeight: -1},      // by label, clamped to floor
		{SourceLabel: "n:a", TargetLabel: "n:zzz", Relation: "imports", OriginalWeight: 0.5, CurrentWeight: 1}, // unmatched
		{SourceLabel: "c", TargetLabel: "a", Relation: "calls", OriginalWeight: 0.5, CurrentWeight: 1},         // unmatched relation
		{SourceLabel: "n:c", TargetLabel: "n:a", Relation: "imports", OriginalWeight: float32(math.Inf(1)), CurrentWeight: float32(math.Inf(-1)), LTDApplied: true},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := ImportStats{Records: 6, Applied: 4, Unmatched: 2, Clamped: 2, NonFinite: 2}
	if st != want {
		t.Errorf("stats = %+v, want %+v", st, want)
	}
	checks := []struct {
		src, dst string
		w, orig  float32
	}{{"a", "b", 3.0, 0.5}, {"b", "c", 0.4, 0.4}, {"a", "c", 0.05, 0.5}, {"c", "a", 0.5, 0.5}}
	for _, c := range checks {
		ed := edge(t, g, c.src, c.dst)
		if w := g.Weight(ed); w != c.w {
			t.Errorf("%s->%s = %v, want %v", c.src, c.dst, w, c.w)
		}
		if o := g.EdgePlasticity().Original[ed]; o != c.orig {
			t.Errorf("%s->%s original = %v, want %v", c.src, c.dst, o, c.orig)
		}
	}
	if !g.EdgePlasticity().LTD[edge(t, g, "c", "a")] {
		t.Error("ltd_applied not restored")
	}

	// Ambiguous display labels.
	g2 := graph.New()
	for _, ext := range []string{"x/one", "y/one", "z/two"} {
		g2.AddNode(graph.Node{ExternalID: ext, Label: map[string]string{"x/one": "one", "y/one": "one", "z/two": "two"}[ext]})
	}
	g2.AddEdgeByID("x/one", "z/two", graph.Edge{Relation: "imports", Weight: 1})
	g2.AddEdgeByID("y/one", "z/two", graph.Edge{Relation: "imports", Weight: 1})
	g2.Finalize()
	st, _ = e.ImportState(g2, []SynapticState{{SourceLabel: "one", TargetLabel: "two", Relation: "imports", OriginalWeight: 1, CurrentWeight: 2}})
	if st.Ambiguous != 1 || st.Applied != 0 {
		t.Errorf("ambiguous label import: %+v", st)
	}
	if _, err := e.ImportState(graph.New(), nil); err == nil {
		t.Error("ImportState accepted an unfinalized graph")
	}
}

func TestExportFirewallAndUntouchedEdges(t *testing.T) {
	g := build(t, []string{"a", "b", "c"}, []edgeSpec{{"a", "b", "", 0.5}, {"b", "c", "", 0.5}})
	e := newEngine(t)
	if s := e.ExportState(g); len(s) != 0 {
		t.Fatalf("untouched graph exported %d records", len(s))
	}
	if _, err := e.Learn(g, LearnRequest{Feedback: Correct, Nodes: []graph.NodeID{id(t, g, "a"), id(t, g, "b")}}); err != nil {
		t.Fatal(err)
	}
	s := e.ExportState(g)
	if len(s) != 1 || s[0].SourceLabel != "n:a" || s[0].TargetLabel != "n:b" || !near(s[0].CurrentWeight, 0.58) || s[0].StrengthenCount != 1 {
		t.Errorf("export = %+v", s)
	}
}

func TestDriftAgainstOriginalAndBaseline(t *testing.T) {
	g := build(t, stateNames, stateEdges)
	e := newEngine(t)
	clock := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	e.SetClock(func() time.Time { return clock })
	base, err := e.CaptureBaseline(g)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 5; i++ {
		e.Learn(g, LearnRequest{Feedback: Correct, Nodes: []graph.NodeID{id(t, g, "auth"), id(t, g, "session")}, Strength: 0.2})
	}
	rep, err := e.Drift(g, nil, DriftOptions{TopN: 2})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Since != "original" || rep.EdgesChanged != g.NumEdges() {
		// Every edge touches auth or session.
		t.Errorf("drift = %+v, want all %d edges changed", rep, g.NumEdges())
	}
	if len(rep.TopStrengthened) != 2 || rep.TopStrengthened[0].SourceID != "n:auth" || rep.TopStrengthened[0].TargetID != "n:session" {
		t.Errorf("top strengthened = %+v, want auth->session first", rep.TopStrengthened)
	}
	if rep.LTPCount != g.NumEdges() || len(rep.TopWeakened) != 0 {
		t.Errorf("ltp_count = %d, weakened %v", rep.LTPCount, rep.TopWeakened)
	}

	// Since a baseline: only what changed after it.
	clock = clock.Add(time.Hour)
	mid, _ := e.CaptureBaseline(g)
	e.Learn(g, LearnRequest{Feedback: Wrong, Nodes: []graph.NodeID{id(t, g, "tests")}, Strength: 0})
	rep, _ = e.Drift(g, mid, DriftOptions{})
	if rep.EdgesChanged != 1 || len(rep.TopWeakened) != 1 || rep.TopWeakened[0].SourceID != "n:tests" || rep.Since != "2025-01-02T04:04:05Z" {
		t.Errorf("drift since baseline = %+v", rep)
	}
	if !near(rep.TopWeakened[0].Delta, -rep.TopWeakened[0].Old*0.005) {
		t.Errorf("delta = %v, want decay of %v", rep.TopWeakened[0].Delta, rep.TopWeakened[0].Old)
	}

	// Structural drift: a node and an edge added after the first baseline.
	g2 := g.Clone()
	nid, _ := g2.AddNode(graph.Node{ExternalID: "n:new", Label: "new"})
	g2.AddEdge(graph.Edge{Source: nid, Target: id(t, g2, "auth"), Relation: "imports", Weight: 1})
	g2.Finalize()
	rep, _ = e.Drift(g2, base, DriftOptions{})
	if rep.NodeCountDelta != 1 || rep.EdgeCountDelta != 1 || rep.NewEdges != 1 || !slices.Equal(rep.NewNodes, []string{"n:new"}) {
		t.Errorf("structural drift = %+v", rep)
	}
	// From saved states: partial baseline.
	pb := BaselineFromStates(e.ExportState(g), clock)
	rep, _ = e.Drift(g, pb, DriftOptions{})
	if rep.EdgesChanged != 0 {
		t.Errorf("drift against the just-exported state = %d changed edges, want 0", rep.EdgesChanged)
	}
}

func TestLearnedEdgesMatchesExport(t *testing.T) {
	g := graphtest.PowerLaw(300, 800, 5)
	e, _ := New(DefaultParams())
	if e.LearnedEdges(g) != 0 {
		t.Fatal("fresh graph has learned edges")
	}
	g.AtomicWriteWeight(3, 2)
	g.EdgePlasticity().Strengthen[9] = 1
	g.EdgePlasticity().LTD[11] = true
	if got, want := e.LearnedEdges(g), len(e.ExportState(g)); got != want || got != 3 {
		t.Errorf("LearnedEdges %d, ExportState %d, want 3", got, want)
	}
}

// ReplaceState restores an earlier export exactly: edges that learned
// after it (and are not in it) go back to their state at ingest, which
// ImportState alone leaves as they are.
func TestReplaceStateRestoresAnExport(t *testing.T) {
	for _, tc := range []struct {
		name    string
		replace bool
		exact   bool
	}{{"ReplaceState", true, true}, {"ImportState", false, false}} {
		t.Run(tc.name, func(t *testing.T) {
			g := build(t, stateNames, stateEdges)
			e := newEngine(t)
			if _, err := e.Update(g, Query{Activated: scored(t, g, "auth", 1.0, "session", 0.8)}); err != nil {
				t.Fatal(err)
			}
			before := e.ExportState(g)
			if _, err := e.Update(g, Query{Activated: scored(t, g, "routes", 1.0, "tests", 0.9, "config", 0.7)}); err != nil {
				t.Fatal(err)
			}
			if _, err := e.Learn(g, LearnRequest{Feedback: Wrong, Nodes: []graph.NodeID{id(t, g, "tests")}, Strength: 0.5}); err != nil {
				t.Fatal(err)
			}
			if len(e.ExportState(g)) <= len(before) {
				t.Fatal("fixture: no edge learned after the export")
			}
			imp := e.ImportState
			if tc.replace {
				imp = e.ReplaceState
			}
			if _, err := imp(g, before); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(before, e.ExportState(g)); (diff == "") != tc.exact {
				t.Fatalf("exact restore %v, want %v (-export +after):\n%s", diff == "", tc.exact, diff)
			}
		})
	}
}
