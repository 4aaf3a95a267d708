package cochange

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestRose(t *testing.T) {
	uni := map[string]bool{"a/x.go": true, "a/y.go": true, "a/z.go": true, "b/w.go": true, "b/v.go": true, "a/w.go": true}
	train := []Commit{
		{Files: []string{"a/x.go", "b/w.go"}},
		{Files: []string{"a/x.go", "b/w.go", "README.md"}}, // README is outside the universe
		{Files: []string{"a/x.go", "a/y.go"}},
		{Files: []string{"a/x.go", "b/v.go"}},
		{Files: []string{"a/z.go"}},
		{Files: []string{"a/z.go"}},
		// Sweeping: counts toward x's commits, makes no rule.
		{Files: []string{"a/x.go", "a/y.go", "a/z.go", "b/w.go", "b/v.go", "a/w.go"}},
	}
	r := NewRose(train, uni, 5)
	got, _ := r.Predict("a/x.go", 10)
	// Rules by confidence then path (w 2/5; v and y 1/5), then x's
	// directory by how often each file changed (z 3, y 2, w 1).
	want := []string{"b/w.go", "a/y.go", "b/v.go", "a/z.go", "a/w.go"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("rose (-want +got):\n%s", diff)
	}
	if got, _ := r.Predict("a/x.go", 2); len(got) != 2 {
		t.Errorf("k=2 gave %v", got)
	}
}

func TestQueriesAndRecall(t *testing.T) {
	s := &Split{
		Universe: map[string]bool{"a.go": true, "b.go": true, "c.go": true},
		Test: []Commit{
			{Hash: "1", Files: []string{"a.go", "b.go", "new.go", "doc.md"}},
			{Hash: "2", Files: []string{"a.go"}},                                                                 // one source file: no query
			{Hash: "3", Files: []string{"a.go", "b.go", "c.go", "d.go", "e.go", "f.go", "g.go", "h.go", "i.go"}}, // nine: too many
		},
	}
	qs, skipped := Queries(s)
	want := []Query{{Commit: "1", File: "a.go", Targets: []string{"b.go"}}, {Commit: "1", File: "b.go", Targets: []string{"a.go"}}}
	if diff := cmp.Diff(want, qs); diff != "" || skipped != 1 {
		t.Errorf("queries (-want +got):\n%s\nskipped %d, want 1 (new.go)", diff, skipped)
	}
	for _, tc := range []struct {
		pred    []string
		targets []string
		k       int
		want    float64
	}{
		{[]string{"x", "b", "c"}, []string{"b", "c"}, 2, 0.5},
		{[]string{"x", "b", "c"}, []string{"b", "c"}, 10, 1},
		{nil, []string{"b"}, 10, 0},
		{[]string{"b"}, nil, 10, 0},
	} {
		if got := Recall(tc.pred, tc.targets, tc.k); got != tc.want {
			t.Errorf("Recall(%v, %v, %d) = %v, want %v", tc.pred, tc.targets, tc.k, got, tc.want)
		}
	}
}

type fixed []string

func (f fixed) Predict(string, int) ([]string, error) { return f, nil }

// Evaluate drops predictions outside the universe and the query file
// before cutting at k, for every predictor alike.
func TestEvaluate(t *testing.T) {
	uni := map[string]bool{"a.go": true, "b.go": true, "c.go": true}
	qs := []Query{{File: "a.go", Targets: []string{"c.go"}}}
	p := fixed{"a.go", "doc.md", "x.go", "x.go", "y.go", "z.go", "b.go", "c.go"}
	sc, per, err := Evaluate(p, qs, uni)
	if err != nil || sc.R5 != 1 || sc.R10 != 1 || per[0] != 1 {
		t.Errorf("scores %+v %v %v", sc, per, err)
	}
}

func TestPlanQueries(t *testing.T) {
	qs := []Query{
		{Commit: "1", File: "a.go", Targets: []string{"b.go", "c.go"}},
		{Commit: "1", File: "b.go", Targets: []string{"a.go", "c.go"}},
	}
	want := []PlanQuery{
		{Commit: "1", Plan: []string{"b.go", "c.go"}, Missing: "a.go"},
		{Commit: "1", Plan: []string{"a.go", "c.go"}, Missing: "b.go"},
		{Commit: "1", Plan: []string{"a.go", "b.go"}, Missing: "c.go"},
	}
	if diff := cmp.Diff(want, PlanQueries(qs)); diff != "" {
		t.Errorf("plans (-want +got):\n%s", diff)
	}
}

// The plan baseline ranks a candidate by its best rule from any planned
// file, then fills from the planned files' directories.
func TestRoseGaps(t *testing.T) {
	uni := map[string]bool{"a/x.go": true, "a/y.go": true, "b/w.go": true, "b/v.go": true, "c/u.go": true}
	train := []Commit{
		{Files: []string{"a/x.go", "b/w.go"}},
		{Files: []string{"a/x.go", "c/u.go"}},
		{Files: []string{"a/x.go"}},
		{Files: []string{"b/v.go", "c/u.go"}},
	}
	r := NewRose(train, uni, 5)
	got, _ := r.Gaps([]string{"a/x.go", "b/v.go"}, 10)
	// u: 1/1 from v; w: 1/3 from x; then a/ and b/ files (the plan's
	// own files stay in the list: EvaluatePlans drops them).
	want := []string{"c/u.go", "b/w.go", "a/x.go", "a/y.go", "b/v.go"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("gaps (-want +got):\n%s", diff)
	}
	qs := []PlanQuery{{Plan: []string{"a/x.go", "b/v.go"}, Missing: "b/w.go"}}
	if sc, err := EvaluatePlans(r, qs, uni); err != nil || sc.R5 != 1 {
		t.Errorf("plan scores %+v %v", sc, err)
	}
}

func TestCeiling(t *testing.T) {
	// Every file in its own directory: no directory fill, rules only.
	s := &Split{
		Universe: map[string]bool{"x/a.go": true, "y/b.go": true, "z/c.go": true},
		Train:    []Commit{{Hash: "t1", Files: []string{"x/a.go", "z/c.go"}}},
		Test: []Commit{
			{Hash: "1", Files: []string{"x/a.go", "y/b.go"}},
			{Hash: "2", Files: []string{"x/a.go", "y/b.go"}},
		},
	}
	qs, _ := Queries(s)
	got, err := Ceiling(s, qs, 30)
	if err != nil {
		t.Fatal(err)
	}
	// Commit 1: online knows only t1 (a ⇒ c), so neither a nor b finds
	// the other; hindsight has commit 2. Commit 2: both have commit 1.
	want := Ceilings{Online: Scores{Queries: 4, R5: 0.5, R10: 0.5}, Hindsight: Scores{Queries: 4, R5: 1, R10: 1}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ceilings (-want +got):\n%s", diff)
	}
}
