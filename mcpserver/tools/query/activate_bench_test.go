package query

import (
	"encoding/json"
	"testing"

	"github.com/m1nd-go/m1nd/mcpserver/tools"
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
	onCorpora(b, func(b *testing.B, d *tools.Dispatcher) {
		tooltest.MustCall(b, d, "activate", map[string]any{"agent_id": "bench", "query": "warm up"})
		raws := make([]json.RawMessage, len(queries))
		for i, q := range queries {
			raws[i], _ = json.Marshal(map[string]any{"agent_id": "bench", "query": q})
		}
		b.Run("mixed", func(b *testing.B) { timeCalls(b, d, "activate", raws...) })
	})
}
