package history_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/history"
)

// setRepo: a, b and c changed together twice; a and d once each with a
// and b apart; e only ever alone.
func setRepo() (*graph.Graph, *history.Index) {
	g := graph.New()
	for _, f := range []string{"a.go", "b.go", "c.go", "d.go", "e.go"} {
		g.AddNode(graph.Node{ExternalID: "file::" + f, Label: f, Type: graph.File, Provenance: graph.Provenance{SourcePath: "p/" + f}})
	}
	g.Finalize()
	const head = 1_700_000_000
	c := func(age int64, fs ...string) history.Commit {
		var ids []string
		for _, f := range fs {
			ids = append(ids, "file::"+f)
		}
		return history.Commit{Hash: "h", Time: head - age*day, Files: ids}
	}
	return g, history.NewIndex(g, []history.Commit{
		c(1, "a.go", "b.go", "c.go"),
		c(2, "a.go", "d.go"),
		c(3, "b.go", "d.go"),
		c(4, "a.go", "b.go", "c.go"),
		c(5, "e.go"),
	})
}

func TestPredictKnown(t *testing.T) {
	g, x := setRepo()
	n := func(f string) graph.NodeID { id, _ := g.Lookup("file::" + f); return id }
	names := func(r history.PredictResult) []string {
		var s []string
		for _, p := range r.Predictions {
			s = append(s, g.Label(p.Node))
		}
		return s
	}
	p := history.DefaultPredictParams()
	p.TopK = 3
	for _, tc := range []struct {
		name string
		k    history.Known
		want []string
	}{
		// The set {a, b}: c changed with both together, d with each apart.
		{"set", history.Known{Changed: []graph.NodeID{n("a.go"), n("b.go")}}, []string{"c.go", "d.go", "e.go"}},
		// The task names e, which history alone never would rank first.
		{"task", history.Known{Changed: []graph.NodeID{n("a.go")}, Task: []graph.NodeID{n("e.go")}}, []string{"e.go", "b.go", "c.go"}},
		// With the task alone, its files are the only candidates.
		{"task only", history.Known{Task: []graph.NodeID{n("d.go"), n("e.go")}}, []string{"d.go", "e.go"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := history.PredictKnown(x, tc.k, p, history.DefaultFusion)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, names(res)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			for i, pr := range res.Predictions {
				if pr.Confidence < 0 || pr.Confidence > 1 {
					t.Errorf("%s: confidence %v", g.Label(pr.Node), pr.Confidence)
				}
				if i > 0 && pr.Confidence > res.Predictions[i-1].Confidence {
					t.Errorf("%s ranked below %s with a higher confidence (%v > %v)", g.Label(pr.Node), g.Label(res.Predictions[i-1].Node), pr.Confidence, res.Predictions[i-1].Confidence)
				}
			}
		})
	}
	// One changed file and no task: Predict's own answer.
	one, _ := history.PredictKnown(x, history.Known{Changed: []graph.NodeID{n("a.go")}}, p, history.DefaultFusion)
	want, _ := history.Predict(x, n("a.go"), p)
	if diff := cmp.Diff(want, one); diff != "" {
		t.Errorf("one file (-Predict +PredictKnown):\n%s", diff)
	}
}

func TestPredictKnownErrors(t *testing.T) {
	_, x := setRepo()
	p := history.DefaultPredictParams()
	many := make([]graph.NodeID, history.MaxKnownChanged+1)
	for _, tc := range []struct {
		name string
		k    history.Known
		w    history.FusionWeights
	}{
		{"nothing", history.Known{}, history.DefaultFusion},
		{"too many", history.Known{Changed: many}, history.DefaultFusion},
		{"bad node", history.Known{Changed: []graph.NodeID{999}, Task: []graph.NodeID{0}}, history.DefaultFusion},
		{"negative weight", history.Known{Changed: []graph.NodeID{0}}, history.FusionWeights{K: -1}},
	} {
		if _, err := history.PredictKnown(x, tc.k, p, tc.w); err == nil {
			t.Errorf("%s: no error", tc.name)
		}
	}
}
