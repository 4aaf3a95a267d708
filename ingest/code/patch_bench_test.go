package code

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/m1nd-go/m1nd/ingest/adapter"
	"github.com/m1nd-go/m1nd/ingest/cache"
)

// BenchmarkPatchEdit times an incremental ingest after a one-file edit on
// a copy of go-std (M1ND_CORPORA or /tmp/m1nd-corpora; skipped without
// it), with an on-disk cache as the server keeps one: each iteration
// appends a function to another file of the tree. It reports the mean of
// each phase.
func BenchmarkPatchEdit(b *testing.B) {
	corpora := os.Getenv("M1ND_CORPORA")
	if corpora == "" {
		corpora = "/tmp/m1nd-corpora"
	}
	src := filepath.Join(corpora, "go-std")
	if _, err := os.Stat(src); err != nil {
		b.Skip("no go-std corpus (benchmarks/corpora)")
	}
	root := filepath.Join(b.TempDir(), "tree")
	if out, err := exec.Command("cp", "-r", src, root).CombinedOutput(); err != nil {
		b.Fatalf("copy: %v %s", err, out)
	}
	var files []string
	filepath.WalkDir(root, func(p string, de fs.DirEntry, err error) error {
		if err == nil && !de.IsDir() && strings.HasSuffix(p, ".go") && !strings.HasSuffix(p, "_test.go") &&
			!strings.Contains(p, "testdata") && !strings.Contains(p, "vendor") {
			files = append(files, p)
		}
		return nil
	})
	slices.Sort(files)
	store := cache.Open(b.TempDir())
	run := func() *adapter.Output {
		out, err := Ingest(context.Background(), adapter.Request{Root: root, Incremental: true, Cache: store})
		if err != nil {
			b.Fatal(err)
		}
		return out
	}
	last := run()
	round := 0
	b.Run("go-std", func(b *testing.B) {
		phases := map[string]float64{}
		var times []time.Duration
		for i := 0; i < b.N; i++ {
			round++
			f := files[(round*7919)%len(files)]
			fh, err := os.OpenFile(f, os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				b.Fatal(err)
			}
			fmt.Fprintf(fh, "\nfunc M1ndBenchPatch%d() {}\n", round)
			fh.Close()
			t := time.Now()
			last = run()
			times = append(times, time.Since(t))
			if !last.Stats.Incremental.Patched {
				b.Fatalf("not patched: %s", last.Stats.Incremental.RebuildReason)
			}
			for k, v := range last.Stats.PhaseMs {
				phases[k] += v
			}
		}
		slices.Sort(times)
		b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "p50-ms")
		for k, v := range phases {
			b.ReportMetric(v/float64(b.N), k+"-ms")
		}
	})
}
