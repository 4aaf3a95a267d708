package dynamics

import (
	"context"
	"slices"
	"testing"

	"github.com/m1nd-go/m1nd/core/analysis"
	"github.com/m1nd-go/m1nd/core/graph"
)

// The ranking is the score formula over hand-known parts: blast radius
// by hand (tests excluded), churn as set, PageRank as the graph has it.
func TestRankFilesFormula(t *testing.T) {
	types := map[string]graph.NodeType{}
	for _, f := range []string{"a", "b", "c", "d", "a_test"} {
		types[f] = graph.File
	}
	g, id := build(t, []edge{
		{"b", "imports", "a"}, {"c", "imports", "a"}, {"d", "imports", "b"}, {"a_test", "imports", "a"},
	}, nil, types, nil)
	churn := map[string]float32{"a": 0.2, "b": 0.9, "c": 0, "d": 0.5}
	for f, c := range churn {
		g.SetChangeFrequency(id[f], c)
	}
	d, got := rankAll(t, g)
	wantBlast := map[string][2]int{"a": {3, 2}, "b": {1, 1}, "c": {0, 0}, "d": {0, 0}}
	maxPR := 0.0
	for f := range churn {
		maxPR = max(maxPR, float64(g.PageRank(id[f])))
	}
	want := map[string]float64{}
	for f, c := range churn {
		want[f] = 0.4*float64(g.PageRank(id[f]))/maxPR + 0.3*float64(wantBlast[f][0])/3 + 0.3*float64(c)
	}
	var order []string
	for _, r := range got {
		name := g.Label(r.File)
		order = append(order, name)
		if [2]int{r.Blast, r.Dependents} != wantBlast[name] || !near(r.Risk, want[name]) || !near(r.Churn, float64(churn[name])) {
			t.Errorf("%s: %+v, want blast %v risk %v", name, r, wantBlast[name], want[name])
		}
	}
	wantOrder := []string{"a", "b", "c", "d"}
	slices.SortStableFunc(wantOrder, func(x, y string) int {
		if want[x] > want[y] {
			return -1
		}
		if want[x] < want[y] {
			return 1
		}
		return 0
	})
	if !slices.Equal(order, wantOrder) {
		t.Errorf("order %v, want %v (tests excluded)", order, wantOrder)
	}
	if sc, _ := RankFiles(context.Background(), d, "b"); len(sc) != 1 || sc[0].File != id["b"] {
		t.Errorf("scope b: %+v", sc)
	}
}

// A document or data file that links to nothing (a README,
// composer.json) is not ranked however often it changes; a data file a
// module imports is, and so is code without functions (settings.py).
func TestRankFilesLeavesOutDocuments(t *testing.T) {
	types := map[string]graph.NodeType{"a.py": graph.File, "README.md": graph.File, "schema.json": graph.File, "settings.py": graph.File, "run": graph.Function}
	tags := map[string][]string{"README.md": {"md", "doc"}, "schema.json": {"json"}, "a.py": {"python"}, "settings.py": {"python"}}
	g, id := build(t, []edge{{"a.py", "contains", "run"}, {"a.py", "imports", "schema.json"}}, []string{"README.md", "settings.py"}, types, tags)
	g.SetChangeFrequency(id["README.md"], 1)
	_, got := rankAll(t, g)
	var paths []string
	for _, r := range got {
		paths = append(paths, g.ExternalID(r.File))
	}
	slices.Sort(paths)
	want := []string{g.ExternalID(id["a.py"]), g.ExternalID(id["schema.json"]), g.ExternalID(id["settings.py"])}
	slices.Sort(want)
	if !slices.Equal(paths, want) {
		t.Errorf("ranked %v, want %v", paths, want)
	}
}

// rankAll ranks every file of g's file-level dependency graph.
func rankAll(t *testing.T, g *graph.Graph) (*analysis.DepGraph, []FileRisk) {
	t.Helper()
	d, err := analysis.NewDepGraph(g, true)
	if err != nil {
		t.Fatal(err)
	}
	got, err := RankFiles(context.Background(), d, "")
	if err != nil {
		t.Fatal(err)
	}
	return d, got
}
