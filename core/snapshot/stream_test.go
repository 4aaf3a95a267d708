package snapshot

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/graph/graphtest"
)

// provenanced is a graph with everything a node can carry (tags, paths,
// excerpts, namespaces, lines, canonical), one excerpt longer than the
// stream's chunk, and a spliced successor whose interner keeps strings no
// node uses any more (the table must be renumbered, not copied).
func provenanced(t *testing.T) (*graph.Graph, *graph.Graph) {
	g := graph.New()
	long := strings.Repeat("x", streamChunk+100)
	for i := 0; i < 40; i++ {
		f := fmt.Sprintf("pkg%d/f%d.go", i%5, i)
		_, err := g.AddNode(graph.Node{
			ExternalID: "file::" + f + "::n" + strconv.Itoa(i), Label: "n" + strconv.Itoa(i%7), Type: graph.NodeType(i % 4),
			Tags: []string{"t" + strconv.Itoa(i%3), "shared"}, LastModified: float64(1e9 + i), ChangeFrequency: float32(i%10) / 10,
			Provenance: graph.Provenance{SourcePath: f, LineStart: uint32(i), LineEnd: uint32(i + 3),
				Excerpt: map[bool]string{true: long, false: "func n()"}[i == 7], Namespace: "ns" + strconv.Itoa(i%2), Canonical: i%2 == 0},
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	for i := 0; i < 39; i++ {
		e := graph.Edge{Source: graph.NodeID(i), Target: graph.NodeID((i*7 + 1) % 40), Relation: []string{"calls", "imports", "contains"}[i%3], Weight: 0.5, CausalStrength: 0.3}
		if i%4 == 0 {
			e.Direction = graph.Bidirectional
		}
		e.Inhibitory = i%9 == 0
		if err := g.AddEdge(e); err != nil {
			t.Fatal(err)
		}
	}
	g.Finalize()
	sp, _, err := g.Spliced(graph.Splice{
		Ranges:   []graph.NodeRange{{Lo: 5, Hi: 10, Nodes: []graph.Node{{ExternalID: "file::new.go", Label: "fresh", Tags: []string{"new"}}}}},
		DropEdge: func(src, _ graph.NodeID, _ graph.Str) bool { return src >= 5 && src < 10 },
		AddEdges: []graph.SpliceEdge{{Source: "file::new.go", Target: g.ExternalID(0), Edge: graph.Edge{Relation: "uses", Weight: 1}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	return g, sp
}

// learned gives a graph per-edge learned state of every kind.
func learned(g *graph.Graph) *graph.Graph {
	p := g.EdgePlasticity()
	g.AtomicWriteWeight(5, 2.25)
	p.Strengthen[5], p.LTP[5] = 6, true
	p.Weaken[9], p.LTD[9] = 5, true
	p.Original[11] = 0.125
	return g
}

// The streamed snapshot is byte for byte the file the copying encoder
// wrote, in memory and on disk, so every snapshot already saved and every
// reader stay as they are.
func TestStreamedBytesEqualCopyingEncoder(t *testing.T) {
	g, spliced := provenanced(t)
	empty := graph.New()
	empty.Finalize()
	bigMeta := bytes.Repeat([]byte("m"), 3*streamChunk+5)
	cases := []struct {
		name string
		g    *graph.Graph
		meta []byte
	}{
		{"powerlaw learned with meta", learned(fixture()), []byte(`{"m1nd_state":1,"stamp":"save-3-journal-9"}`)},
		{"mixed", graphtest.Mixed(1500, 4000, 3), nil},
		{"provenance", g, []byte("meta")},
		{"spliced", spliced, nil},
		{"empty", empty, nil},
		{"meta larger than a chunk", learned(graphtest.PowerLaw(300, 700, 5)), bigMeta},
	}
	dir := t.TempDir()
	for _, c := range cases {
		want, err := encodeViaRaw(c.g, c.meta)
		if err != nil {
			t.Fatalf("%s: reference encoder: %v", c.name, err)
		}
		got, err := EncodeBinaryWithMeta(c.g, c.meta)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: streamed bytes differ from the copying encoder's (%d vs %d bytes, first difference at %d)", c.name, len(got), len(want), firstDiff(got, want))
		}
		path := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "_")+".bin")
		if err := SaveWithMeta(c.g, c.meta, path); err != nil {
			t.Fatalf("%s: save: %v", c.name, err)
		}
		if disk, _ := os.ReadFile(path); !bytes.Equal(disk, want) {
			t.Errorf("%s: the file saved differs from the copying encoder's bytes (first difference at %d)", c.name, firstDiff(disk, want))
		}
		if _, _, err := LoadWithMeta(path); err != nil {
			t.Errorf("%s: the saved file does not load: %v", c.name, err)
		}
	}
}

func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// A cut holds the learned state of the moment it was taken: learning after
// it does not reach the file written later (the session pairs the weights
// with a journal position taken at the same moment).
func TestCutKeepsLearnedStateOfItsMoment(t *testing.T) {
	g := fixture()
	want, _ := encodeViaRaw(g, []byte("m"))
	c, err := TakeCut(g, []byte("m"))
	if err != nil {
		t.Fatal(err)
	}
	learned(g)
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(buf.Bytes(), want) {
		t.Fatal("the cut wrote learning done after it was taken")
	}
	if now, _ := encodeViaRaw(g, []byte("m")); bytes.Equal(now, want) {
		t.Fatal("the fixture's learning changed nothing; the test proves nothing")
	}
}

// failAfter accepts n bytes, then fails every write.
type failAfter struct{ n int }

var errDisk = errors.New("disk full")

func (f *failAfter) Write(p []byte) (int, error) {
	if len(p) <= f.n {
		f.n -= len(p)
		return len(p), nil
	}
	k := f.n
	f.n = 0
	return k, errDisk
}

// A failed write ends the stream with that error, at any offset.
func TestCutWriteErrorSticks(t *testing.T) {
	g := graphtest.PowerLaw(2000, 6000, 4)
	c, _ := TakeCut(g, nil)
	full, _ := EncodeBinary(g)
	for _, at := range []int{0, 10, streamChunk - 1, streamChunk + 3, len(full) - 13, len(full) - 1} {
		n, err := c.WriteTo(&failAfter{n: at})
		if !errors.Is(err, errDisk) || n != int64(at) {
			t.Errorf("failing after %d bytes: wrote %d, err %v", at, n, err)
		}
	}
	if _, err := TakeCut(graph.New(), nil); !errors.Is(err, graph.ErrNotFinalized) {
		t.Errorf("a cut of a graph never finalized: %v", err)
	}
}

// The streamed binary save is as atomic as the JSON one: interrupted at
// any step or byte, the previous file is untouched and no temp file stays.
func TestAtomicBinaryWriteInterrupted(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "graph.bin")
	if err := Save(graphtest.PowerLaw(100, 250, 1), path); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(path)
	next := learned(graphtest.PowerLaw(3000, 9000, 2))
	full, _ := EncodeBinary(next)
	interruptSaves(t, path, len(full), 29, before, func() error { return Save(next, path) },
		func(p string) error { _, err := Load(p); return err })
	if err := Save(next, path); err != nil {
		t.Fatal(err)
	}
	if after, _ := os.ReadFile(path); !bytes.Equal(after, full) {
		t.Fatal("the save that was not interrupted wrote other bytes")
	}
}

// TestStreamedFreshSplice: a graph spliced with fresh weights holds no
// strengthen/weaken counts or LTP/LTD flags until something learns; a cut
// of it (one moving a weight, too) writes the copying encoder's bytes and
// leaves them unallocated.
func TestStreamedFreshSplice(t *testing.T) {
	base := learned(fixture())
	for _, moved := range []bool{false, true} {
		g, _, err := base.Spliced(graph.Splice{FreshWeights: true})
		if err != nil {
			t.Fatal(err)
		}
		if moved {
			if err := g.AtomicWriteWeight(3, 1.75); err != nil {
				t.Fatal(err)
			}
		}
		got, err := EncodeBinaryWithMeta(g, []byte("m"))
		if err != nil {
			t.Fatalf("moved %v: %v", moved, err)
		}
		if g.LearningState().Strengthen != nil {
			t.Fatalf("moved %v: the cut allocated the learning counts", moved)
		}
		want, err := encodeViaRaw(g, []byte("m"))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("moved %v: streamed bytes differ from the copying encoder's (first difference at %d)", moved, firstDiff(got, want))
		}
	}
}
