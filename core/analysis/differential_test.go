package analysis

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/m1nd-go/m1nd/core/graph"
)

func diffGraphs(t *testing.T) (*graph.Graph, *graph.Graph) {
	names := []string{"api/routes.py", "api/views.py", "core/auth.py", "core/session.py", "core/util.py", "lib/old.py"}
	a := build(t, names, []e{
		{"api/routes.py", "api/views.py", "", 1}, {"api/views.py", "core/auth.py", "", 1},
		{"core/auth.py", "core/session.py", "", 1}, {"core/util.py", "lib/old.py", "", 1},
	})
	b := build(t, append(names[:5:5], "api/new.py"), []e{
		{"api/routes.py", "api/views.py", "", 1}, {"api/views.py", "core/auth.py", "", 1},
		{"api/routes.py", "core/session.py", "calls", 1}, {"api/new.py", "core/auth.py", "", 1},
		{"core/auth.py", "core/session.py", "", 1},
	})
	// A learned weight in b.
	e, _ := b.FindEdgeByName(n(t, b, "core/auth.py"), n(t, b, "core/session.py"), "imports")
	if err := b.AtomicWriteWeight(e, 0.6); err != nil {
		t.Fatal(err)
	}
	return a, b
}

func TestDiff(t *testing.T) {
	a, b := diffGraphs(t)
	res, err := Diff(a, b, DefaultDiffParams())
	if err != nil {
		t.Fatal(err)
	}
	want := DiffResult{
		NewNodes:     []string{"file::api/new.py"},
		RemovedNodes: []string{"file::lib/old.py"},
		NewEdges: []DiffEdge{
			{"file::api/new.py", "file::core/auth.py", "imports", 1},
			{"file::api/routes.py", "file::core/session.py", "calls", 1},
		},
		RemovedEdges:  []DiffEdge{{"file::core/util.py", "file::lib/old.py", "imports", 1}},
		WeightChanges: []WeightChange{{"file::core/auth.py", "file::core/session.py", "imports", 1, 0.6, -0.4}},
		CouplingDeltas: []CouplingDelta{
			// api ↔ core: 1 of the 4 links touching either, now 3 of 5.
			{CommunityA: "api", CommunityB: "core", OldCoupling: 0.25, NewCoupling: 0.6, OldLinks: 1, NewLinks: 3},
			{CommunityA: "core", CommunityB: "lib", OldCoupling: 1.0 / 3, NewCoupling: 0, OldLinks: 1, NewLinks: 0},
		},
		BecameIsolated:  []string{"file::core/util.py"},
		BecameConnected: []string{},
	}
	for i := range want.CouplingDeltas {
		d := &want.CouplingDeltas[i]
		d.Delta = d.NewCoupling - d.OldCoupling
	}
	want.Counts = DiffCounts{1, 1, 2, 1, 1, 2, 1, 0}
	if diff := cmp.Diff(want, res, cmp.Comparer(func(x, y float32) bool { return abs(x-y) < 1e-4 })); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
	// The other way round is the mirror image.
	back, _ := Diff(b, a, DefaultDiffParams())
	if !cmp.Equal(back.NewNodes, res.RemovedNodes) || len(back.NewEdges) != len(res.RemovedEdges) || !cmp.Equal(back.BecameConnected, res.BecameIsolated) {
		t.Errorf("b→a is not the mirror of a→b: %+v", back)
	}
	// Identical graphs: nothing.
	same, _ := Diff(a, a, DefaultDiffParams())
	if same.Counts != (DiffCounts{}) {
		t.Errorf("a vs a: %+v", same.Counts)
	}
}

func TestDiffFocusAndSections(t *testing.T) {
	a, b := diffGraphs(t)
	p := DefaultDiffParams()
	p.Focus = []string{"file::lib/old.py"}
	res, _ := Diff(a, b, p)
	if !cmp.Equal(res.RemovedNodes, []string{"file::lib/old.py"}) || len(res.NewEdges) != 0 || len(res.NewNodes) != 0 || len(res.WeightChanges) != 0 {
		t.Errorf("focus on old.py: %+v", res)
	}
	q := ParseDiffQuestion("what new coupling was introduced?")
	p = DefaultDiffParams()
	p.Sections = q.Sections
	res, _ = Diff(a, b, p)
	if res.Counts.NewEdges != 2 || res.Counts.RemovedEdges != 0 || res.Counts.CouplingDeltas != 1 || res.Counts.NewNodes != 0 || res.Counts.WeightChanges != 0 {
		t.Errorf("new coupling: %+v", res.Counts)
	}
}

func TestParseDiffQuestion(t *testing.T) {
	for _, tc := range []struct {
		q    string
		want DiffQuestion
	}{
		{"", DiffQuestion{Sections: DiffAll}},
		{"what new coupling was introduced?", DiffQuestion{Sections: DiffCoupling | DiffEdges | DiffAdded}},
		{"what modules became isolated?", DiffQuestion{Sections: DiffIsolation | DiffAdded | DiffRemoved}},
		{"what was removed?", DiffQuestion{Sections: DiffAll &^ DiffAdded}},
		{"what changed around backend/auth.py?", DiffQuestion{Sections: DiffAll, Subject: "backend/auth.py"}},
		{"which weights did learning move for SessionStore.create", DiffQuestion{Sections: DiffWeights | DiffAdded | DiffRemoved, Subject: "SessionStore.create"}},
		{"what changed in the graph", DiffQuestion{Sections: DiffAll}},
	} {
		if got := ParseDiffQuestion(tc.q); got != tc.want {
			t.Errorf("%q: got %+v, want %+v", tc.q, got, tc.want)
		}
	}
}

func FuzzParseDiffQuestion(f *testing.F) {
	for _, s := range []string{"what new coupling was introduced?", "what changed around auth.py", "removed in x/y.go"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, q string) {
		got := ParseDiffQuestion(q)
		if got.Sections&^(DiffAdded|DiffRemoved) == 0 || got.Sections&(DiffAdded|DiffRemoved) == 0 {
			t.Fatalf("%q: sections %b name no part or no direction", q, got.Sections)
		}
	})
}
