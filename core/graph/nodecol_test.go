package graph_test

import (
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/graph/graphtest"
)

func nodesOf(g *graph.Graph) []graph.Node {
	out := make([]graph.Node, g.NumNodes())
	for i := range out {
		out[i] = g.Node(graph.NodeID(i))
	}
	return out
}

// rewriteNode changes every attribute of node ext of g but its external
// ID and adds a node named added: the writes a merge makes.
func rewriteNode(t *testing.T, g *graph.Graph, ext, added string) {
	t.Helper()
	n := g.Node(mustLookup(g, ext))
	n.Label, n.Type = "rewritten", n.Type+1
	n.Tags = append(n.Tags, "rewritten")
	n.Provenance.SourcePath, n.Provenance.Excerpt, n.Provenance.LineEnd = "elsewhere", "rewritten", 99
	if _, created, err := g.UpsertNode(n); err != nil || created {
		t.Fatalf("upsert %q: created %v, %v", ext, created, err)
	}
	if _, err := g.AddNode(graph.Node{ExternalID: added, Label: "added", Tags: []string{"t0"}}); err != nil {
		t.Fatal(err)
	}
}

// TestSplicedNodesCopyOnWrite splices graphs again and again sharing the
// runs of node attributes the splices keep, from bases finalized, cloned
// (a column nothing froze) and loaded: each result's nodes are those of a
// splice that copies everything; the base a reader holds is unchanged by
// the splice (read during it), and by a write to the result; the result
// is unchanged by a write to the base; splices do share, the column gets
// into pieces and never holds more than twice its size.
func TestSplicedNodesCopyOnWrite(t *testing.T) {
	loaded := func(g *graph.Graph) *graph.Graph {
		raw, err := g.ToRaw()
		if err != nil {
			t.Fatal(err)
		}
		l, err := graph.FromRaw(raw)
		if err != nil {
			t.Fatal(err)
		}
		return l
	}
	for _, base := range []struct {
		name string
		make func(*graph.Graph) *graph.Graph
	}{
		{"finalized", func(g *graph.Graph) *graph.Graph { return g }},
		{"clone", (*graph.Graph).Clone},
		{"loaded", loaded},
	} {
		t.Run(base.name, func(t *testing.T) {
			for seed := uint64(1); seed <= 10; seed++ {
				r := rand.New(rand.NewPCG(seed, 30))
				g0, _ := fileGraph(r, 40)
				shared, copied := base.make(g0), g0.Clone()
				sharedSteps, pieces := 0, 0
				for step := range 24 {
					at := fmt.Sprintf("seed %d step %d", seed, step)
					sp := chainSplice(r, shared, step)
					before := nodesOf(shared)
					var wg sync.WaitGroup
					wg.Go(func() { nodesOf(shared) }) // a reader of the base
					restore := graph.SetAttrMinShare(3)
					next, _, err := shared.Spliced(sp)
					restore()
					wg.Wait()
					if err != nil {
						t.Fatalf("%s: %v", at, err)
					}
					restore = graph.SetAttrMinShare(1 << 30)
					want, _, err := copied.Spliced(sp)
					restore()
					if err != nil {
						t.Fatalf("%s, copied: %v", at, err)
					}
					if d := cmp.Diff(nodesOf(want), nodesOf(next)); d != "" {
						t.Fatalf("%s: shared splice's nodes differ from a copying one's (-copied +shared):\n%s", at, d)
					}
					if d := cmp.Diff(before, nodesOf(shared)); d != "" {
						t.Fatalf("%s: the splice changed its base (-before +after):\n%s", at, d)
					}
					if graph.NodesShared(shared, next) {
						sharedSteps++
					}
					pieces = max(pieces, graph.NodePieces(next))
					if got, limit := graph.NodeRetained(next), 2*next.NumNodes()+3; got > limit {
						t.Fatalf("%s: the column holds %d entries, more than %d", at, got, limit)
					}
					// A write to the base leaves the result as it was...
					kept := next.ExternalID(graph.NodeID(r.IntN(next.NumNodes())))
					if _, ok := shared.Lookup(kept); ok {
						held := nodesOf(next)
						rewriteNode(t, shared, kept, fmt.Sprintf("base%d", step))
						if d := cmp.Diff(held, nodesOf(next)); d != "" {
							t.Fatalf("%s: a write to the base changed the splice (-before +after):\n%s", at, d)
						}
					}
					// ...and a write to the result, every few steps (the
					// others let pieces accumulate), the base.
					if step%4 == 3 {
						held := nodesOf(shared)
						rewriteNode(t, next, kept, fmt.Sprintf("next%d", step))
						rewriteNode(t, want, kept, fmt.Sprintf("next%d", step))
						if d := cmp.Diff(held, nodesOf(shared)); d != "" {
							t.Fatalf("%s: a write to the splice changed its base (-before +after):\n%s", at, d)
						}
						next.Finalize()
						want.Finalize()
						if d := cmp.Diff(nodesOf(want), nodesOf(next)); d != "" {
							t.Fatalf("%s: written splice differs from the written copy (-copied +shared):\n%s", at, d)
						}
					}
					shared, copied = next, want
				}
				if sharedSteps < 12 {
					t.Fatalf("seed %d: only %d of 24 splices shared the base's node attributes", seed, sharedSteps)
				}
				if pieces < 3 {
					t.Fatalf("seed %d: the column was never in more than %d pieces", seed, pieces)
				}
			}
		})
	}
}

// BenchmarkNodeAttrRead reads every node's type, label and tags, as an
// index build does, on a graph built whole (one flat column) and on the
// same graph after eight splices (a column in pieces).
func BenchmarkNodeAttrRead(b *testing.B) {
	g := graphtest.PowerLaw(100_000, 300_000, 1)
	spliced := splicedEightTimes(b, g)
	for _, c := range []struct {
		name string
		g    *graph.Graph
	}{{"flat", g}, {"spliced", spliced}} {
		b.Run(c.name, func(b *testing.B) {
			sum := 0
			for b.Loop() {
				for i := range c.g.NumNodes() {
					id := graph.NodeID(i)
					if c.g.Type(id) != graph.File {
						sum += int(c.g.LabelStr(id)) + len(c.g.TagStrs(id))
					}
				}
			}
			b.ReportMetric(float64(graph.NodePieces(c.g)), "pieces")
			if sum < 0 {
				b.Fatal(sum)
			}
		})
	}
}
