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

// TestKeepNodesClearsTheScratch: a file's nodes are built in an array the
// next file reuses (nodeScratch); finish hands out an exact copy and
// gives the array back holding no strings, and the copy outlives the
// next files' extraction.
func TestKeepNodesClearsTheScratch(t *testing.T) {
	b := newBuilder("a.go", "go")
	scratch := make([]Node, 0, 8)
	b.nodeScratch = &scratch
	b.res.Nodes = scratch[:0]
	b.file(3, "package a", "go")
	b.entity(b.fileID, "F", 0, 1, 2, "func F()", "go", KindFunction)
	res := b.finish(0)
	if len(res.Nodes) != 2 || cap(res.Nodes) != 2 || &res.Nodes[0] == &scratch[:1][0] {
		t.Fatalf("finish: %d nodes (cap %d), want 2 in an array of their own", len(res.Nodes), cap(res.Nodes))
	}
	for i, n := range scratch[:cap(scratch)] {
		if n.ID != "" || n.Tags != nil || n.Excerpt != "" {
			t.Fatalf("scratch node %d holds %+v after finish, want zero", i, n)
		}
	}

	first, err := ExtractFile("a.go", goDecls(30))
	if err != nil {
		t.Fatal(err)
	}
	kept := append([]Node(nil), first.Nodes...)
	for i := range 3 {
		if _, err := ExtractFile(fmt.Sprintf("b%d.go", i), goDecls(40+i)); err != nil {
			t.Fatal(err)
		}
	}
	if d := cmp.Diff(kept, first.Nodes); d != "" {
		t.Errorf("a.go's nodes changed when other files were extracted (-before +after):\n%s", d)
	}
	if cap(first.Nodes) != len(first.Nodes) {
		t.Errorf("a.go's nodes: len %d cap %d, want an exact array", len(first.Nodes), cap(first.Nodes))
	}
}
