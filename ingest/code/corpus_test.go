package code

import (
	"context"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/m1nd-go/m1nd/core/testcorpus"
	"github.com/m1nd-go/m1nd/ingest/adapter"
	"github.com/m1nd-go/m1nd/ingest/cache"
	"github.com/m1nd-go/m1nd/ingest/internal/graphdump"
)

// TestPatchCorpus is the patch check on a whole corpus, run by hand (it
// takes about half a minute on go-std):
//
//	M1ND_PATCH_CORPUS=/tmp/m1nd-corpora/go-std go test ./ingest/code -run TestPatchCorpus -v
//
// It copies the corpus, ingests it, then step by step appends a function to
// three files of the Go tree, a requirement to go.mod and a function to
// json/__init__.py (each where the corpus has them), re-ingests
// incrementally and compares each patched graph with a full ingest, logging
// the largest PageRank difference.
func TestPatchCorpus(t *testing.T) {
	src := testcorpus.OptIn(t, "M1ND_PATCH_CORPUS", "a corpus directory")
	root := filepath.Join(t.TempDir(), "corpus")
	if out, err := exec.Command("cp", "-r", src, root).CombinedOutput(); err != nil {
		t.Fatalf("copy: %v %s", err, out)
	}
	store := cache.Open(t.TempDir())
	run := func() *adapter.Output {
		t.Helper()
		return ingest(t, adapter.Request{Root: root, Incremental: true, Cache: store})
	}
	first := run()
	// Each step's files get the text appended; a step whose files the
	// corpus lacks is skipped.
	steps := []struct {
		name  string
		files []string
		add   string
	}{
		{"a function appended to three files", []string{"image/jpeg/writer.go", "fmt/print.go", "net/http/server.go"},
			"\nfunc m1ndExtra() { Println() }\n"},
		{"a requirement added to go.mod", []string{"go.mod"}, "\nrequire example.com/m1nd v1.0.0\n"},
		{"a function appended to a package's __init__.py", []string{"json/__init__.py"}, "\n\ndef m1nd_extra():\n    return dumps(1)\n"},
	}
	at := time.Now().Add(time.Hour)
	held := []any{first.Graph}
	ran := 0
	for _, s := range steps {
		if !appendStep(t, root, s.files, s.add, at) {
			t.Logf("%s: skipped (the corpus lacks a file)", s.name)
			continue
		}
		at = at.Add(time.Minute)
		start := time.Now()
		out := run()
		held = append(held, out.Graph)
		t.Logf("%s: incremental %v, %+v, phases %v", s.name, time.Since(start), out.Stats.Incremental, out.Stats.PhaseMs)
		if !out.Stats.Incremental.Patched {
			t.Fatalf("%s: not patched: %s", s.name, out.Stats.Incremental.RebuildReason)
		}
		compareCorpus(t, root, out)
		ran++
	}
	if ran == 0 {
		t.Skip("the corpus has none of the files the steps edit")
	}
	runtime.KeepAlive(held)
}

// appendStep appends add to each of files under root and sets their mtime;
// false (nothing written) when one is missing.
func appendStep(t *testing.T, root string, files []string, add string, at time.Time) bool {
	t.Helper()
	data := make([][]byte, len(files))
	for i, f := range files {
		b, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			return false
		}
		data[i] = b
	}
	for i, f := range files {
		p := filepath.Join(root, f)
		if err := os.WriteFile(p, append(data[i], add...), 0o644); err != nil {
			t.Fatal(err)
		}
		os.Chtimes(p, at, at)
	}
	return true
}

// compareCorpus compares a patched output with a full ingest of root.
func compareCorpus(t *testing.T, root string, out *adapter.Output) {
	t.Helper()
	full, err := Ingest(context.Background(), adapter.Request{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	a, b := graphdump.Of(full.Graph), graphdump.Of(out.Graph)
	worst := 0.0
	for i := range min(len(a.Nodes), len(b.Nodes)) {
		worst = math.Max(worst, math.Abs(float64(a.Nodes[i].PageRank-b.Nodes[i].PageRank)))
		a.Nodes[i].PageRank, b.Nodes[i].PageRank = 0, 0
	}
	t.Logf("%d nodes, %d edges; largest PageRank difference %.3g", len(a.Nodes), len(a.Edges), worst)
	if diff := cmp.Diff(a, b); diff != "" {
		t.Fatalf("patched graph differs from a full ingest:\n%s", diff[:min(len(diff), 4000)])
	}
	if diff := cmp.Diff(nodeOrder(full.Graph), nodeOrder(out.Graph)); diff != "" {
		t.Fatalf("node order differs:\n%s", diff[:min(len(diff), 2000)])
	}
	if worst > pageRankTolerance {
		t.Fatalf("PageRank differs by %v (tolerance %v)", worst, pageRankTolerance)
	}
}
