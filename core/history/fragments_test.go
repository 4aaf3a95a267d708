package history_test

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/history"
)

// fragmentRepo: each change to wait.py adds a release note of its own
// (notes/ holds three, each written once), and one commit imported the
// vendor/ tree whole (three files written once by a single commit: not a
// convention, so not fragments).
func fragmentRepo() (*graph.Graph, []history.Commit) {
	files := []string{"src/wait.py", "src/retry.py", "notes/a.yaml", "notes/b.yaml", "notes/c.yaml", "vendor/x.py", "vendor/y.py", "vendor/z.py"}
	g := graph.New()
	for _, f := range files {
		g.AddNode(graph.Node{ExternalID: "file::" + f, Label: f, Type: graph.File, Provenance: graph.Provenance{SourcePath: f}})
	}
	g.Finalize()
	c := func(age int, fs ...string) history.Commit {
		var ids []string
		for _, f := range fs {
			ids = append(ids, "file::"+f)
		}
		return history.Commit{Hash: fmt.Sprintf("%040d", age), Time: int64(1_700_000_000 - age*day), Files: ids}
	}
	return g, []history.Commit{
		c(0, "src/wait.py", "notes/c.yaml"),
		c(1, "src/wait.py", "src/retry.py", "notes/b.yaml"),
		c(2, "src/wait.py", "src/retry.py"),
		c(3, "src/wait.py", "notes/a.yaml"),
		c(4, "vendor/x.py", "vendor/y.py", "vendor/z.py", "src/retry.py"),
	}
}

func TestFragments(t *testing.T) {
	g, cs := fragmentRepo()
	x := history.NewIndex(g, cs)
	for f, want := range map[string]bool{"notes/a.yaml": true, "src/retry.py": false, "vendor/x.py": false} {
		if got := x.IsFragment(id(g, f)); got != want {
			t.Errorf("IsFragment(%s) = %v, want %v", f, got, want)
		}
	}
	if diff := cmp.Diff(map[string]int{"notes": 3}, x.FragmentAdds(id(g, "src/wait.py"))); diff != "" {
		t.Errorf("FragmentAdds(wait.py) (-want +got):\n%s", diff)
	}
	// predict never proposes changing an old release note again.
	res, err := history.Predict(x, id(g, "src/wait.py"), history.DefaultPredictParams())
	if err != nil {
		t.Fatal(err)
	}
	for _, pr := range res.Predictions {
		if x.IsFragment(pr.Node) {
			t.Errorf("predict proposes the written-once %s", g.ExternalID(pr.Node))
		}
	}
	if len(res.Predictions) == 0 || g.ExternalID(res.Predictions[0].Node) != "file::src/retry.py" {
		t.Errorf("predict's first answer should be retry.py, got %+v", res.Predictions)
	}
}
