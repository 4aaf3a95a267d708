package query

import (
	"encoding/json"
	"path"
	"strings"
	"testing"
	"time"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/semantic"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// BenchmarkActivateCorpus times activate through the dispatcher on the
// benchmark corpora (py-335, go-std) when they exist under $M1ND_CORPORA,
// cycling through questions an agent asks; the corpus is ingested once and
// the engine built before the timer starts, and the ingest's background
// builds are let finish. Learning is on, as an agent's calls have it.
func BenchmarkActivateCorpus(b *testing.B) {
	queries := []string{"parse http request header", "tls handshake client certificate", "json encoder struct fields",
		"goroutine scheduler", "decode utf-8 string", "file path clean join", "timeout context cancel", "sort slice"}
	onCorpora(b, func(b *testing.B, d *tools.Dispatcher) {
		tooltest.MustCall(b, d, "activate", map[string]any{"agent_id": "bench", "query": "warm up"})
		for len(d.Session.Running()) > 0 {
			time.Sleep(100 * time.Millisecond)
		}
		raws := make([]json.RawMessage, len(queries))
		for i, q := range queries {
			raws[i], _ = json.Marshal(map[string]any{"agent_id": "bench", "query": q})
		}
		b.Run("mixed", func(b *testing.B) { timeCalls(b, d, "activate", raws...) })
		// Questions that do not repeat, as an agent asks them: no cache
		// of the seed finder's or seek's answers serves them.
		distinct := distinctQuestions(d.Session.Current().Graph, 4000)
		b.Run("distinct", func(b *testing.B) {
			if b.N > len(distinct) {
				b.Skipf("%d calls asked, %d distinct questions", b.N, len(distinct))
			}
			timeCalls(b, d, "activate", distinct[:b.N]...)
		})
	})
}

// distinctQuestions are up to n activate arguments, each a different
// function of g named as an agent would ask for it ("<directory> <words
// of its name>"), taken evenly over the node IDs.
func distinctQuestions(g *graph.Graph, n int) []json.RawMessage {
	var qs []string
	seen := map[string]bool{}
	for id := range graph.NodeID(g.NumNodes()) {
		if g.Type(id) != graph.Function {
			continue
		}
		words := semantic.SplitIdentifier(g.Label(id))
		q := path.Base(path.Dir(g.SourcePath(id))) + " " + strings.Join(words, " ")
		if len(words) > 0 && !seen[q] {
			seen[q] = true
			qs = append(qs, q)
		}
	}
	out := make([]json.RawMessage, 0, n)
	for i := range min(n, len(qs)) {
		raw, _ := json.Marshal(map[string]any{"agent_id": "bench", "query": qs[i*len(qs)/min(n, len(qs))]})
		out = append(out, raw)
	}
	return out
}
