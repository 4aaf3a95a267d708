package seek

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/graph/graphtest"
	"github.com/m1nd-go/m1nd/core/testcorpus"
)

// benchQueries are the shapes seek sees: a few words, a sentence of
// intent, and a pasted bug report of a few kilobytes with a stack trace.
func benchQueries(g *graph.Graph) map[string]string {
	var files []string
	for i := 0; i < g.NumNodes() && len(files) < 6; i += 97 {
		if g.Type(graph.NodeID(i)) == graph.File {
			files = append(files, g.SourcePath(graph.NodeID(i)))
		}
	}
	var b strings.Builder
	b.WriteString("Session tokens are not invalidated after logout\n\n")
	for b.Len() < 2500 {
		b.WriteString("When a user logs out the cache still holds the session token and the router keeps accepting it; the worker queue replays stale events, and the payment handler validates the invoice against an expired schema. ")
	}
	b.WriteString("\n\nTraceback (most recent call last):\n")
	for i, f := range files {
		fmt.Fprintf(&b, "  File \"/srv/app/%s\", line %d, in handler_%d\n    result = validate_session(token)\n", f, 10+i*7, i)
	}
	b.WriteString("KeyError: 'token'\n")
	return map[string]string{
		"words":     "session token cache",
		"intent":    "code that validates the user session token before routing the request",
		"bugreport": b.String(),
	}
}

// percentile returns the p-th percentile (0..1) of sorted durations.
func percentile(d []time.Duration, p float64) time.Duration {
	if len(d) == 0 {
		return 0
	}
	return d[min(len(d)-1, int(p*float64(len(d))))]
}

// BenchmarkSearch10K times seek on a 10K-node power-law graph (the size
// of the py-335 corpus's graph), per query shape, with and without graph
// fusion; p50/p99 are reported besides the mean.
func BenchmarkSearch10K(b *testing.B) {
	g := graphtest.PowerLaw(10000, 40000, 42)
	x, err := Build(context.Background(), g, DefaultOptions())
	if err != nil {
		b.Fatal(err)
	}
	qs := benchQueries(g)
	for _, name := range []string{"words", "intent", "bugreport"} {
		q := qs[name]
		for _, rerank := range []bool{true, false} {
			b.Run(fmt.Sprintf("%s/rerank=%v", name, rerank), func(b *testing.B) {
				p := Params{TopK: 20, GraphRerank: rerank, MinScore: 0.1}
				x.SearchText(q, p) // warm the scratch pool
				times := make([]time.Duration, 0, b.N)
				b.ReportAllocs()
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					t := time.Now()
					r := x.SearchText(q, p)
					times = append(times, time.Since(t))
					if len(r.Hits) == 0 {
						b.Fatal("no hits")
					}
				}
				b.StopTimer()
				slices.Sort(times)
				b.ReportMetric(float64(percentile(times, 0.5).Microseconds()), "p50-µs")
				b.ReportMetric(float64(percentile(times, 0.99).Microseconds()), "p99-µs")
			})
		}
	}
}

// BenchmarkBuild10K times building the index of the 10K graph (labels,
// paths, excerpts; no source bodies).
func BenchmarkBuild10K(b *testing.B) {
	g := graphtest.PowerLaw(10000, 40000, 42)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := Build(context.Background(), g, DefaultOptions()); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkParseQuery times parsing a pasted bug report.
func BenchmarkParseQuery(b *testing.B) {
	q := benchQueries(graphtest.PowerLaw(2000, 6000, 1))["bugreport"] + testcorpus.PythonTrace + testcorpus.GoTrace + testcorpus.JavaTrace + testcorpus.JSTrace
	b.SetBytes(int64(len(q)))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		ParseQuery(q)
	}
}
