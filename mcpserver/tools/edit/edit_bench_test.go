package edit

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/mcpserver/internal/fixture"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// benchCorpus copies the py-335 benchmark corpus (when built, see
// benchmarks/corpora) into a temporary directory — the benchmark writes
// to it — or falls back to the test fixture.
func editBenchCorpus(b *testing.B) (dir, name string) {
	src := tooltest.CorpusPath("py-335")
	if _, err := os.Stat(src); err != nil {
		return fixture.Write(b), "fixture"
	}
	dir = b.TempDir()
	err := filepath.WalkDir(src, func(p string, de os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if de.IsDir() {
			return os.MkdirAll(filepath.Join(dir, rel), 0o755)
		}
		if !de.Type().IsRegular() {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dir, rel), data, 0o644)
	})
	if err != nil {
		b.Fatal(err)
	}
	return dir, "py-335"
}

// pyFiles lists n Python files of dir (sorted, the first ones).
func pyFiles(b *testing.B, dir string, n int) []string {
	var out []string
	filepath.WalkDir(dir, func(p string, de os.DirEntry, err error) error {
		if err == nil && !de.IsDir() && filepath.Ext(p) == ".py" {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	slices.Sort(out)
	if len(out) < n {
		b.Fatalf("only %d python files", len(out))
	}
	return out[len(out)/2 : len(out)/2+n]
}

// BenchmarkApplyBatch5 times apply_batch of five files without verify
// through the dispatcher — validate, journaled write with fsyncs,
// incremental reingest (patch) — on a copy of py-335: each iteration
// appends a line to five files, so every call really writes and patches.
func BenchmarkApplyBatch5(b *testing.B) {
	dir, name := editBenchCorpus(b)
	d := tooltest.NewDispatcher(b, tooltest.TestConfig())
	tooltest.MustCall(b, d, "ingest", map[string]any{"agent_id": "bench", "path": dir})
	files := pyFiles(b, dir, 5)
	base := map[string]string{}
	for _, f := range files {
		data, _ := os.ReadFile(filepath.Join(dir, f))
		base[f] = string(data)
	}
	round := 0 // across the harness's runs, so each call really writes
	b.Run(name, func(b *testing.B) {
		times := make([]time.Duration, 0, b.N)
		var reingest, write float64
		for i := 0; i < b.N; i++ {
			round++
			var es []any
			for _, f := range files {
				es = append(es, map[string]any{"file_path": f, "new_content": base[f] + fmt.Sprintf("\n# bench %d\n", round)})
			}
			raw, _ := json.Marshal(map[string]any{"agent_id": "bench", "edits": es, "detail": "full"})
			t := time.Now()
			res := d.Call(context.Background(), "apply_batch", raw, nil)
			times = append(times, time.Since(t))
			if res.IsError {
				b.Fatal(res.Text())
			}
			var out applyOutput
			json.Unmarshal([]byte(res.Text()), &out)
			if !out.Reingest.Patched {
				b.Fatalf("reingest did not patch: %+v", out.Reingest)
			}
			for _, ph := range out.Phases {
				switch ph.Name {
				case "reingest":
					reingest += ph.ElapsedMs
				case "write":
					write += ph.ElapsedMs
				}
			}
		}
		tooltest.EditP50P99(b, times)
		b.ReportMetric(write/float64(b.N), "write-ms")
		b.ReportMetric(reingest/float64(b.N), "reingest-ms")
	})
}

// BenchmarkSurgicalContextV2 times surgical_context_v2 on the most
// connected files of the corpus.
func BenchmarkSurgicalContextV2(b *testing.B) {
	dir, name := editBenchCorpus(b)
	d := tooltest.NewDispatcher(b, tooltest.TestConfig())
	tooltest.MustCall(b, d, "ingest", map[string]any{"agent_id": "bench", "path": dir})
	g := d.Session.Current().Graph
	var targets []string
	for _, f := range tools.BundleGraphFiles(d.Session.Current()).Files {
		if f.Node != graph.NoNode && g.InDegree(f.Node) >= 3 {
			targets = append(targets, f.Path)
		}
	}
	if len(targets) == 0 {
		b.Fatal("no connected files")
	}
	b.Run(name, func(b *testing.B) {
		times := make([]time.Duration, 0, b.N)
		for i := 0; i < b.N; i++ {
			raw, _ := json.Marshal(map[string]any{"agent_id": "bench", "file_path": targets[i%len(targets)]})
			t := time.Now()
			if res := d.Call(context.Background(), "surgical_context_v2", raw, nil); res.IsError {
				b.Fatal(res.Text())
			}
			times = append(times, time.Since(t))
		}
		tooltest.EditP50P99(b, times)
	})
}
