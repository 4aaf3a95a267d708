package code

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/m1nd-go/m1nd/core/testcorpus"
	"github.com/m1nd-go/m1nd/ingest/adapter"
	"github.com/m1nd-go/m1nd/ingest/cache"
)

// BenchmarkPatchEdit times an incremental ingest after a one-file change
// on a copy of go-std (M1ND_CORPORA or /tmp/m1nd-corpora; skipped without
// it), with an on-disk cache as the server keeps one: each iteration
// appends a function to another file of the tree (edit), adds a file to a
// package (add), edits 64 at once (edit64), deletes one (delete), renames
// one (rename) or adds a requirement to go.mod (manifest: go-std has no
// go.mod, so this last case writes the Go tree's own before its first,
// untimed, run). It reports
// the median, as a share of the full ingest it started from too, and the
// mean of each phase.
func BenchmarkPatchEdit(b *testing.B) {
	root, files := testcorpus.CopyGoTree(b, testcorpus.Corpus(b, "go-std"))
	store := cache.Open(b.TempDir())
	// As the server holds it: blobs and manifests written behind the run,
	// extraction results kept on disk between runs (cache.SetWriteBehind).
	store.SetWriteBehind(true)
	defer store.Close()
	run := func() *adapter.Output {
		out, err := Ingest(context.Background(), adapter.Request{Root: root, Incremental: true, Cache: store})
		if err != nil {
			b.Fatal(err)
		}
		return out
	}
	t0 := time.Now()
	last := run()
	full := time.Since(t0)
	round := 0
	// Each change names the file it starts from, which is then gone from the
	// list when the change removes it.
	gomod := filepath.Join(root, "go.mod")
	changes := []struct {
		name   string
		change func(f string) error
		setup  func() error
	}{
		{"edit", func(f string) error { return appendTo(f, fmt.Sprintf("\nfunc M1ndBenchPatch%d() {}\n", round)) }, nil},
		{"add", func(f string) error {
			pkg, err := packageClause(f)
			if err != nil {
				return err
			}
			return os.WriteFile(filepath.Join(filepath.Dir(f), fmt.Sprintf("m1nd_bench_%d.go", round)),
				fmt.Appendf(nil, "%s\n\nfunc M1ndBenchAdded%d() {}\n", pkg, round), 0o644)
		}, nil},
		{"edit64", func(string) error {
			for j := range 64 {
				f := files[(round*7919+j*131)%len(files)]
				if err := appendTo(f, fmt.Sprintf("\nfunc M1ndBench64_%d_%d() {}\n", round, j)); err != nil {
					return err
				}
			}
			return nil
		}, nil},
		{"delete", func(f string) error { return os.Remove(f) }, nil},
		{"rename", func(f string) error { return os.Rename(f, strings.TrimSuffix(f, ".go")+"_m1nd.go") }, nil},
		{name: "manifest", change: func(string) error {
			return appendTo(gomod, fmt.Sprintf("\nrequire example.com/m1nd%d v1.0.0\n", round))
		}, setup: func() error {
			return os.WriteFile(gomod, []byte("module std\n\ngo 1.26\n\nrequire (\n\tgolang.org/x/crypto v0.44.0\n\tgolang.org/x/net v0.47.0\n)\n"), 0o644)
		}},
	}
	for _, c := range changes {
		b.Run("go-std/"+c.name, func(b *testing.B) {
			if c.setup != nil {
				if _, err := os.Stat(gomod); err != nil {
					if err := c.setup(); err != nil {
						b.Fatal(err)
					}
					last = run()
				}
			}
			phases := map[string]float64{}
			var times []time.Duration
			for i := 0; i < b.N; i++ {
				round++
				k := (round * 7919) % len(files)
				if err := c.change(files[k]); err != nil {
					b.Fatal(err)
				}
				if c.name == "delete" || c.name == "rename" {
					files = slices.Delete(files, k, k+1)
				}
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
			b.ReportMetric(100*float64(times[len(times)/2])/float64(full), "pct-of-full")
			for k, v := range phases {
				b.ReportMetric(v/float64(b.N), k+"-ms")
			}
		})
	}
}

func appendTo(f, text string) error {
	fh, err := os.OpenFile(f, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	_, err = fh.WriteString(text)
	return errors.Join(err, fh.Close())
}

// packageClause is the "package x" line of a Go file.
func packageClause(f string) (string, error) {
	data, err := os.ReadFile(f)
	if err != nil {
		return "", err
	}
	for line := range strings.Lines(string(data)) {
		if strings.HasPrefix(line, "package ") {
			return strings.TrimSpace(line), nil
		}
	}
	return "", fmt.Errorf("%s: no package clause", f)
}
