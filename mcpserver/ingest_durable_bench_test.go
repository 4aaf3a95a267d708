package mcpserver

import (
	"context"
	"encoding/json"
	"os"
	"testing"
)

// BenchmarkIngestDurable is the ingest tool's full ingest (mode replace)
// through the dispatcher of a persistent server, as an agent's call runs
// it (benchmarks/results/ingest-durable.md): with -cpuprofile it shows what
// the server adds to the ingest. M1ND_BENCH_CORPUS names the tree (for
// example /tmp/m1nd-corpora/py-335); without it the benchmark is skipped.
func BenchmarkIngestDurable(b *testing.B) {
	corpus := os.Getenv("M1ND_BENCH_CORPUS")
	if corpus == "" {
		b.Skip("set M1ND_BENCH_CORPUS to a source tree (python3 benchmarks/corpora/corpora.py builds py-335)")
	}
	ctx := context.Background()
	d, err := Open(ctx, Options{RuntimeDir: b.TempDir(), AllowRoots: []string{corpus}}, func(string) string { return "" }, func(string, ...any) {})
	if err != nil {
		b.Fatal(err)
	}
	defer d.Session.Close()
	raw, _ := json.Marshal(map[string]any{"agent_id": "bench", "path": corpus, "mode": "replace"})
	for b.Loop() {
		if res := d.Call(ctx, "ingest", raw, nil); res.IsError {
			b.Fatal(res.Text())
		}
	}
}
