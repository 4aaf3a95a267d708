package patterns

import (
	"fmt"
	"testing"

	"github.com/m1nd-go/m1nd/core/analysis"
	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/history"
)

// ghostGraph: four files; a imports b, b imports x (so a reaches x
// through b). c and d are linked by nothing.
func ghostGraph(t *testing.T) (*graph.Graph, *analysis.DepGraph) {
	g := graph.New()
	for _, f := range []string{"a", "b", "c", "d", "x"} {
		g.AddNode(graph.Node{ExternalID: "file::" + f + ".py", Label: f + ".py", Type: graph.File})
	}
	g.AddEdgeByID("file::a.py", "file::b.py", graph.Edge{Relation: "imports", Weight: 1})
	g.AddEdgeByID("file::b.py", "file::x.py", graph.Edge{Relation: "imports", Weight: 1})
	g.Finalize()
	deps, err := analysis.NewDepGraph(g, true)
	if err != nil {
		t.Fatal(err)
	}
	return g, deps
}

func TestGhosts(t *testing.T) {
	g, deps := ghostGraph(t)
	day := int64(86400)
	commits := []history.Commit{ // newest first
		{Hash: "7", Time: 10 * day, Files: []string{"file::a.py", "file::x.py"}},
		{Hash: "6", Time: 9 * day, Files: []string{"file::c.py", "file::d.py"}},
		{Hash: "5", Time: 8 * day, Files: []string{"file::a.py", "file::c.py"}},
		{Hash: "4", Time: 3 * day, Files: []string{"file::c.py", "file::d.py", "file::x.py"}},
		{Hash: "3", Time: 2 * day, Files: []string{"file::a.py", "file::b.py"}},
		{Hash: "2", Time: 1 * day, Files: []string{"file::a.py", "file::b.py", "file::x.py"}},
	}
	x := history.NewIndex(g, commits)
	for _, tc := range []struct {
		name string
		p    GhostParams
		want string
	}{
		// a–b and a–x are linked (directly, through b); c–d is not.
		// c: 3 commits, d: 2; together 2.
		{"all history", GhostParams{}, "[c.py-d.py 2 1]"},
		{"last week", GhostParams{Since: 4 * day}, "[]"},
		{"support 1", GhostParams{Since: 4 * day, MinSupport: 1}, "[c.py-d.py 1 1 a.py-c.py 1 0.5]"},
		{"scope", GhostParams{Focus: func(id graph.NodeID) bool { return g.Label(id) == "a.py" }}, "[]"},
		{"sweeping commits", GhostParams{MaxGroup: 2}, "[]"},
	} {
		res := Ghosts(x, deps, tc.p)
		var got []any
		for _, gh := range res.Ghosts {
			got = append(got, g.Label(gh.A)+"-"+g.Label(gh.B), gh.Support, gh.Confidence)
		}
		if s := fmt.Sprint(got); s != tc.want && !(s == "[]" && tc.want == "[]") {
			t.Errorf("%s: %s, want %s", tc.name, s, tc.want)
		}
	}
}
