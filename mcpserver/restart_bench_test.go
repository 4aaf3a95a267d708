package mcpserver

import (
	"context"
	"os"
	"path/filepath"
	"runtime/pprof"
	"testing"
)

// BenchmarkRestartNoChange opens a server on a runtime directory that
// already holds the graph of M1ND_BENCH_RESTART (a source tree; skipped
// without it) and serves the same tree again with nothing changed on disk:
// what a client pays at every start of the server (load the snapshot, then
// the incremental start-up ingest). The first, fresh ingest is not timed;
// M1ND_BENCH_RESTART_CPU=FILE profiles the restarts only.
func BenchmarkRestartNoChange(b *testing.B) {
	root := os.Getenv("M1ND_BENCH_RESTART")
	if root == "" {
		b.Skip("set M1ND_BENCH_RESTART to a source tree")
	}
	rt := filepath.Join(b.TempDir(), "rt")
	open := func() {
		d, err := Open(context.Background(), Options{RuntimeDir: rt, IngestOnStart: root}, func(string) string { return "" }, func(string, ...any) {})
		if err != nil {
			b.Fatal(err)
		}
		if err := d.Session.Close(); err != nil {
			b.Fatal(err)
		}
	}
	open()
	if p := os.Getenv("M1ND_BENCH_RESTART_CPU"); p != "" {
		f, err := os.Create(p)
		if err != nil {
			b.Fatal(err)
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			b.Fatal(err)
		}
		defer pprof.StopCPUProfile()
	}
	b.ResetTimer()
	for b.Loop() {
		open()
	}
}
