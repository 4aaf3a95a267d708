package seek

import (
	"bytes"
	"context"
	"encoding/binary"
	"hash/crc32"
	"maps"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/testcorpus"
)

// bodiesFixture is the fixture graph with a binary file (skipped) and a
// file of more than 65,536 distinct terms (its terms 32 bits wide), an
// index built on it with stamps, and that index's Bodies written out
// (without the wide file: the fuzz target's seed, small).
type bodiesFixture struct {
	g     *graph.Graph
	o     Options
	x     *Index
	data  []byte
	files map[string]string
	reads *[]string
}

var wideFile = sync.OnceValue(func() string {
	const letters = "bcdfghjklmnpqrtvwxz"
	var sb strings.Builder
	for i := range 70_000 {
		sb.WriteString("zq")
		for k, n := 0, i; k < 4; k, n = k+1, n/len(letters) {
			sb.WriteByte(letters[n%len(letters)])
		}
		sb.WriteString(" ")
		if i%12 == 11 {
			sb.WriteString("\n")
		}
	}
	return sb.String()
})

func newBodiesFixture(t testing.TB, wide bool) *bodiesFixture {
	t.Helper()
	files := maps.Clone(fixtureFiles)
	files["assets/logo.bin"] = "PNG\x00\x01binary"
	if wide {
		files["gen/words.txt"] = wideFile()
	}
	g, read := fixtureGraphOf(t, files, testcorpus.Entities)
	f := &bodiesFixture{g: g, files: files, reads: new([]string)}
	f.o = DefaultOptions()
	f.o.ReadFile = func(p string) ([]byte, error) { *f.reads = append(*f.reads, p); return read(p) }
	f.o.FileStamp = func(p string) (string, bool) { return "v1", true }
	f.o.Parallelism = 1 // reads is not locked
	x, err := Build(context.Background(), g, f.o)
	if err != nil {
		t.Fatal(err)
	}
	f.x = x
	var buf bytes.Buffer
	if _, err := x.Bodies().WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	f.data = buf.Bytes()
	*f.reads = nil
	return f
}

// TestBodiesFileRoundTrip: the documents read back from a bodies file are
// those written, and a build from them reads no file and makes the index
// a build reading every file makes.
func TestBodiesFileRoundTrip(t *testing.T) {
	f := newBodiesFixture(t, true)
	got, err := ReadBodies(f.data)
	if err != nil {
		t.Fatal(err)
	}
	want := f.x.Bodies()
	if !sameBodyOptions(got.opts, want.opts) || got.Files() != len(f.files) || got.Files() != want.Files() {
		t.Fatalf("read %d files (options %+v), want %d (%+v)", got.Files(), got.opts, want.Files(), want.opts)
	}
	wide := 0
	gt, wt := got.terms.view(), want.terms.view()
	for p, w := range want.m {
		c := got.m[p]
		if d := diffBody(c, w, gt, wt); d != "" {
			t.Errorf("%s: %s", p, d)
		}
		if c != nil && c.t32 != nil {
			wide++
		}
	}
	if wide == 0 || !got.m["assets/logo.bin"].skipped {
		t.Fatalf("the fixture has no wide file (%d) or no skipped one", wide)
	}
	if len(got.meta) == 0 || len(got.meta) != len(want.meta) {
		t.Fatalf("read %d metadata shards, want %d (and some)", len(got.meta), len(want.meta))
	}
	for k, w := range want.meta {
		if d := diffMeta(got.meta[k], w, gt, wt); d != "" {
			t.Errorf("metadata chunk %x: %s", k, d)
		}
	}
	x, err := BuildFrom(context.Background(), f.g, f.o, got)
	if err != nil {
		t.Fatal(err)
	}
	if len(*f.reads) != 0 || x.Stats().FilesReused != len(f.files) {
		t.Errorf("the build from the file read %v, reused %d of %d", *f.reads, x.Stats().FilesReused, len(f.files))
	}
	if n, chunks := int(x.metaReused.Load()), len(x.metaJobs()); n != chunks {
		t.Errorf("the build from the file took %d of %d metadata chunks", n, chunks)
	}
	if d := sameIndex(f.x, x); d != "" {
		t.Fatalf("from the file differs from a read (-read +file):\n%s", d)
	}
	// Its Bodies are a lineage of their own: written again, the same.
	var again bytes.Buffer
	if _, err := x.Bodies().WriteTo(&again); err != nil || !bytes.Equal(again.Bytes(), f.data) {
		t.Errorf("written again: %d bytes, want the %d read (err %v)", again.Len(), len(f.data), err)
	}
}

// diffBody says how c (its terms in ct) differs from w (in wt).
func diffBody(c, w *fileBody, ct, wt strtab) string {
	switch {
	case c == nil:
		return "missing"
	case c.stamp != w.stamp || c.skipped != w.skipped || c.bytes != w.bytes || c.nlines != w.nlines:
		return "stamp, flags or sizes differ"
	case !slices.Equal(c.spans, w.spans) || !slices.Equal(c.length, w.length) || !slices.Equal(c.off, w.off):
		return "spans differ"
	case (c.t16 == nil) != (w.t16 == nil) || !slices.Equal(c.t16, w.t16) || !slices.Equal(c.t32, w.t32) || !slices.Equal(c.tfs, w.tfs):
		return "terms differ"
	case len(c.vocab) != len(w.vocab):
		return "vocabularies differ"
	}
	for k := range c.vocab {
		if !bytes.Equal(ct.at(c.vocab[k]), wt.at(w.vocab[k])) {
			return "vocabularies differ"
		}
	}
	return ""
}

// diffMeta says how metadata shard c (its terms in ct) differs from w.
func diffMeta(c, w *shard, ct, wt strtab) string {
	switch {
	case c == nil:
		return "missing"
	case !slices.Equal(c.docNode, w.docNode) || !slices.Equal(c.docField, w.docField) || !slices.Equal(c.docLen, w.docLen) || !slices.Equal(c.docOff, w.docOff):
		return "documents differ"
	case !slices.Equal(c.terms, w.terms) || !slices.Equal(c.tfs, w.tfs) || len(c.ids) != len(w.ids):
		return "terms differ"
	}
	for k := range c.ids {
		if !bytes.Equal(ct.at(c.ids[k]), wt.at(w.ids[k])) {
			return "vocabularies differ"
		}
	}
	return ""
}

// TestMetaChunkOutsideItsChunk: a metadata shard whose key a chunk has
// but whose documents name nodes past that chunk's end (a file that lies)
// is not taken; the chunk is tokenised, and the index is the same.
func TestMetaChunkOutsideItsChunk(t *testing.T) {
	f := newBodiesFixture(t, false)
	b, err := ReadBodies(f.data)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range b.meta {
		c.docNode[len(c.docNode)-1] = 1 << 20
	}
	var buf bytes.Buffer
	if _, err := b.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	spoilt, err := ReadBodies(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	x, err := BuildFrom(context.Background(), f.g, f.o, spoilt)
	if err != nil {
		t.Fatal(err)
	}
	if n := x.metaReused.Load(); n != 0 {
		t.Errorf("%d chunks taken with nodes past their end", n)
	}
	if d := sameIndex(f.x, x); d != "" {
		t.Fatalf("differs from a read (-read +file):\n%s", d)
	}
}

// TestReadBodiesRejects: a bodies file cut short, with a byte changed,
// or written from documents that point outside their file (a bug, or a
// file whose checksum was made to fit) is an error.
func TestReadBodiesRejects(t *testing.T) {
	f := newBodiesFixture(t, true)
	for n := 0; n < len(f.data); n += max(1, len(f.data)/997) {
		if _, err := ReadBodies(f.data[:n]); err == nil {
			t.Fatalf("cut to %d of %d bytes: no error", n, len(f.data))
		}
	}
	for i := 0; i < len(f.data); i += max(1, len(f.data)/997) {
		d := slices.Clone(f.data)
		d[i] ^= 0x24
		if _, err := ReadBodies(d); err == nil {
			t.Fatalf("byte %d changed: no error", i)
		}
	}
	small := "web/server.go"
	for _, tc := range []struct {
		name  string
		spoil func(b *Bodies)
	}{
		{"a vocabulary term unknown", func(b *Bodies) { b.m[small].vocab[0] = 1 << 30 }},
		{"a vocabulary term twice", func(b *Bodies) { c := b.m[small]; c.vocab[1] = c.vocab[0] }},
		{"a term outside the vocabulary", func(b *Bodies) { c := b.m[small]; c.t16[0] = uint16(len(c.vocab)) }},
		{"a span past the file's end", func(b *Bodies) { c := b.m[small]; c.spans[len(c.spans)-1].end = c.nlines + 1 }},
		{"spans out of order", func(b *Bodies) { c := b.m[small]; c.spans[1], c.spans[2] = c.spans[2], c.spans[1] }},
		{"a zero term frequency", func(b *Bodies) { b.m[small].tfs[0] = 0 }},
		{"a narrow file marked wide", func(b *Bodies) {
			c := b.m[small]
			for _, v := range c.t16 {
				c.t32 = append(c.t32, uint32(v))
			}
			c.t16 = nil
		}},
		{"an empty path", func(b *Bodies) { b.m[""] = b.m[small] }},
		{"a metadata term unknown", func(b *Bodies) { anyMeta(b).ids[0] = 1 << 30 }},
		{"a metadata term outside its vocabulary", func(b *Bodies) { c := anyMeta(b); c.terms[0] = uint32(len(c.ids)) }},
		{"a metadata document of the body field", func(b *Bodies) { anyMeta(b).docField[0] = Body }},
		{"metadata documents out of node order", func(b *Bodies) {
			c := anyMeta(b)
			c.docNode[0] = c.docNode[len(c.docNode)-1] + 1
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, err := ReadBodies(f.data)
			if err != nil {
				t.Fatal(err)
			}
			tc.spoil(b)
			var buf bytes.Buffer
			if _, err := b.WriteTo(&buf); err != nil {
				t.Fatal(err)
			}
			if _, err := ReadBodies(buf.Bytes()); err == nil {
				t.Fatal("read without an error")
			}
		})
	}
}

// anyMeta is b's metadata shard of the smallest key with two documents
// or more.
func anyMeta(b *Bodies) *shard {
	for _, k := range slices.Sorted(maps.Keys(b.meta)) {
		if c := b.meta[k]; len(c.docNode) > 1 && len(c.terms) > 0 {
			return c
		}
	}
	panic("no metadata shard")
}

// FuzzReadBodies: whatever a bodies file holds (its checksum made to
// fit), reading it fails or gives documents a build takes without a
// panic, which read back the same once written again.
func FuzzReadBodies(f *testing.F) {
	fx := newBodiesFixture(f, false)
	f.Add(fx.data)
	f.Add(bodiesMagic)
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 4 {
			data = slices.Clone(data)
			n := len(data) - 4
			binary.LittleEndian.PutUint32(data[n:], crc32.Checksum(data[:n], bodiesCRC))
		}
		b, err := ReadBodies(data)
		if err != nil {
			return
		}
		o := fx.o
		o.ReadFile = func(p string) ([]byte, error) { return []byte(fx.files[p]), nil }
		if _, err := BuildFrom(context.Background(), fx.g, o, b); err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if _, err := b.WriteTo(&buf); err != nil {
			t.Fatal(err)
		}
		again, err := ReadBodies(buf.Bytes())
		if err != nil || again.Files() != b.Files() {
			t.Fatalf("written again and read: %v", err)
		}
		for p, c := range b.m {
			if d := diffBody(again.m[p], c, again.terms.view(), b.terms.view()); d != "" {
				t.Fatalf("written again and read: %s %s", p, d)
			}
		}
	})
}
