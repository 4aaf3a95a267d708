package graph_test

import (
	"fmt"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/graph/graphtest"
)

var sizes = []struct{ nodes, edges int }{{10_000, 26_000}, {500_000, 1_500_000}}

// staged returns an unfinalized copy of a synthetic graph's nodes and edges.
func staged(src *graph.Graph) *graph.Graph {
	g := graph.NewWithCapacity(src.NumNodes(), src.NumEdges())
	if err := g.Merge(src); err != nil {
		panic(err)
	}
	return g
}

// BenchmarkFinalize measures sorting, CSR construction, reverse CSR,
// PageRank and indexes — everything Finalize does.
func BenchmarkFinalize(b *testing.B) {
	for _, sz := range sizes {
		src := graphtest.PowerLaw(sz.nodes, sz.edges, 1)
		b.Run(fmt.Sprintf("%dn_%de", sz.nodes, sz.edges), func(b *testing.B) {
			for b.Loop() {
				b.StopTimer()
				g := staged(src)
				b.StartTimer()
				g.Finalize()
			}
		})
	}
}

// BenchmarkBuildFinalize is AddNode/AddEdge for every element plus Finalize.
func BenchmarkBuildFinalize(b *testing.B) {
	for _, sz := range sizes {
		b.Run(fmt.Sprintf("%dn_%de", sz.nodes, sz.edges), func(b *testing.B) {
			for b.Loop() {
				graphtest.PowerLaw(sz.nodes, sz.edges, 1)
			}
		})
	}
}

// BenchmarkHeap reports the live heap a finalized graph holds, per node and
// per CSR edge.
func BenchmarkHeap(b *testing.B) {
	for _, sz := range sizes {
		b.Run(fmt.Sprintf("%dn_%de", sz.nodes, sz.edges), func(b *testing.B) {
			var g *graph.Graph
			var used uint64
			for b.Loop() {
				var m0, m1 runtime.MemStats
				runtime.GC()
				runtime.ReadMemStats(&m0)
				g = graphtest.PowerLaw(sz.nodes, sz.edges, 1)
				runtime.GC()
				runtime.ReadMemStats(&m1)
				used = m1.HeapAlloc - m0.HeapAlloc
			}
			b.ReportMetric(float64(used)/(1<<20), "heapMB")
			b.ReportMetric(float64(used)/float64(g.NumNodes()), "B/node")
			b.ReportMetric(float64(used)/float64(g.NumEdges()), "B/edge")
			runtime.KeepAlive(g)
		})
	}
}

// BenchmarkSpliced replaces 20 nodes in the middle of a finalized graph
// (the same nodes again) and their outgoing edges: what an incremental
// re-ingest of one edited file asks of the graph.
func BenchmarkSpliced(b *testing.B) {
	for _, sz := range sizes {
		g := graphtest.PowerLaw(sz.nodes, sz.edges, 1)
		lo, hi := graph.NodeID(sz.nodes/2), graph.NodeID(sz.nodes/2+20)
		var nodes []graph.Node
		var adds []graph.SpliceEdge
		for id := lo; id < hi; id++ {
			nodes = append(nodes, g.Node(id))
			elo, ehi := g.OutRange(id)
			for e := elo; e < ehi; e++ {
				if !g.IsMirror(e) {
					adds = append(adds, graph.SpliceEdge{Source: g.ExternalID(id), Target: g.ExternalID(g.Target(e)),
						Edge: graph.Edge{Relation: g.RelationName(e), Weight: g.Weight(e), Direction: g.EdgeDirection(e), CausalStrength: g.CausalStrength(e)}})
				}
			}
		}
		sp := graph.Splice{
			Ranges:       []graph.NodeRange{{Lo: lo, Hi: hi, Nodes: nodes}},
			DropEdge:     func(s, _ graph.NodeID, _ graph.Str) bool { return s >= lo && s < hi },
			AddEdges:     adds,
			FreshWeights: true,
		}
		run := func(name string, sp graph.Splice) {
			b.Run(name, func(b *testing.B) {
				cpu0 := cpuTime()
				for b.Loop() {
					if _, _, err := g.Spliced(sp); err != nil {
						b.Fatal(err)
					}
				}
				// CPU of the process (GC included) per splice: steadier
				// than wall time on a shared machine.
				b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/1000/float64(b.N), "cpu-ms/op")
			})
		}
		run(fmt.Sprintf("%dn_%de", sz.nodes, sz.edges), sp)
		// The same splice telling Spliced which edges DropEdge may drop.
		sp.AskSources = make([]bool, g.NumNodes())
		for id := lo; id < hi; id++ {
			sp.AskSources[id] = true
		}
		run(fmt.Sprintf("%dn_%de_ask", sz.nodes, sz.edges), sp)
	}
}

// cpuTime is the user and system CPU time of the process so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
