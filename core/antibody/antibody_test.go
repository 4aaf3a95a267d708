package antibody

import (
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/m1nd-go/m1nd/core/graph"
)

// apiGraph: handle_login calls validate_input and db_query; handle_signup
// calls db_query only (the missing validation); report calls db_query
// and is no handler.
func apiGraph(t testing.TB) *graph.Graph {
	t.Helper()
	g := graph.New()
	add := func(id, label string, typ graph.NodeType) {
		if _, err := g.AddNode(graph.Node{ExternalID: id, Label: label, Type: typ}); err != nil {
			t.Fatal(err)
		}
	}
	add("file::api.py", "api.py", graph.File)
	for _, f := range []string{"handle_login", "handle_signup", "validate_input", "db_query", "report"} {
		add("file::api.py::"+f, f, graph.Function)
		if err := g.AddEdgeByID("file::api.py", "file::api.py::"+f, graph.Edge{Relation: "contains", Weight: 1}); err != nil {
			t.Fatal(err)
		}
	}
	for _, e := range [][2]string{{"handle_login", "validate_input"}, {"handle_login", "db_query"}, {"handle_signup", "db_query"}, {"report", "db_query"}} {
		if err := g.AddEdgeByID("file::api.py::"+e[0], "file::api.py::"+e[1], graph.Edge{Relation: "calls", Weight: 1}); err != nil {
			t.Fatal(err)
		}
	}
	g.Finalize()
	return g
}

// unvalidated: a handler that queries the database without calling the
// validator.
var unvalidated = Pattern{
	Nodes: []PatternNode{
		{ID: "h", Label: "handle_", Type: "function"},
		{ID: "q", Label: "db_query", Mode: Exact},
		{ID: "v", Label: "validate_input", Mode: Exact},
	},
	Edges:         []PatternEdge{{From: "h", To: "q", Relation: "calls"}},
	NegativeEdges: []PatternEdge{{From: "h", To: "v", Relation: "calls"}},
}

func labels(g *graph.Graph, m Match) []string {
	var out []string
	for _, id := range m.Nodes {
		if id == graph.NoNode {
			out = append(out, "(absent)")
			continue
		}
		out = append(out, g.Label(id))
	}
	return out
}

func TestFind(t *testing.T) {
	g := apiGraph(t)
	res := Find(g, unvalidated, Options{Mode: Substring})
	if len(res.Matches) != 1 || res.TimedOut || res.Truncated {
		t.Fatalf("matches %+v", res)
	}
	m := res.Matches[0]
	// v is an absent node: handle_signup calls no node labelled
	// validate_input.
	if got := labels(g, m); got[0] != "handle_signup" || got[1] != "db_query" || got[2] != "(absent)" {
		t.Errorf("bound %v", got)
	}
	// h: 0.5 + 0.5 × 7/13; q exact; the absent v does not count.
	if want := (0.5 + 0.5*7.0/13 + 1) / 2; abs(m.Confidence-want) > 1e-12 {
		t.Errorf("confidence %v, want %v", m.Confidence, want)
	}
	// Exact mode: "handle_" is no label; no match.
	if res := Find(g, unvalidated, Options{Mode: Exact}); len(res.Matches) != 0 {
		t.Errorf("exact: %+v", res)
	}
	// Regex mode: every caller of db_query whose name starts with h or r.
	p := Pattern{Nodes: []PatternNode{{ID: "c", Label: "^(h|r)"}, {ID: "q", Label: "db_query", Mode: Exact}}, Edges: []PatternEdge{{From: "c", To: "q", Relation: "calls"}}}
	if res := Find(g, p, Options{Mode: Regex}); len(res.Matches) != 3 {
		t.Errorf("regex: %d matches", len(res.Matches))
	}
	if res := Find(g, p, Options{Mode: Regex, MaxMatches: 2}); len(res.Matches) != 2 || !res.Truncated {
		t.Errorf("max matches: %+v", res)
	}
	// A deadline already past stops the search.
	if res := Find(g, p, Options{Mode: Regex, Deadline: time.Now().Add(-time.Second)}); !res.TimedOut || len(res.Matches) != 0 {
		t.Errorf("past deadline: %+v", res)
	}
}

func TestValidateAndSpecificity(t *testing.T) {
	for _, tc := range []struct {
		name string
		p    Pattern
		ok   bool
		spec float64
	}{
		{"unvalidated", unvalidated, true, (min(0.7+0.3, 1) + 1 + 1 + 0.3 + 0.2) / 5},
		{"one exact node", Pattern{Nodes: []PatternNode{{ID: "a", Label: "x", Mode: Exact}}}, true, 1},
		{"one short substring", Pattern{Nodes: []PatternNode{{ID: "a", Label: "x"}}}, true, 0.1},
		{"two wildcards", Pattern{Nodes: []PatternNode{{ID: "a"}, {ID: "b"}}, Edges: []PatternEdge{{From: "a", To: "b", Relation: "calls"}}}, true, 0.1},
		{"empty", Pattern{}, false, 0},
		{"unlinked", Pattern{Nodes: []PatternNode{{ID: "a", Label: "x"}, {ID: "b", Label: "y"}}}, false, 0},
		{"bad regex", Pattern{Nodes: []PatternNode{{ID: "a", Label: "(", Mode: Regex}}}, false, 0},
		{"unknown node", Pattern{Nodes: []PatternNode{{ID: "a", Label: "x"}}, Edges: []PatternEdge{{From: "a", To: "z"}}}, false, 0},
		{"two absent nodes", Pattern{Nodes: []PatternNode{{ID: "a", Label: "xxxxxxxx", Mode: Exact}, {ID: "b", Label: "y"}, {ID: "c", Label: "z"}}, NegativeEdges: []PatternEdge{{From: "b", To: "c"}}}, false, 0},
	} {
		err := tc.p.Validate()
		if (err == nil) != tc.ok {
			t.Errorf("%s: Validate = %v", tc.name, err)
			continue
		}
		if tc.ok {
			if s := tc.p.Specificity(Substring); abs(s-tc.spec) > 1e-9 {
				t.Errorf("%s: specificity %v, want %v", tc.name, s, tc.spec)
			}
		}
	}
}

func abs(v float64) float64 {
	if v < 0 {
		return -v
	}
	return v
}

func TestRegistry(t *testing.T) {
	r := NewRegistry()
	a, err := r.Create(Antibody{Pattern: unvalidated, Severity: High, Source: "manual"}, Substring)
	if err != nil || a.ID != "ab_001" || !a.Enabled {
		t.Fatalf("create: %+v %v", a, err)
	}
	// The same shape under other variable names is a duplicate.
	renamed := unvalidated
	renamed.Nodes = []PatternNode{{ID: "x", Label: "handle_", Type: "function"}, {ID: "y", Label: "db_query", Mode: Exact}, {ID: "z", Label: "validate_input", Mode: Exact}}
	renamed.Edges = []PatternEdge{{From: "x", To: "y", Relation: "calls"}}
	renamed.NegativeEdges = []PatternEdge{{From: "x", To: "z", Relation: "calls"}}
	var dup *DuplicateError
	if _, err := r.Create(Antibody{Pattern: renamed}, Substring); !errors.As(err, &dup) || dup.ID != "ab_001" || dup.Similarity != 1 {
		t.Errorf("duplicate: %v", err)
	}
	if _, err := r.Create(Antibody{Pattern: Pattern{Nodes: []PatternNode{{ID: "a", Label: "x"}}}}, Substring); !errors.Is(err, ErrTooBroad) {
		t.Errorf("too broad: %v", err)
	}
	if _, ok := r.SetEnabled("ab_001", false); !ok || r.List()[0].Enabled {
		t.Error("disable")
	}
	r.RecordScan("ab_001", 2, 77)
	data, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	back := NewRegistry()
	if err := json.Unmarshal(data, back); err != nil {
		t.Fatal(err)
	}
	l := back.List()
	if len(l) != 1 || l[0].Matches != 2 || l[0].LastMatched != 77 || l[0].Enabled {
		t.Errorf("round trip: %+v", l)
	}
	// Ids are not reused after a delete.
	back.Delete("ab_001")
	b, err := back.Create(Antibody{Pattern: unvalidated}, Substring)
	if err != nil || b.ID != "ab_002" {
		t.Errorf("after delete: %+v %v", b, err)
	}
}

func TestRegistryCapacity(t *testing.T) {
	r := NewRegistry()
	for i := range MaxAntibodies {
		p := Pattern{Nodes: []PatternNode{{ID: "a", Label: "fn_" + string(rune('a'+i%26)) + string(rune('a'+i/26)), Mode: Exact}}}
		if _, err := r.Create(Antibody{Pattern: p}, Exact); err != nil {
			t.Fatalf("%d: %v", i, err)
		}
	}
	if _, err := r.Create(Antibody{Pattern: Pattern{Nodes: []PatternNode{{ID: "a", Label: "another", Mode: Exact}}}}, Exact); !errors.Is(err, ErrFull) {
		t.Errorf("full: %v", err)
	}
}

func TestFromFeedback(t *testing.T) {
	g := apiGraph(t)
	ids := func(names ...string) []graph.NodeID {
		var out []graph.NodeID
		for _, n := range names {
			id, _ := g.Lookup("file::api.py::" + n)
			out = append(out, id)
		}
		return out
	}
	p, ok := FromFeedback(g, ids("handle_signup", "db_query"))
	if !ok || len(p.Nodes) != 2 || len(p.Edges) != 1 || p.Edges[0] != (PatternEdge{From: "n1", To: "n2", Relation: "calls"}) || p.Nodes[0].Label != "handle_signup" || p.Nodes[0].Type != "function" {
		t.Fatalf("extracted %+v %v", p, ok)
	}
	if res := Find(g, p, Options{}); len(res.Matches) != 1 || res.Matches[0].Confidence != 1 {
		t.Errorf("the extracted pattern matches %+v", res)
	}
	if _, ok := FromFeedback(g, ids("handle_signup", "validate_input")); ok {
		t.Error("unlinked nodes gave a pattern")
	}
	if _, ok := FromFeedback(g, ids("db_query")); ok {
		t.Error("one node gave a pattern")
	}
}
