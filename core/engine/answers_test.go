package engine

import (
	"context"
	"encoding/json"
	"os"
	"slices"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/m1nd-go/m1nd/core/activation"
	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/seed"
	"github.com/m1nd-go/m1nd/core/snapshot"
)

// answerQueries are asked in a row, learning on, so later answers also
// depend on what the earlier ones taught the graph.
var answerQueries = []string{
	"parse http request header", "tls handshake client certificate", "json encoder struct fields",
	"goroutine scheduler", "decode utf-8 string", "file path clean join", "timeout context cancel", "sort slice",
	"gzip reader", "template execute", "dns lookup resolver", "bufio scanner split",
	"reflect value call", "sql rows scan", "x509 verify chain", "regexp compile match",
	"atomic compare and swap", "os exec command", "mime multipart form", "big int exp",
	"http server handler", "json decoder token", "image png decode", "net dial timeout",
}

// TestAnswersDump writes every answer field of answerQueries on the graph
// saved at $M1ND_ANSWERS_GRAPH (e.g. a go-std snapshot) to
// $M1ND_ANSWERS_OUT as JSON, timings zeroed, with a fixed clock. Two trees'
// dumps compared byte for byte show that a speed change moved no answer.
// $M1ND_ANSWERS_TOPK (default the tool's 20) widens every answer, and
// $M1ND_ANSWERS_CAUSAL_BUDGET sets D4's budget, so a budget's effect on
// the top 100 can be shown the same way. Skipped unless both of the first
// two variables are set.
func TestAnswersDump(t *testing.T) {
	in, out := os.Getenv("M1ND_ANSWERS_GRAPH"), os.Getenv("M1ND_ANSWERS_OUT")
	if in == "" || out == "" {
		t.Skip("set M1ND_ANSWERS_GRAPH and M1ND_ANSWERS_OUT")
	}
	g, err := snapshot.Load(in)
	if err != nil {
		t.Fatal(err)
	}
	opts := DefaultOptions()
	now := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
	opts.Now = func() time.Time { return now }
	topK := envInt(t, "M1ND_ANSWERS_TOPK", 0)
	opts.Causal.Budget = envInt(t, "M1ND_ANSWERS_CAUSAL_BUDGET", opts.Causal.Budget)
	e, err := New(g, opts)
	if err != nil {
		t.Fatal(err)
	}
	var results []*Result
	for _, q := range answerQueries {
		r, err := e.Activate(context.Background(), Query{Text: q, TopK: topK, XLR: true, GhostEdges: true, StructuralHoles: true})
		if err != nil {
			t.Fatal(err)
		}
		r.Timings, r.Elapsed = Timings{}, 0
		results = append(results, r)
	}
	data, err := json.MarshalIndent(results, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(out, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// envInt reads an integer variable, def when unset.
func envInt(t testing.TB, name string, def int) int {
	v := os.Getenv(name)
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		t.Fatalf("%s=%q: want an integer (%v)", name, v, err)
	}
	return n
}

// BenchmarkActivateSnapshot times Activate as the activate tool calls it
// (XLR on, learning on, no seek seeds) on the graph saved at
// $M1ND_ANSWERS_GRAPH, cycling through answerQueries; it reports p50, p99
// and the CPU per call ($M1ND_ANSWERS_CAUSAL_BUDGET sets D4's budget).
// Skipped unless the variable is set.
func BenchmarkActivateSnapshot(b *testing.B) {
	g := answersGraph(b)
	opts := DefaultOptions()
	opts.Causal.Budget = envInt(b, "M1ND_ANSWERS_CAUSAL_BUDGET", opts.Causal.Budget)
	e, err := New(g, opts)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	durs := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	cpu0 := processCPU()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		if _, err := e.Activate(ctx, Query{Text: answerQueries[i%len(answerQueries)], XLR: true}); err != nil {
			b.Fatal(err)
		}
		durs = append(durs, time.Since(t0))
	}
	b.StopTimer()
	cpu := processCPU() - cpu0
	slices.Sort(durs)
	b.ReportMetric(float64(durs[len(durs)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(durs[len(durs)*99/100].Microseconds())/1000, "p99-ms")
	b.ReportMetric(float64(cpu.Microseconds())/1000/float64(b.N), "cpu-ms/op")
}

// processCPU is the process's user+system CPU time so far.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// TestPackedLayoutAB times D1 and XLR's seed-side work on the graph at
// $M1ND_ANSWERS_GRAPH reading the packed reverse adjacency and reading
// the CSR, interleaved call by call so that the machine's load weighs on
// both alike, and logs the median of each. Skipped unless the variable is
// set.
func TestPackedLayoutAB(t *testing.T) {
	in := os.Getenv("M1ND_ANSWERS_GRAPH")
	if in == "" {
		t.Skip("set M1ND_ANSWERS_GRAPH")
	}
	g, err := snapshot.Load(in)
	if err != nil {
		t.Fatal(err)
	}
	e, err := New(g, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	packed, plain := activation.NewPoolFor(g), activation.NewPool(g.NumNodes())
	var seeds [][]graph.Scored
	for _, q := range answerQueries {
		seeds = append(seeds, seed.Scored(e.Seeds().FindSemantic(q, 0)))
	}
	var d1p, d1c, xp, xc, d4 []time.Duration
	timed := func(f func()) time.Duration { t0 := time.Now(); f(); return time.Since(t0) }
	d1 := func(pool *activation.Pool, s []graph.Scored) func() {
		return func() { w := pool.Get(); activation.Wavefront(g, s, activation.DefaultParams(), w); pool.Put(w) }
	}
	for round := 0; round < 20; round++ {
		for i, s := range seeds {
			// Who goes first alternates: the second call finds the
			// first one's nodes in the cache.
			if (round+i)%2 == 0 {
				d1p = append(d1p, timed(d1(packed, s)))
				d1c = append(d1c, timed(d1(plain, s)))
				xp = append(xp, timed(func() { e.XLR().PrepareWith(g, packed.Importers(), s).Release() }))
				xc = append(xc, timed(func() { e.XLR().Prepare(g, s).Release() }))
			} else {
				d4 = append(d4, timed(func() { w := plain.Get(); activation.Causal(g, s, activation.DefaultCausalParams(), w); plain.Put(w) }))
				d1c = append(d1c, timed(d1(plain, s)))
				d1p = append(d1p, timed(d1(packed, s)))
				xc = append(xc, timed(func() { e.XLR().Prepare(g, s).Release() }))
				xp = append(xp, timed(func() { e.XLR().PrepareWith(g, packed.Importers(), s).Release() }))
			}
		}
	}
	med := func(d []time.Duration) time.Duration { slices.Sort(d); return d[len(d)/2] }
	t.Logf("D1 wavefront median: packed %v, CSR %v; XLR prepare median: packed %v, CSR %v (%d calls each); D4 causal median %v", med(d1p), med(d1c), med(xp), med(xc), len(d1p), med(d4))
}

// answersGraph loads the graph saved at $M1ND_ANSWERS_GRAPH, skipping b
// when the variable is not set.
func answersGraph(b *testing.B) *graph.Graph {
	in := os.Getenv("M1ND_ANSWERS_GRAPH")
	if in == "" {
		b.Skip("set M1ND_ANSWERS_GRAPH")
	}
	g, err := snapshot.Load(in)
	if err != nil {
		b.Fatal(err)
	}
	return g
}

// BenchmarkNewSnapshot times New (every index an activation reads, built
// from the graph) on the graph saved at $M1ND_ANSWERS_GRAPH: what a
// restarted server's first activate waits for. Skipped unless the
// variable is set.
func BenchmarkNewSnapshot(b *testing.B) {
	g := answersGraph(b)
	b.ResetTimer()
	cpu0 := processCPU()
	for i := 0; i < b.N; i++ {
		if _, err := New(g, DefaultOptions()); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64((processCPU()-cpu0).Microseconds())/1000/float64(b.N), "cpu-ms/op")
}
