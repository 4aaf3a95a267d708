package dynamics

import (
	"context"
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/m1nd-go/m1nd/core/graph"
)

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

// spread runs Epidemic from seed with p and checks that it predicts the
// nodes of want (by label), each with its probability; what prefixes the
// failures.
func spread(t *testing.T, g *graph.Graph, seed graph.NodeID, p EpidemicParams, what string, want map[string]float64) EpidemicResult {
	t.Helper()
	res, err := Epidemic(context.Background(), g, []graph.NodeID{seed}, p)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]float64{}
	for _, pr := range res.Predictions {
		got[g.Label(pr.Node)] = pr.Probability
	}
	if len(got) != len(want) {
		t.Errorf("%spredictions %v, want %v", what, got, want)
	}
	for k, v := range want {
		if !near(got[k], v) {
			t.Errorf("%sP(%s) = %v, want %v", what, k, got[k], v)
		}
	}
	return res
}

// Probabilities worked by hand: a chain of imports multiplies the factor
// per hop; two paths of the same length to one node combine as a union.
func TestEpidemicKnownAnswers(t *testing.T) {
	// a imports b, b calls c; a imports d, d calls c (c by two paths);
	// e inherits a (a dependent of a); f stands alone.
	g, id := build(t, []edge{
		{"a", "imports", "b"}, {"b", "calls", "c"}, {"a", "imports", "d"}, {"d", "calls", "c"},
		{"e", "inherits", "a"}, {"c", "co_changes", "x"},
	}, []string{"f"}, nil, nil)
	for _, tc := range []struct {
		name    string
		dir     Direction
		want    map[string]float64
		r0      float64
		unreach int
	}{
		{"forward", Forward, map[string]float64{
			"b": 0.8, "d": 0.8,
			"c": 1 - (1-0.8*0.7)*(1-0.8*0.7), // 0.8064
		}, 0.8 + 0.8, 2},
		// Backward from a reaches its dependent e only.
		{"backward", Backward, map[string]float64{"e": 0.6}, 0.6, 2},
		// Both ways: b also catches it on a→d→c→b when a→b failed:
		// 1 − 0.2 × (1 − 0.8 × 0.7 × 0.7) = 0.8784 (d likewise); the echo
		// b→c→b is no path. x never (co-change transmits nothing).
		{"both", Both, map[string]float64{"b": 0.8784, "d": 0.8784, "e": 0.6, "c": 0.8064}, 2.2, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := DefaultEpidemicParams()
			p.Direction = tc.dir
			res := spread(t, g, id["a"], p, "", tc.want)
			if !near(res.R0, tc.r0) {
				t.Errorf("R0 = %v, want %v", res.R0, tc.r0)
			}
			// x and f are each a component no seed is in.
			if res.UnreachableComponents != tc.unreach || res.UnreachableNodes != 2 {
				t.Errorf("unreachable %d components / %d nodes, want %d / 2", res.UnreachableComponents, res.UnreachableNodes, tc.unreach)
			}
			if res.Calibrated || res.Rate != 1 {
				t.Errorf("calibrated a 7-node graph: rate %v", res.Rate)
			}
		})
	}
}

// The strongest first contact is the one reported, and a chain's
// generation is its hop count.
func TestEpidemicViaAndGeneration(t *testing.T) {
	g, id := build(t, []edge{{"a", "references", "b"}, {"b", "calls", "c"}, {"a", "calls", "b"}}, nil, nil, nil)
	p := DefaultEpidemicParams()
	p.Direction = Forward
	res, err := Epidemic(context.Background(), g, []graph.NodeID{id["a"]}, p)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Predictions) != 2 {
		t.Fatalf("predictions %+v", res.Predictions)
	}
	b, c := res.Predictions[0], res.Predictions[1]
	// a→b by calls (0.7) and by references (0.4): 1 − 0.3 × 0.6 = 0.82.
	if g.Label(b.Node) != "b" || !near(b.Probability, 0.82) || b.Generation != 1 || b.Relation != "calls" {
		t.Errorf("b: %+v", b)
	}
	if g.Label(c.Node) != "c" || !near(c.Probability, 0.82*0.7) || c.Generation != 2 || c.Via != id["b"] {
		t.Errorf("c: %+v", c)
	}
}

// A clique of imports infects everything at rate 1: the rate is halved
// until at most 80 % of the graph is infected.
func TestEpidemicBurnoutCalibrates(t *testing.T) {
	var edges []edge
	names := []string{"n0", "n1", "n2", "n3", "n4", "n5", "n6", "n7", "n8", "n9", "n10", "n11"}
	for _, a := range names {
		for _, b := range names {
			if a != b {
				edges = append(edges, edge{a, "imports", b})
			}
		}
	}
	g, id := build(t, edges, nil, nil, nil)
	p := DefaultEpidemicParams()
	res, err := Epidemic(context.Background(), g, []graph.NodeID{id["n0"]}, p)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Calibrated || res.Rate >= 1 {
		t.Fatalf("no calibration: %+v", res)
	}
	if float64(res.Infected) > BurnoutFraction*11 {
		t.Errorf("still burnt out: %d of 11 infected", res.Infected)
	}
	// A threshold no rate can stay above: burnout is an error.
	p.PromotionThreshold = 0
	if _, err := Epidemic(context.Background(), g, []graph.NodeID{id["n0"]}, p); !errors.Is(err, ErrEpidemicBurnout) {
		t.Errorf("threshold 0: err %v, want ErrEpidemicBurnout", err)
	}
}

func TestEpidemicNoValidSeeds(t *testing.T) {
	g, id := build(t, []edge{{"d", "contains", "a"}}, nil, map[string]graph.NodeType{"d": graph.Directory}, nil)
	for _, seeds := range [][]graph.NodeID{nil, {graph.NoNode}, {id["d"]}} {
		if _, err := Epidemic(context.Background(), g, seeds, DefaultEpidemicParams()); !errors.Is(err, ErrNoValidInfectedNodes) {
			t.Errorf("seeds %v: err %v", seeds, err)
		}
	}
}

// A long chain spreads one hop per step; the iteration cap stops it, and
// every prediction is the product of the factors along the way.
func TestEpidemicIterationCap(t *testing.T) {
	var edges []edge
	for i := 0; i < 30; i++ {
		edges = append(edges, edge{fmt.Sprint("n", i), "calls", fmt.Sprint("n", i+1)})
	}
	g, id := build(t, edges, nil, nil, nil)
	p := DefaultEpidemicParams()
	p.Direction, p.Iterations = Forward, 5
	res, err := Epidemic(context.Background(), g, []graph.NodeID{id["n0"]}, p)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Predictions) != 5 || res.Iterations != 5 || res.Truncated {
		t.Fatalf("%+v", res)
	}
	for i, pr := range res.Predictions {
		if want := math.Pow(0.7, float64(i+1)); !near(pr.Probability, want) || pr.Generation != i+1 {
			t.Errorf("n%d: %v (generation %d), want %v", i+1, pr.Probability, pr.Generation, want)
		}
	}
}

// A Go file imports a package's directory: the import reaches each file
// the directory holds, and a file's importers are its directory's; the
// directory itself is never a prediction. A README beside the code is
// not imported with it and passes nothing to the importers (sqlx's
// reflectx/README.md was named as what infected sqlx_test.go).
func TestEpidemicThroughDirectories(t *testing.T) {
	types := map[string]graph.NodeType{"lib": graph.Directory, "main.go": graph.File, "lib.go": graph.File, "more.go": graph.File, "README.md": graph.File}
	g, id := build(t, []edge{{"main.go", "imports", "lib"}, {"lib", "contains", "lib.go"}, {"lib", "contains", "more.go"}, {"lib", "contains", "README.md"}},
		nil, types, map[string][]string{"README.md": {"md", "doc"}})
	for _, tc := range []struct {
		seed string
		dir  Direction
		want map[string]float64
	}{
		{"main.go", Forward, map[string]float64{"lib.go": 0.8, "more.go": 0.8}},
		{"lib.go", Backward, map[string]float64{"main.go": 0.8}},
		// Both ways from lib.go: main.go, then back into more.go.
		{"lib.go", Both, map[string]float64{"main.go": 0.8, "more.go": 0.64}},
		{"README.md", Backward, map[string]float64{}},
	} {
		p := DefaultEpidemicParams()
		p.Direction = tc.dir
		spread(t, g, id[tc.seed], p, fmt.Sprintf("%s %v: ", tc.seed, tc.dir), tc.want)
	}
}

// A recovered node neither catches nor passes the defect: with d immune,
// c is reached through b alone (0.8 × 0.7) and R0 counts b only.
func TestEpidemicImmune(t *testing.T) {
	g, id := build(t, []edge{
		{"a", "imports", "b"}, {"b", "calls", "c"}, {"a", "imports", "d"}, {"d", "calls", "c"},
	}, nil, nil, nil)
	p := DefaultEpidemicParams()
	p.Direction = Forward
	p.Immune = []graph.NodeID{id["d"]}
	res := spread(t, g, id["a"], p, "", map[string]float64{"b": 0.8, "c": 0.8 * 0.7})
	if !near(res.R0, 0.8) {
		t.Errorf("R0 = %v, want 0.8", res.R0)
	}
}

// Components built once answer as the per-call ones do.
func TestEpidemicComponentsKept(t *testing.T) {
	g, id := build(t, []edge{
		{"a", "imports", "b"}, {"b", "calls", "c"}, {"e", "inherits", "a"}, {"c", "co_changes", "x"}, {"y", "calls", "z"},
	}, []string{"f"}, nil, nil)
	p := DefaultEpidemicParams()
	fresh, err := Epidemic(context.Background(), g, []graph.NodeID{id["a"]}, p)
	if err != nil {
		t.Fatal(err)
	}
	p.Components = NewComponents(g)
	kept, err := Epidemic(context.Background(), g, []graph.NodeID{id["a"]}, p)
	if err != nil {
		t.Fatal(err)
	}
	// x (co-change only), f, and y–z are three parts without the seed.
	if fresh.UnreachableComponents != 3 || fresh.UnreachableNodes != 4 ||
		kept.UnreachableComponents != fresh.UnreachableComponents || kept.UnreachableNodes != fresh.UnreachableNodes {
		t.Errorf("unreachable: fresh %d/%d, kept %d/%d, want 3/4", fresh.UnreachableComponents, fresh.UnreachableNodes, kept.UnreachableComponents, kept.UnreachableNodes)
	}
}
