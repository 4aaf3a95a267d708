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

	"github.com/m1nd-go/m1nd/ingest/adapter"
	"github.com/m1nd-go/m1nd/ingest/cache"
	"github.com/m1nd-go/m1nd/ingest/internal/graphdump"
)

// TestPatchCorpus is the patch check on a whole corpus, run by hand (it
// takes about half a minute on go-std):
//
//	M1ND_PATCH_CORPUS=/tmp/m1nd-corpora/go-std go test ./ingest/code -run TestPatchCorpus -v
//
// It copies the corpus, ingests it, appends a function to three files of
// the Go tree, re-ingests incrementally and compares the patched graph with
// a full ingest, logging the largest PageRank difference.
func TestPatchCorpus(t *testing.T) {
	src := os.Getenv("M1ND_PATCH_CORPUS")
	if src == "" {
		t.Skip("set M1ND_PATCH_CORPUS to a corpus directory")
	}
	root := filepath.Join(t.TempDir(), "corpus")
	if out, err := exec.Command("cp", "-r", src, root).CombinedOutput(); err != nil {
		t.Fatalf("copy: %v %s", err, out)
	}
	store := cache.Open(t.TempDir())
	run := func() *adapter.Output {
		t.Helper()
		out, err := Ingest(context.Background(), adapter.Request{Root: root, Incremental: true, Cache: store})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	first := run()
	edits := []string{"image/jpeg/writer.go", "fmt/print.go", "net/http/server.go"}
	at := time.Now().Add(time.Hour)
	for _, e := range edits {
		p := filepath.Join(root, e)
		data, err := os.ReadFile(p)
		if err != nil {
			t.Skipf("corpus lacks %s: %v", e, err)
		}
		if err := os.WriteFile(p, append(data, "\nfunc m1ndExtra() { Println() }\n"...), 0o644); err != nil {
			t.Fatal(err)
		}
		os.Chtimes(p, at, at)
	}
	start := time.Now()
	out := run()
	t.Logf("incremental: %v, %+v, phases %v", time.Since(start), out.Stats.Incremental, out.Stats.PhaseMs)
	if !out.Stats.Incremental.Patched {
		t.Fatalf("not patched: %s", out.Stats.Incremental.RebuildReason)
	}
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
	runtime.KeepAlive(first)
}
