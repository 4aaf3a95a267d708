package plasticity

import (
	"math"
	"testing"

	"github.com/m1nd-go/m1nd/core/graph"
)

// edgeSpec is a test edge between named nodes.
type edgeSpec struct {
	src, dst, rel string
	w             float32
}

// build makes a finalized graph whose nodes have external IDs "n:<name>"
// and labels <name>, added in the order given.
func build(t testing.TB, names []string, edges []edgeSpec) *graph.Graph {
	t.Helper()
	g := graph.New()
	for _, n := range names {
		if _, err := g.AddNode(graph.Node{ExternalID: "n:" + n, Label: n, Type: graph.File}); err != nil {
			t.Fatal(err)
		}
	}
	for _, e := range edges {
		rel := e.rel
		if rel == "" {
			rel = "imports"
		}
		if err := g.AddEdgeByID("n:"+e.src, "n:"+e.dst, graph.Edge{Relation: rel, Weight: e.w, CausalStrength: 0.5}); err != nil {
			t.Fatal(err)
		}
	}
	g.Finalize()
	return g
}

func id(t testing.TB, g *graph.Graph, name string) graph.NodeID {
	t.Helper()
	n, ok := g.Lookup("n:" + name)
	if !ok {
		t.Fatalf("no node %q", name)
	}
	return n
}

func edge(t testing.TB, g *graph.Graph, src, dst string) graph.EdgeIdx {
	t.Helper()
	e, ok := g.FindEdgeByName(id(t, g, src), id(t, g, dst), "imports")
	if !ok {
		t.Fatalf("no edge %s -> %s", src, dst)
	}
	return e
}

func weight(t testing.TB, g *graph.Graph, src, dst string) float32 {
	t.Helper()
	return g.Weight(edge(t, g, src, dst))
}

func newEngine(t testing.TB) *Engine {
	t.Helper()
	e, err := New(DefaultParams())
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func scored(t testing.TB, g *graph.Graph, pairs ...any) []graph.Scored {
	t.Helper()
	var out []graph.Scored
	for i := 0; i < len(pairs); i += 2 {
		out = append(out, graph.Scored{Node: id(t, g, pairs[i].(string)), Score: float32(pairs[i+1].(float64))})
	}
	return out
}

func near(a, b float32) bool { return math.Abs(float64(a-b)) <= 1e-5 }

// spread is a tiny two-hop spreading activation (forward edges, decay 0.55,
// scatter-max) used to observe how learning changes rankings.
func spread(g *graph.Graph, seed graph.NodeID) map[graph.NodeID]float32 {
	act := map[graph.NodeID]float32{seed: 1}
	frontier := []graph.NodeID{seed}
	for depth := 0; depth < 2; depth++ {
		var next []graph.NodeID
		for _, s := range frontier {
			lo, hi := g.OutRange(s)
			for e := lo; e < hi; e++ {
				t := g.Target(e)
				v := act[s] * g.Weight(e) * 0.55
				if v > act[t] {
					act[t] = v
					next = append(next, t)
				}
			}
		}
		frontier = next
	}
	return act
}
