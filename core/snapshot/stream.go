package snapshot

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"slices"

	"github.com/m1nd-go/m1nd/core/graph"
)

// Cut is a finalized graph fixed at one instant for a binary snapshot that
// is written later, streamed from the graph's own arrays: no copy of the
// graph (graph.Raw) and no file-sized buffer, which on a large graph were
// two transients of tens of MB each beside everything the server holds.
//
// A finalized graph's structure is never written again (a splice or an
// ingest builds a new graph), so the cut reads it in place. Only the
// learned per-edge state, which plasticity changes while the graph is
// served, is copied when the cut is taken.
type Cut struct {
	g       *graph.Graph
	meta    []byte
	learned learnedEdges
}

// learnedEdges is the per-edge state plasticity writes, as of the cut.
// Only the original weights are copied for every edge; the rest is kept
// for the edges graph.MaybeLearned lists, since every other edge then had
// its original weight (bit for bit), no counts and no flags. On go-std
// (≈ 700 K edges, a few thousand learned after 200 activates) the dense
// copy was ≈ 10 MB held through the whole write, the largest part of the
// auto-save's peak (activate-speed9.md); this one is ≈ 3 MB.
type learnedEdges struct {
	original []float32 // every edge's
	// edges lists, in edge order, the edges whose state is kept below;
	// weights[k] … ltd[k] are edges[k]'s.
	edges              []graph.EdgeIdx
	weights            []float32
	strengthen, weaken []uint16
	ltp, ltd           []bool
}

// cutLearned copies g's learned state, as learnedEdges says. Take it
// where learning is excluded.
func cutLearned(g *graph.Graph) learnedEdges {
	// Read without allocating the counts and flags of a graph that has
	// none (LearningState): the listed edges' are then all zero.
	pl := g.LearningState()
	l := learnedEdges{original: slices.Clone(pl.Original), edges: g.MaybeLearned(nil)}
	k := len(l.edges)
	l.weights, l.strengthen, l.weaken = make([]float32, k), make([]uint16, k), make([]uint16, k)
	l.ltp, l.ltd = make([]bool, k), make([]bool, k)
	for i, e := range l.edges {
		l.weights[i] = g.Weight(e)
		if pl.Strengthen != nil {
			l.strengthen[i], l.weaken[i] = pl.Strengthen[e], pl.Weaken[e]
			l.ltp[i], l.ltd[i] = pl.LTP[e], pl.LTD[e]
		}
	}
	return l
}

// kept returns an edge section's put: some(k) for an edge whose state
// was kept (k indexes it), none for an edge that learned nothing. The
// section's edges come in order, so one cursor walks the kept list.
func kept(l *learnedEdges, some func(k int), none func(i int)) func(i int) {
	k := 0
	return func(i int) {
		if k < len(l.edges) && int(l.edges[k]) == i {
			some(k)
			k++
			return
		}
		none(i)
	}
}

// TakeCut fixes g's learned state for a binary snapshot carrying meta
// (see SaveWithMeta); the cut keeps meta, which the caller must not change.
// Take it where learning is excluded (the plasticity engine's lock) so the
// weights agree with each other and with whatever the meta records.
func TakeCut(g *graph.Graph, meta []byte) (*Cut, error) {
	if !g.Finalized() {
		return nil, graph.ErrNotFinalized
	}
	if !parallelPlasticity(g) {
		return nil, fmt.Errorf("the graph's learned state does not have one entry for each of its %d edges: not saved (a graph is built by Finalize, which makes them)", g.NumEdges())
	}
	return &Cut{g: g, meta: meta, learned: cutLearned(g)}, nil
}

// parallelPlasticity reports whether g's per-edge learned arrays have one
// entry an edge, as Finalize makes them (the cut's sections assume it),
// the counts and flags possibly not yet allocated (all zero).
func parallelPlasticity(g *graph.Graph) bool {
	m, pl := g.NumEdges(), g.LearningState()
	if len(pl.Original) != m {
		return false
	}
	if pl.Strengthen == nil && pl.Weaken == nil && pl.LTP == nil && pl.LTD == nil {
		return true
	}
	return len(pl.Strengthen) == m && len(pl.Weaken) == m && len(pl.LTP) == m && len(pl.LTD) == m
}

// WriteTo writes the binary snapshot (the layout in binary.go) to w in
// chunks, computing the checksum as it goes. A cut may be written more
// than once; every write gives the same bytes.
func (c *Cut) WriteTo(w io.Writer) (int64, error) {
	strs, err := numberStrings(c.g)
	if err != nil {
		return 0, err
	}
	s := &stream{w: w, buf: make([]byte, 0, streamChunk+64)}
	s.raw(binaryMagic[:])
	s.u32(BinaryVersion)
	s.u32(0)
	s.u64(uint64(c.g.Generation()))
	s.u64(uint64(len(c.meta)))
	s.raw(c.meta)
	s.stringTable(c.g, strs)
	s.nodes(c.g, strs)
	s.edges(c.g, strs, &c.learned)
	s.trailer()
	return s.n, s.err
}

// streamChunk is how many bytes the stream gathers before a write: large
// enough that the per-write cost vanishes, small enough to be no
// transient at all.
const streamChunk = 64 << 10

// stream appends little-endian values to a chunk, hands full chunks to w
// and keeps the running CRC-32C of everything written. The first error
// sticks; later writes are dropped.
type stream struct {
	w   io.Writer
	buf []byte
	crc uint32
	n   int64
	err error
}

func (s *stream) flush() {
	if s.err == nil && len(s.buf) > 0 {
		s.crc = crc32.Update(s.crc, castagnoli, s.buf)
		s.write(s.buf)
	}
	s.buf = s.buf[:0]
}

// write hands p to w, counting what was written.
func (s *stream) write(p []byte) {
	if s.err != nil {
		return
	}
	k, err := s.w.Write(p)
	s.n += int64(k)
	if err == nil && k < len(p) {
		err = io.ErrShortWrite
	}
	s.err = err
}

func (s *stream) room() {
	if len(s.buf) >= streamChunk {
		s.flush()
	}
}

func (s *stream) u32(v uint32)  { s.buf = binary.LittleEndian.AppendUint32(s.buf, v); s.room() }
func (s *stream) u64(v uint64)  { s.buf = binary.LittleEndian.AppendUint64(s.buf, v); s.room() }
func (s *stream) u16(v uint16)  { s.buf = binary.LittleEndian.AppendUint16(s.buf, v); s.room() }
func (s *stream) byte1(v byte)  { s.buf = append(s.buf, v); s.room() }
func (s *stream) f32(v float32) { s.u32(math.Float32bits(v)) }

// raw appends bytes; a large slice (the meta) goes out in place rather
// than through the chunk.
func (s *stream) raw(p []byte) {
	if len(p) < streamChunk {
		s.buf = append(s.buf, p...)
		s.room()
		return
	}
	s.flush()
	if s.err == nil {
		s.crc = crc32.Update(s.crc, castagnoli, p)
		s.write(p)
	}
}

func (s *stream) str(v string) {
	if len(v) < streamChunk {
		s.buf = append(s.buf, v...)
		s.room()
		return
	}
	s.raw([]byte(v))
}

func boolByte(b bool) byte {
	if b {
		return 1
	}
	return 0
}

// section writes an array section: its element count, then put(i) for
// every element in order.
func (s *stream) section(n int, put func(i int)) {
	s.u64(uint64(n))
	for i := 0; i < n; i++ {
		put(i)
	}
}

// trailer ends the file: the body length and the checksum of everything
// before it (the length included), then the end marker.
func (s *stream) trailer() {
	s.u64(uint64(s.n) + uint64(len(s.buf)))
	s.flush()
	var t [4 + 8]byte
	binary.LittleEndian.PutUint32(t[:], s.crc)
	copy(t[4:], binaryTrailer[:])
	s.write(t[:])
}

// stringTable numbers the interned strings the snapshot uses as
// graph.ToRaw does: the empty string first, then one slot per external ID
// (they are not interned), then the other strings in first-use order.
type stringTable struct {
	index []uint32    // by handle; 0 = unused (only handle 0 is the empty string)
	order []graph.Str // used handles in first-use order
	tags  int         // total tags on all nodes
}

func (t *stringTable) of(h graph.Str) uint32 { return t.index[h] }

// numberStrings walks the graph in the order graph.ToRaw does (per node:
// label, tags, source path, excerpt, namespace; then every edge's
// relation) so the file is byte-identical to the one the copying encoder
// wrote.
func numberStrings(g *graph.Graph) (*stringTable, error) {
	n := g.NumNodes()
	t := &stringTable{index: make([]uint32, g.Strings().Len())}
	next := uint32(1 + n)
	bad := false
	use := func(h graph.Str) {
		switch {
		case h == 0:
		case int(h) >= len(t.index):
			bad = true
		case t.index[h] == 0:
			t.index[h] = next
			next++
			t.order = append(t.order, h)
		}
	}
	for i := 0; i < n; i++ {
		id := graph.NodeID(i)
		use(g.LabelStr(id))
		tags := g.TagStrs(id)
		t.tags += len(tags)
		for _, h := range tags {
			use(h)
		}
		p, x, ns := g.ProvenanceStrs(id)
		use(p)
		use(x)
		use(ns)
	}
	for e := 0; e < g.NumEdges(); e++ {
		use(g.Relation(graph.EdgeIdx(e)))
	}
	if bad {
		return nil, fmt.Errorf("graph holds a string handle outside its interner (%d strings): not saved", len(t.index))
	}
	return t, nil
}

// stringTable writes the count, every string's length, then the bytes.
func (s *stream) stringTable(g *graph.Graph, t *stringTable) {
	n, in := g.NumNodes(), g.Strings()
	s.u64(uint64(1 + n + len(t.order)))
	s.u32(0)
	for i := 0; i < n; i++ {
		s.u32(uint32(len(g.ExternalID(graph.NodeID(i)))))
	}
	for _, h := range t.order {
		s.u32(uint32(len(in.String(h))))
	}
	for i := 0; i < n; i++ {
		s.str(g.ExternalID(graph.NodeID(i)))
	}
	for _, h := range t.order {
		s.str(in.String(h))
	}
}

// nodes writes the per-node sections in graph.Raw's order.
func (s *stream) nodes(g *graph.Graph, t *stringTable) {
	n := g.NumNodes()
	id := func(i int) graph.NodeID { return graph.NodeID(i) }
	s.section(n, func(i int) { s.u32(uint32(i + 1)) }) // external IDs' slots
	s.section(n, func(i int) { s.u32(t.of(g.LabelStr(id(i)))) })
	s.section(n, func(i int) { s.byte1(byte(g.Type(id(i)))) })
	off := uint32(0)
	s.section(n+1, func(i int) {
		s.u32(off)
		if i < n {
			off += uint32(len(g.TagStrs(id(i))))
		}
	})
	s.u64(uint64(t.tags))
	for i := 0; i < n; i++ {
		for _, h := range g.TagStrs(id(i)) {
			s.u32(t.of(h))
		}
	}
	s.section(n, func(i int) { s.u64(math.Float64bits(g.LastModified(id(i)))) })
	s.section(n, func(i int) { s.f32(g.ChangeFrequency(id(i))) })
	s.section(n, func(i int) { s.f32(g.PageRank(id(i))) })
	s.section(n, func(i int) { p, _, _ := g.ProvenanceStrs(id(i)); s.u32(t.of(p)) })
	s.section(n, func(i int) { _, x, _ := g.ProvenanceStrs(id(i)); s.u32(t.of(x)) })
	s.section(n, func(i int) { _, _, ns := g.ProvenanceStrs(id(i)); s.u32(t.of(ns)) })
	s.section(n, func(i int) { s.u32(g.Provenance(id(i)).LineStart) })
	s.section(n, func(i int) { s.u32(g.Provenance(id(i)).LineEnd) })
	s.section(n, func(i int) { s.byte1(boolByte(g.Provenance(id(i)).Canonical)) })
}

// edges writes the forward CSR's sections in graph.Raw's order, the
// learned state from the cut.
func (s *stream) edges(g *graph.Graph, t *stringTable, l *learnedEdges) {
	n, m := g.NumNodes(), g.NumEdges()
	e := func(i int) graph.EdgeIdx { return graph.EdgeIdx(i) }
	s.section(n+1, func(i int) {
		if i == n {
			s.u32(uint32(m))
			return
		}
		lo, _ := g.OutRange(graph.NodeID(i))
		s.u32(uint32(lo))
	})
	s.section(m, func(i int) { s.u32(uint32(g.Target(e(i)))) })
	// An edge that learned nothing had its original weight's bits.
	s.section(m, kept(l, func(k int) { s.f32(l.weights[k]) }, func(i int) { s.f32(l.original[i]) }))
	s.section(m, func(i int) { s.u32(t.of(g.Relation(e(i)))) })
	s.section(m, func(i int) { s.byte1(byte(g.EdgeDirection(e(i)))) })
	s.section(m, func(i int) { s.byte1(boolByte(g.Inhibitory(e(i)))) })
	s.section(m, func(i int) { s.f32(g.CausalStrength(e(i))) })
	s.section(m, func(i int) { s.byte1(boolByte(g.IsMirror(e(i)))) })
	s.section(m, func(i int) { s.f32(l.original[i]) })
	s.section(m, kept(l, func(k int) { s.u16(l.strengthen[k]) }, func(int) { s.u16(0) }))
	s.section(m, kept(l, func(k int) { s.u16(l.weaken[k]) }, func(int) { s.u16(0) }))
	s.section(m, kept(l, func(k int) { s.byte1(boolByte(l.ltp[k])) }, func(int) { s.byte1(0) }))
	s.section(m, kept(l, func(k int) { s.byte1(boolByte(l.ltd[k])) }, func(int) { s.byte1(0) }))
}

// encoded is a snapshot already encoded (the JSON form), written as is.
type encoded []byte

func (b encoded) WriteTo(w io.Writer) (int64, error) {
	k, err := w.Write(b)
	return int64(k), err
}

// CutFor takes the snapshot Save would write to path, to be written later
// (with WriteFileAtomic): a streamed Cut for a binary path, the encoded
// bytes for a JSON one. Take it where learning is excluded, like TakeCut.
func CutFor(g *graph.Graph, meta []byte, path string) (io.WriterTo, error) {
	if isBinaryPath(path) {
		return TakeCut(g, meta)
	}
	b, err := Marshal(g, meta, path)
	return encoded(b), err
}

// encodeCut returns a cut's bytes, for callers that want them in memory.
func encodeCut(c *Cut) ([]byte, error) {
	var b bytes.Buffer
	b.Grow(64 + len(c.meta) + c.g.NumEdges()*30 + c.g.NumNodes()*80)
	_, err := c.WriteTo(&b)
	return b.Bytes(), err
}
