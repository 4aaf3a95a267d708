package query

import (
	"context"
	"encoding/json"
	"os"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/m1nd-go/m1nd/core/seek"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// BenchmarkSeekCorpus times seek through the dispatcher (argument
// validation, search, summaries, connections, JSON) on the benchmark
// corpora of ../shared/corpora when they exist under $M1ND_CORPORA
// (default /tmp/m1nd-corpora). The first call, which builds the index,
// is reported separately as index-build-ms.
func BenchmarkSeekCorpus(b *testing.B) {
	queries := map[string]string{
		"intent": "code that parses an HTTP request header",
		"bugreport": `Decoding a header with a non-ASCII value crashes the server.

Traceback (most recent call last):
  File "/usr/lib/python3.11/http/client.py", line 1374, in getresponse
    response.begin()
  File "/usr/lib/python3.11/http/client.py", line 318, in begin
    version, status, reason = self._read_status()
  File "/usr/lib/python3.11/email/feedparser.py", line 180, in feed
    self._call_parse()
UnicodeDecodeError: 'ascii' codec can't decode byte 0xc3 in position 7
`,
	}
	onCorpora(b, func(b *testing.B, d *tools.Dispatcher) {
		t := time.Now()
		tooltest.MustCall(b, d, "seek", map[string]any{"agent_id": "bench", "query": "warm up"})
		build := time.Since(t)
		for _, name := range []string{"intent", "bugreport"} {
			raw, _ := json.Marshal(map[string]any{"agent_id": "bench", "query": queries[name]})
			b.Run(name, func(b *testing.B) {
				timeCalls(b, d, "seek", raw)
				b.ReportMetric(float64(build.Milliseconds()), "index-build-ms")
			})
		}
	})
}

// BenchmarkSeekSeedsDistinct times the search activate makes for its
// seek seeds (top 20 with the graph rerank) on questions that do not
// repeat, one a call, so no cached lexical part serves them; timed once
// the ingest's background builds are over.
func BenchmarkSeekSeedsDistinct(b *testing.B) {
	onCorpora(b, func(b *testing.B, d *tools.Dispatcher) {
		bu := d.Session.Current()
		idx, err := tools.SeekIndex(d.Session, bu)
		if err != nil {
			b.Fatal(err)
		}
		var qs []string
		for _, raw := range distinctQuestions(bu.Graph, 4000) {
			var args struct{ Query string }
			if err := json.Unmarshal(raw, &args); err != nil {
				b.Fatal(err)
			}
			qs = append(qs, args.Query)
		}
		for len(d.Session.Running()) > 0 {
			time.Sleep(100 * time.Millisecond)
		}
		if b.N > len(qs) {
			b.Skipf("%d calls asked, %d distinct questions", b.N, len(qs))
		}
		times := make([]time.Duration, 0, b.N)
		b.ResetTimer()
		cpu := processCPU()
		for _, q := range qs[:b.N] {
			t := time.Now()
			idx.SearchText(q, seek.Params{TopK: activateSeekSeeds, GraphRerank: true})
			times = append(times, time.Since(t))
		}
		b.StopTimer()
		reportLatency(b, times, cpu)
	})
}

// onCorpora runs fn as a sub-benchmark per benchmark corpus that is built
// (py-335, go-std), on a dispatcher that has ingested it.
func onCorpora(b *testing.B, fn func(b *testing.B, d *tools.Dispatcher)) {
	for _, corpus := range []string{"py-335", "go-std"} {
		dir := tooltest.CorpusPath(corpus)
		if _, err := os.Stat(dir); err != nil {
			continue
		}
		b.Run(corpus, func(b *testing.B) {
			d := seekNewDispatcher(b)
			tooltest.MustCall(b, d, "ingest", map[string]any{"agent_id": "bench", "path": dir})
			fn(b, d)
		})
	}
}

// timeCalls calls tool b.N times, cycling through raws (the arguments),
// and reports the latency of the calls (reportLatency).
func timeCalls(b *testing.B, d *tools.Dispatcher, tool string, raws ...json.RawMessage) {
	times := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	cpu := processCPU()
	for i := 0; i < b.N; i++ {
		t := time.Now()
		if res := d.Call(context.Background(), tool, raws[i%len(raws)], nil); res.IsError {
			b.Fatal(res.Text())
		}
		times = append(times, time.Since(t))
	}
	b.StopTimer()
	reportLatency(b, times, cpu)
}

// reportLatency reports the p50 and p99 of a benchmark's call times, and
// the process CPU time per call since cpu (processCPU): on a shared
// machine latency measures the load as much as the code, CPU time less so.
func reportLatency(b *testing.B, times []time.Duration, cpu time.Duration) {
	b.ReportMetric(float64((processCPU()-cpu).Microseconds())/1000/float64(len(times)), "cpu-ms/op")
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(times[min(len(times)-1, len(times)*99/100)].Microseconds())/1000, "p99-ms")
}

// processCPU is the CPU time (user and system) the process has used;
// background work of the server (index builds, persistence) counts too.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
