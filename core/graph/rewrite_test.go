package graph_test

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/graph/graphtest"
)

type edgeKey struct {
	Src, Dst, Rel string
	Weight        float32
	Strengthen    uint16
}

func edgeSet(g *graph.Graph) []edgeKey {
	var out []edgeKey
	for e := 0; e < g.NumEdges(); e++ {
		ei := graph.EdgeIdx(e)
		out = append(out, edgeKey{g.ExternalID(g.Source(ei)), g.ExternalID(g.Target(ei)), g.RelationName(ei), g.Weight(ei), g.EdgePlasticity().Strengthen[e]})
	}
	sort.Slice(out, func(i, j int) bool {
		return fmt.Sprint(out[i]) < fmt.Sprint(out[j])
	})
	return out
}

// Rewritten drops nodes with their edges and renames the rest, keeping
// every kept edge's weight and learning state.
func TestRewritten(t *testing.T) {
	for seed := uint64(1); seed <= 20; seed++ {
		g := graphtest.PowerLaw(300, 900, seed)
		for e := 0; e < g.NumEdges(); e += 7 {
			g.AtomicWriteWeight(graph.EdgeIdx(e), 2.5)
			g.EdgePlasticity().Strengthen[e] = 3
		}
		drop := func(id graph.NodeID) bool { return id%3 == 1 }
		rename := func(id graph.NodeID) (string, string) {
			if id%5 == 0 {
				return "ns::" + g.ExternalID(id), "ns/" + g.Provenance(id).SourcePath
			}
			return "", ""
		}
		h, err := g.Rewritten(graph.Rewrite{Drop: drop, Rename: rename})
		if err != nil {
			t.Fatal(err)
		}
		name := func(id graph.NodeID) string {
			if e, _ := rename(id); e != "" {
				return e
			}
			return g.ExternalID(id)
		}
		var want []edgeKey
		for _, e := range edgeSet(g) {
			src, _ := g.Lookup(e.Src)
			dst, _ := g.Lookup(e.Dst)
			if drop(src) || drop(dst) {
				continue
			}
			e.Src, e.Dst = name(src), name(dst)
			want = append(want, e)
		}
		sort.Slice(want, func(i, j int) bool { return fmt.Sprint(want[i]) < fmt.Sprint(want[j]) })
		if d := cmp.Diff(want, edgeSet(h)); d != "" {
			t.Fatalf("seed %d edges differ:\n%s", seed, d)
		}
		if h.NumNodes() != 200 {
			t.Fatalf("seed %d: %d nodes kept, want 200", seed, h.NumNodes())
		}
		for i := 0; i < h.NumNodes(); i++ {
			id := graph.NodeID(i)
			if strings.HasPrefix(h.ExternalID(id), "ns::") != strings.HasPrefix(h.Provenance(id).SourcePath, "ns/") {
				t.Fatalf("node %s: source path %q not renamed with it", h.ExternalID(id), h.Provenance(id).SourcePath)
			}
		}
	}
}

func TestRewrittenRefusesDuplicateIDs(t *testing.T) {
	g := graphtest.PowerLaw(20, 40, 1)
	if _, err := g.Rewritten(graph.Rewrite{Rename: func(graph.NodeID) (string, string) { return "same", "" }}); err == nil {
		t.Fatal("two nodes renamed to one external ID were accepted")
	}
}
