package extract

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestEdgesOutliveTheScratch: a file's edges are built in an array the
// next file reuses (edgeScratch); the result must keep its own copy, and
// the array must go back holding no strings.
func TestEdgesOutliveTheScratch(t *testing.T) {
	src := func(n int) []byte {
		var b strings.Builder
		b.WriteString("package p\n\nimport \"fmt\"\n\n")
		for i := range n {
			fmt.Fprintf(&b, "func F%d() { fmt.Println(%d); G%d() }\n", i, i, i)
		}
		return []byte(b.String())
	}
	first, err := ExtractFile("a.go", src(40))
	if err != nil || len(first.Edges) == 0 {
		t.Fatalf("a.go: %v, %d edges", err, len(first.Edges))
	}
	kept := append([]Edge(nil), first.Edges...)
	for i := range 4 {
		if _, err := ExtractFile(fmt.Sprintf("b%d.go", i), src(60+i)); err != nil {
			t.Fatal(err)
		}
	}
	if d := cmp.Diff(kept, first.Edges); d != "" {
		t.Errorf("a.go's edges changed when other files were extracted (-before +after):\n%s", d)
	}
	if cap(first.Edges) != len(first.Edges) {
		t.Errorf("a.go's edges: len %d cap %d, want an exact array", len(first.Edges), cap(first.Edges))
	}
	for _, e := range first.Edges {
		if e.Source == "" || e.Target == "" {
			t.Fatalf("a.go: edge %+v lost its ends", e)
		}
	}
}

// TestKeepEdgesClearsTheScratch: the array finish gives back holds no
// strings alive, and the result is a copy of its own.
func TestKeepEdgesClearsTheScratch(t *testing.T) {
	b := newBuilder("a.go", "go")
	scratch := make([]Edge, 0, 8)
	b.scratch = &scratch
	b.res.Edges = scratch[:0]
	b.file(3, "")
	b.entity(b.fileID, "F", 0, 1, 2, "func F()")
	b.ref(b.fileID+"::F", "G", RelCalls, 2, RefHint{Receiver: "x"})
	res := b.finish(0)
	if len(res.Edges) != 2 || &res.Edges[0] == &scratch[:1][0] {
		t.Fatalf("finish: %d edges, in the scratch array: %v", len(res.Edges), len(res.Edges) > 0 && &res.Edges[0] == &scratch[:1][0])
	}
	for i, e := range scratch[:cap(scratch)] {
		if e != (Edge{}) {
			t.Fatalf("scratch edge %d holds %+v after finish, want zero", i, e)
		}
	}
}
