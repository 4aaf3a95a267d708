package seek

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"

	"github.com/m1nd-go/m1nd/core/graph"
)

// splitLines is bytes.Split(data, "\n"), piece for piece.
func TestSplitLines(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		var b []byte
		for range r.IntN(40) {
			b = append(b, "a\n\n b"[r.IntN(5)])
		}
		want := bytes.Split(b, []byte("\n"))
		got := splitLines([][]byte{[]byte("kept")}, b)[1:]
		if len(got) != len(want) {
			t.Fatalf("%q: %d lines, want %d", b, len(got), len(want))
		}
		for i := range want {
			if !bytes.Equal(got[i], want[i]) {
				t.Fatalf("%q: line %d %q, want %q", b, i, got[i], want[i])
			}
		}
	}
}

// TestSummariesReuseLines: summarising nodes of ten files allocates less
// than splitting each file did (24 bytes a line each; after a large
// ingest a seek pays for every byte in collection assists, issue 29).
func TestSummariesReuseLines(t *testing.T) {
	files := map[string][]byte{}
	g := graph.New()
	var nodes []graph.NodeID
	for f := range 10 {
		path := fmt.Sprintf("p/f%d.go", f)
		var src strings.Builder
		for l := range 2000 {
			if l%100 == 0 {
				fmt.Fprintf(&src, "// F%d adds.\n", l)
				continue
			}
			fmt.Fprintf(&src, "func F%d() {}\n", l)
		}
		files[path] = []byte(src.String())
		for l := 1; l < 2000; l += 100 {
			id, _ := g.AddNode(graph.Node{ExternalID: fmt.Sprintf("%s::F%d", path, l), Label: "F", Type: graph.Function,
				Provenance: graph.Provenance{SourcePath: path, LineStart: uint32(l + 1), LineEnd: uint32(l + 1)}})
			nodes = append(nodes, id)
		}
	}
	g.Finalize()
	o := DefaultOptions()
	o.ReadFile = func(p string) ([]byte, error) { return files[p], nil }
	x, err := Build(context.Background(), g, o)
	if err != nil {
		t.Fatal(err)
	}
	if s := x.Summaries(nodes[:1]); s[0] != "F0 adds." {
		t.Fatalf("summary %q, want the doc comment's", s[0])
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	x.Summaries(nodes)
	runtime.ReadMemStats(&after)
	split := 10 * 2000 * 24 // what splitting each file allocated
	got := after.TotalAlloc - before.TotalAlloc
	t.Logf("%d bytes allocated", got)
	if got > uint64(split/2) {
		t.Errorf("summaries of %d nodes in 10 files allocated %d bytes; splitting each file was %d", len(nodes), got, split)
	}
}
