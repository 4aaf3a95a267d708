package analysis

import (
	"fmt"
	"slices"
	"testing"

	"github.com/m1nd-go/m1nd/core/graph"
)

// rankGraph is core.py::F and, per file, that many functions calling it
// (a file's signal is the noisy-or of its callers: more calls, stronger).
// A file listed in imports also imports core.py at file level (with 0
// functions, that import is its only link).
func rankGraph(t *testing.T, users map[string]int, imports ...string) *graph.Graph {
	t.Helper()
	g := graph.New()
	add := func(id, path string, typ graph.NodeType) {
		n := graph.Node{ExternalID: id, Label: id, Type: typ}
		n.Provenance.SourcePath = path
		if _, err := g.AddNode(n); err != nil {
			t.Fatal(err)
		}
	}
	edge := func(src, rel, dst string) {
		if err := g.AddEdgeByID(src, dst, graph.Edge{Relation: rel, Weight: 1}); err != nil {
			t.Fatal(err)
		}
	}
	add("file::core.py", "core.py", graph.File)
	add("file::core.py::F", "core.py", graph.Function)
	edge("file::core.py", "contains", "file::core.py::F")
	files := make([]string, 0, len(users))
	for f := range users {
		files = append(files, f)
	}
	slices.Sort(files)
	for _, f := range files {
		add("file::"+f, f, graph.File)
		for i := range users[f] {
			fn := fmt.Sprintf("file::%s::f%d", f, i)
			add(fn, f, graph.Function)
			edge("file::"+f, "contains", fn)
			edge(fn, "calls", "file::core.py::F")
		}
	}
	for _, f := range imports {
		edge("file::"+f, "imports", "file::core.py")
	}
	g.Finalize()
	return g
}

// Among direct dependents, production code comes before tests whose
// signal is equal or near-equal (a test file's noisy-or saturates at 1.000
// once a few of its functions call the node, as uvicorn's tests of
// Config.py did, listed before main.py and server.py at 0.993); a test
// whose evidence is clearly stronger still comes first.
func TestImpactProductionBeforeTestsAtNearEqualSignal(t *testing.T) {
	tests := []struct {
		name    string
		users   map[string]int
		imports []string
		want    []string
	}{
		{
			name:  "equal signal (all saturated)",
			users: map[string]int{"tests/test_a.py": 8, "tests/test_b.py": 7, "use.py": 5},
			want:  []string{"file::use.py@1", "file::tests/test_a.py@1", "file::tests/test_b.py@1"},
		},
		{
			name:  "near-equal: production 0.99x, tests 1.000",
			users: map[string]int{"tests/test_a.py": 8, "tests/test_b.py": 7, "use.py": 2, "run.py": 3},
			want:  []string{"file::run.py@1", "file::use.py@1", "file::tests/test_a.py@1", "file::tests/test_b.py@1"},
		},
		{
			name:    "clearly stronger test first: production by import only",
			users:   map[string]int{"tests/test_a.py": 8, "use.py": 0},
			imports: []string{"use.py"},
			want:    []string{"file::tests/test_a.py@1", "file::use.py@1"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := rankGraph(t, tc.users, tc.imports...)
			res, err := Impact(g, node(t, g, "file::core.py"), DefaultImpactParams())
			if err != nil {
				t.Fatal(err)
			}
			if got := listed(g, res); !slices.Equal(got, tc.want) {
				var sig []string
				for _, b := range res.BlastRadius {
					sig = append(sig, fmt.Sprintf("%s=%.3f", g.ExternalID(b.Node), b.SignalStrength))
				}
				t.Errorf("blast radius = %v\nwant %v\nsignals %v", got, tc.want, sig)
			}
		})
	}
}
