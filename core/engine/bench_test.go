package engine

import (
	"context"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/graph/graphtest"
)

// benchQueries mix single words, identifiers and multi-word questions over
// the synthetic graph's vocabulary, plus one that matches nothing.
var benchQueries = []string{
	"auth", "session handler", "cache_validate", "OrderService", "payment invoice",
	"stream parser", "user token refresh", "encode decode", "src/router_queue_96.py",
	"metrics worker", "schema model view", "how does login work",
}

type benchEnv struct {
	once sync.Once
	g    *graph.Graph
	e    *Engine
	err  error
}

var benchEnvs = map[string]*benchEnv{"10K": {}, "500K": {}}

// env builds (once per process) the power-law graph and its engine:
// 10K nodes / 26K edges, or 500K nodes / 1.5M edges.
func env(b *testing.B, size string) *Engine {
	be := benchEnvs[size]
	be.once.Do(func() {
		n, m := 10_000, 26_000
		if size == "500K" {
			n, m = 500_000, 1_500_000
		}
		t0 := time.Now()
		be.g = graphtest.PowerLaw(n, m, 1)
		t1 := time.Now()
		be.e, be.err = New(be.g, DefaultOptions())
		b.Logf("%s: graph %d nodes / %d CSR entries generated in %v, engine built in %v", size, be.g.NumNodes(), be.g.NumEdges(), t1.Sub(t0), time.Since(t1))
	})
	if be.err != nil {
		b.Fatal(be.err)
	}
	return be.e
}

// BenchmarkActivate runs Activate with all four dimensions and top_k 20,
// with and without XLR and learning, and reports the p50 and p99 latency
// over the iterations plus the mean time of each stage.
func BenchmarkActivate(b *testing.B) {
	for _, size := range []string{"10K", "500K"} {
		for _, c := range []struct {
			name       string
			xlr, learn bool
		}{{"xlr", true, false}, {"plain", false, false}, {"xlr+learn", true, true}} {
			// Learning last: it rewrites the shared graph's weights (decay
			// shrinks the activated region), which would flatter the
			// variants measured after it.
			b.Run(size+"/"+c.name, func(b *testing.B) {
				e := env(b, size)
				ctx := context.Background()
				durs := make([]time.Duration, 0, b.N)
				var st Timings
				b.ReportAllocs()
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					q := Query{Text: benchQueries[i%len(benchQueries)], TopK: 20, XLR: c.xlr, NoLearn: !c.learn}
					t0 := time.Now()
					r, err := e.Activate(ctx, q)
					durs = append(durs, time.Since(t0))
					if err != nil {
						b.Fatal(err)
					}
					st.Seeds += r.Timings.Seeds
					st.Structural += r.Timings.Structural
					st.Semantic += r.Timings.Semantic
					st.Temporal += r.Timings.Temporal
					st.Causal += r.Timings.Causal
					st.Merge += r.Timings.Merge
					st.XLR += r.Timings.XLR
					st.Plasticity += r.Timings.Plasticity
				}
				b.StopTimer()
				slices.Sort(durs)
				ms := func(d time.Duration) float64 { return float64(d) / 1e6 }
				pct := func(p float64) time.Duration { return durs[min(len(durs)-1, int(p*float64(len(durs))))] }
				b.ReportMetric(ms(pct(0.50)), "p50-ms")
				b.ReportMetric(ms(pct(0.99)), "p99-ms")
				n := float64(b.N)
				for _, s := range []struct {
					name string
					d    time.Duration
				}{
					{"seeds", st.Seeds}, {"d1", st.Structural}, {"d2", st.Semantic}, {"d3", st.Temporal},
					{"d4", st.Causal}, {"merge", st.Merge}, {"xlr", st.XLR}, {"learn", st.Plasticity},
				} {
					b.ReportMetric(ms(s.d)/n, s.name+"-ms")
				}
			})
		}
	}
}

// BenchmarkHeap reports the live heap of the 10K-node / 26K-edge graph
// together with every index the engine builds for it (seeds, trigram
// TF-IDF, co-occurrence PPMI, temporal and co-change), after one query so
// lazily built state is included. The original implementation was
// reported at ~15 MB.
func BenchmarkHeap(b *testing.B) {
	var used uint64
	for b.Loop() {
		var m0, m1 runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&m0)
		g := graphtest.PowerLaw(10_000, 26_000, 1)
		e, err := New(g, DefaultOptions())
		if err != nil {
			b.Fatal(err)
		}
		if _, err := e.Activate(context.Background(), Query{Text: "session handler", TopK: 20, XLR: true}); err != nil {
			b.Fatal(err)
		}
		// Two collections: per-query scratch parked in sync.Pools survives
		// the first (victim cache); it is not part of the indexes.
		runtime.GC()
		runtime.GC()
		runtime.ReadMemStats(&m1)
		used = m1.HeapAlloc - m0.HeapAlloc
		runtime.KeepAlive(e)
	}
	b.ReportMetric(float64(used)/(1<<20), "heapMB")
}
