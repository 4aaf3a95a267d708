package query

import (
	"context"
	"encoding/json"
	"os"
	"testing"
	"time"

	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// BenchmarkActivateCorpus times activate through the dispatcher on the
// benchmark corpora (py-335, go-std) when they exist under $M1ND_CORPORA,
// cycling through questions an agent asks; the corpus is ingested once and
// the engine built before the timer starts. Learning is on, as an agent's
// calls have it.
func BenchmarkActivateCorpus(b *testing.B) {
	queries := []string{"parse http request header", "tls handshake client certificate", "json encoder struct fields",
		"goroutine scheduler", "decode utf-8 string", "file path clean join", "timeout context cancel", "sort slice"}
	for _, corpus := range []string{"py-335", "go-std"} {
		dir := tooltest.CorpusPath(corpus)
		if _, err := os.Stat(dir); err != nil {
			continue
		}
		b.Run(corpus, func(b *testing.B) {
			d := seekNewDispatcher(b)
			tooltest.MustCall(b, d, "ingest", map[string]any{"agent_id": "bench", "path": dir})
			tooltest.MustCall(b, d, "activate", map[string]any{"agent_id": "bench", "query": "warm up"})
			raws := make([]json.RawMessage, len(queries))
			for i, q := range queries {
				raws[i], _ = json.Marshal(map[string]any{"agent_id": "bench", "query": q})
			}
			b.Run("mixed", func(b *testing.B) {
				times := make([]time.Duration, 0, b.N)
				b.ResetTimer()
				cpu := processCPU()
				for i := 0; i < b.N; i++ {
					t := time.Now()
					if res := d.Call(context.Background(), "activate", raws[i%len(raws)], nil); res.IsError {
						b.Fatal(res.Text())
					}
					times = append(times, time.Since(t))
				}
				b.StopTimer()
				reportLatency(b, times, cpu)
			})
		})
	}
}
