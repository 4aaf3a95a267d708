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
// the incremental start-up ingest), up to the point where m1nd-mcp
// serves. The first, fresh ingest is not timed, nor the save each stop
// makes; M1ND_BENCH_RESTART_CPU=FILE profiles the restarts only. Run it on
// a quiet machine: the query engine and seek index are warmed in the
// background after each start and overlap the next one.
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
		// Closing saves the graph (every stop does): not part of a start.
		b.StopTimer()
		if err := d.Session.Close(); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
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
