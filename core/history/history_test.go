package history_test

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/history"
)

const day = 86400

// repo is a small project: pool.py is imported by worker.py and tested by
// test_pool.py; config.py stands alone; README.md is not a graph node.
func repo() *graph.Graph {
	g := graph.New()
	for _, f := range []string{"src/pool.py", "src/worker.py", "src/config.py", "src/spawner.py", "tests/test_pool.py"} {
		g.AddNode(graph.Node{ExternalID: "file::" + f, Label: f, Type: graph.File, Provenance: graph.Provenance{SourcePath: f}})
	}
	g.AddNode(graph.Node{ExternalID: "dir::src", Label: "src", Type: graph.Directory})
	for _, f := range []string{"src/pool.py", "src/worker.py", "src/config.py", "src/spawner.py"} {
		g.AddEdgeByID("dir::src", "file::"+f, graph.Edge{Relation: "contains", Weight: 1})
	}
	g.AddEdgeByID("file::src/worker.py", "file::src/pool.py", graph.Edge{Relation: "imports", Weight: 1})
	g.AddEdgeByID("file::tests/test_pool.py", "file::src/pool.py", graph.Edge{Relation: "tests", Weight: 1})
	g.Finalize()
	return g
}

// commits: pool.py changed with config.py three times (long ago) and with
// spawner.py twice (lately); worker.py never changed with it.
func commits() []history.Commit {
	const head = 1_700_000_000
	c := func(age int64, files ...string) history.Commit {
		var ids []string
		for _, f := range files {
			ids = append(ids, "file::"+f)
		}
		return history.Commit{Hash: fmt.Sprintf("%040d", age), Time: head - age*day, Author: "a", Subject: "s", Files: ids}
	}
	return []history.Commit{
		c(0, "src/pool.py", "src/spawner.py"),
		c(3, "src/pool.py", "src/spawner.py", "README.md"),
		c(400, "src/pool.py", "src/config.py"),
		c(500, "src/pool.py", "src/config.py"),
		c(600, "src/pool.py", "src/config.py"),
		c(700, "src/worker.py"),
	}
}

func id(g *graph.Graph, f string) graph.NodeID { n, _ := g.Lookup("file::" + f); return n }

func TestIndex(t *testing.T) {
	g := repo()
	x := history.NewIndex(g, commits())
	if x.Len() != 6 || x.Head() != 1_700_000_000 {
		t.Fatalf("len %d head %d", x.Len(), x.Head())
	}
	if got := x.FileCommits(id(g, "src/pool.py")); !cmp.Equal(got, []int32{0, 1, 2, 3, 4}) {
		t.Errorf("pool.py commits %v", got)
	}
	if got := len(x.CommitFiles(1)); got != 2 {
		t.Errorf("commit 1 keeps %d files of the graph, want 2 (README.md is not a node)", got)
	}
	got := x.Partners(id(g, "src/pool.py"), 0, 0, 0)
	want := []history.Partner{
		{Node: id(g, "src/config.py"), Times: 3, Coupling: 0.6, Last: 1_700_000_000 - 400*day},
		{Node: id(g, "src/spawner.py"), Times: 2, Coupling: 0.4, Last: 1_700_000_000},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("partners (-want +got):\n%s", diff)
	}
	// Since a date: only the recent commits count.
	if got := x.Partners(id(g, "src/pool.py"), 1_700_000_000-30*day, 0, 0); len(got) != 1 || got[0].Coupling != 1 {
		t.Errorf("recent partners %+v", got)
	}
}

func TestPredict(t *testing.T) {
	g := repo()
	x := history.NewIndex(g, commits())
	for _, tc := range []struct {
		name          string
		velocity      bool
		before, after string
	}{
		// More joint commits outweigh fewer, recent ones, with or
		// without recency (the benchmark's tune half chose so).
		{"velocity", true, "src/config.py", "src/spawner.py"},
		{"no velocity", false, "src/config.py", "src/spawner.py"},
	} {
		p := history.DefaultPredictParams()
		p.IncludeVelocity = tc.velocity
		res, err := history.Predict(x, id(g, "src/pool.py"), p)
		if err != nil {
			t.Fatal(err)
		}
		if res.Commits != 5 || len(res.Predictions) == 0 {
			t.Fatalf("%s: %+v", tc.name, res)
		}
		seen := map[string]history.Prediction{}
		rank := map[string]int{}
		for i, pr := range res.Predictions {
			seen[g.Label(pr.Node)] = pr
			rank[g.Label(pr.Node)] = i
			for _, v := range []float64{pr.Confidence, pr.Velocity, pr.History, pr.Structure, pr.Activity} {
				if math.IsNaN(v) || v < 0 || v > 1 {
					t.Errorf("%s: %s has a score outside [0, 1]: %+v", tc.name, g.Label(pr.Node), pr)
				}
			}
		}
		if rank[tc.before] > rank[tc.after] {
			t.Errorf("%s: %s ranked after %s", tc.name, tc.before, tc.after)
		}
		// Velocity says which pair changed together lately.
		if sp, co := seen["src/spawner.py"], seen["src/config.py"]; tc.velocity && !(sp.Velocity > co.Velocity) {
			t.Errorf("velocity: recent partner %.3f not above old partner %.3f", sp.Velocity, co.Velocity)
		}
		// Structure predicts without history: the importer and the test.
		for _, f := range []string{"src/worker.py", "tests/test_pool.py"} {
			if pr, ok := seen[f]; !ok || pr.Structure == 0 || pr.CoChanges != 0 {
				t.Errorf("%s: %s should be predicted from structure: %+v", tc.name, f, pr)
			}
		}
	}
}

func TestPredictWithoutHistory(t *testing.T) {
	g := repo()
	res, err := history.Predict(history.NewIndex(g, nil), id(g, "src/pool.py"), history.DefaultPredictParams())
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, pr := range res.Predictions {
		got = append(got, g.Label(pr.Node))
	}
	if diff := cmp.Diff([]string{"tests/test_pool.py", "src/worker.py", "src/config.py", "src/spawner.py"}, got); diff != "" {
		t.Errorf("structural predictions (-want +got):\n%s", diff)
	}
}

// Files at the root have no directory node; they are each other's
// same-directory candidates all the same.
func TestPredictRootFiles(t *testing.T) {
	g := graph.New()
	for _, f := range []string{"main.go", "util.go", "sub/other.go"} {
		g.AddNode(graph.Node{ExternalID: "file::" + f, Label: f, Type: graph.File, Provenance: graph.Provenance{SourcePath: f}})
	}
	g.Finalize()
	res, err := history.Predict(history.NewIndex(g, nil), id(g, "main.go"), history.DefaultPredictParams())
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Predictions) != 1 || g.Label(res.Predictions[0].Node) != "util.go" {
		t.Errorf("root file predictions %+v", res.Predictions)
	}
}

func TestPredictBadParams(t *testing.T) {
	g := repo()
	x := history.NewIndex(g, commits())
	for _, mod := range []func(*history.PredictParams){
		func(p *history.PredictParams) { p.TopK = 0 },
		func(p *history.PredictParams) { p.Model = []float64{1, 2} },
		func(p *history.PredictParams) {
			p.Model = slices.Clone(history.DefaultModel)
			p.Model[3] = math.NaN()
		},
		func(p *history.PredictParams) { p.HalfLifeDays = 0 },
		func(p *history.PredictParams) { p.StructureHops = 9 },
	} {
		p := history.DefaultPredictParams()
		mod(&p)
		if _, err := history.Predict(x, 0, p); err == nil {
			t.Errorf("params %+v accepted", p)
		}
	}
	if _, err := history.Predict(x, graph.NodeID(999), history.DefaultPredictParams()); err == nil {
		t.Error("a node outside the graph was accepted")
	}
}

// What else changes when pool.py changes? The files it changed with (the
// more often first; recency lifts the one changed with lately close to
// it), then its test and its importer (from structure alone).
func ExamplePredict() {
	g := repo()
	x := history.NewIndex(g, commits())
	pool, _ := g.Lookup("file::src/pool.py")
	res, _ := history.Predict(x, pool, history.DefaultPredictParams())
	for _, p := range res.Predictions {
		fmt.Printf("%s %.2f %v\n", g.Label(p.Node), p.Confidence, p.Reasons)
	}
	// Output:
	// src/config.py 0.22 [changed together in 3 of 5 commits (last 2022-10-10)]
	// src/spawner.py 0.18 [changed together in 2 of 5 commits (last 2023-11-14)]
	// tests/test_pool.py 0.04 [tests/test_pool.py tests src/pool.py]
	// src/worker.py 0.01 [src/worker.py imports src/pool.py]
}

// The features behind Predict's ranking, for fitting a model of one's own
// (see tools/cmd/m1nd-cochange-tune).
func ExampleCandidates() {
	g := repo()
	x := history.NewIndex(g, commits())
	pool, _ := g.Lookup("file::src/pool.py")
	ids, feats, _ := history.Candidates(x, pool, history.DefaultPredictParams())
	fmt.Println(history.FeatureNames[8], history.FeatureNames[4])
	for i, id := range ids {
		fmt.Printf("%s %.2f %.2f\n", g.Label(id), feats[i][8], feats[i][4])
	}
	// Output:
	// conf_small structure
	// src/worker.py 0.00 0.81
	// src/config.py 0.60 0.00
	// src/spawner.py 0.40 0.00
	// tests/test_pool.py 0.00 0.76
}

func TestStem(t *testing.T) {
	for _, tc := range []struct{ path, want string }{
		{"pkg/pool.go", "pool"},
		{"pkg/pool_test.go", "pool"},
		{"tests/test_pool.py", "pool"},
		{"src/test/java/com/x/PoolTest.java", "pool"},
		{"src/pool.spec.ts", "pool"},
		{"src/pool.test.js", "pool"},
		{"tests/tests.py", "tests"},
		{"a/io.go", ""}, // too short to relate anything
		{".eslintrc.js", "eslintrc"},
	} {
		if got := history.Stem(tc.path); got != tc.want {
			t.Errorf("Stem(%q) = %q, want %q", tc.path, got, tc.want)
		}
	}
}

// A file's namesakes elsewhere in the tree are candidates: src/pool.py
// and tests/unit/test_pool.py share no directory and no history.
func TestPredictNamesakes(t *testing.T) {
	g := graph.New()
	for _, f := range []string{"src/pool.py", "tests/unit/test_pool.py", "tests/unit/test_other.py"} {
		g.AddNode(graph.Node{ExternalID: "file::" + f, Label: f, Type: graph.File, Provenance: graph.Provenance{SourcePath: f}})
	}
	g.Finalize()
	res, err := history.Predict(history.NewIndex(g, nil), id(g, "src/pool.py"), history.DefaultPredictParams())
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Predictions) != 1 || g.Label(res.Predictions[0].Node) != "tests/unit/test_pool.py" || res.Predictions[0].Reasons[0] != "same name" {
		t.Errorf("predictions %+v", res.Predictions)
	}
}
