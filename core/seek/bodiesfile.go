package seek

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/m1nd-go/m1nd/core/graph"
)

// A bodies file is Bodies (the documents taken by stamp) in a compact
// binary form, so a process that starts on a saved graph builds its first
// index from them instead of reading and tokenising every file again
// (most of that build: on go-std 1.1 s of a 2-core machine's wall).
//
// Layout: bodiesMagic; the body options (MaxFileBytes, MaxEntityTerms,
// MaxFileTerms); the term table (count, each term's length, their
// bytes); the files (count, then the totals their arrays sum to, then
// each file in path order); the metadata shards by key (metas); a
// CRC-32C of everything before it. Integers are uvarints. A file is its
// path, stamp, flags (skipped, wide), bytes, lines and spans (start as a
// delta of the last start, end − start); unless skipped, its vocabulary,
// each span's document length and term count, its terms' local IDs
// (little-endian, 16 or 32 bits as held) and their frequencies (a byte,
// or 255 and 16 bits).
var bodiesMagic = []byte("m1sb\x01")

var bodiesCRC = crc32.MakeTable(crc32.Castagnoli)

const (
	bodySkipped = 1 << iota
	bodyWide
)

// Files is the number of files whose documents b holds by stamp.
func (b *Bodies) Files() int { return len(b.m) }

// FilesNotIn is the number of files whose documents b holds by stamp
// and base does not hold as the same documents (cut again, or new): what
// a copy of base written earlier lacks of b. A nil base holds none.
func (b *Bodies) FilesNotIn(base *Bodies) int {
	if base == nil {
		return len(b.m)
	}
	n := 0
	for p, fb := range b.m {
		if base.m[p] != fb {
			n++
		}
	}
	return n
}

// WriteTo writes the documents b holds by stamp (those of the index that
// made b; not those an ingest collected) in the form ReadBodies reads,
// in pieces of about 64 KB (no copy of the whole file is held).
func (b *Bodies) WriteTo(w io.Writer) (int64, error) {
	e := &bodyEncoder{w: w, buf: make([]byte, 0, 1<<16+1<<10)}
	e.buf = append(e.buf, bodiesMagic...)
	e.uint(b.opts.MaxFileBytes)
	e.uint(b.opts.MaxEntityTerms)
	e.uint(b.opts.MaxFileTerms)
	var terms strtab
	if b.terms != nil {
		terms = b.terms.view()
	}
	e.uint(terms.len())
	for i := range terms.len() {
		e.uint(len(terms.at(uint32(i))))
	}
	e.raw(terms.bytes[:terms.slabEnd()])
	paths := make([]string, 0, len(b.m))
	for p := range b.m {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	e.uint(len(paths))
	e.totals(b.m)
	for _, p := range paths {
		e.file(p, b.m[p])
	}
	e.metas(b.meta)
	e.flush()
	e.buf = binary.LittleEndian.AppendUint32(e.buf[:0], e.crc)
	e.flush()
	return e.n, e.err
}

// slabEnd is where the last string's bytes end.
func (t *strtab) slabEnd() int {
	if len(t.end) == 0 {
		return 0
	}
	return int(t.end[len(t.end)-1])
}

// bodyEncoder writes a bodies file through a buffer, keeping its CRC.
type bodyEncoder struct {
	w   io.Writer
	buf []byte
	crc uint32
	n   int64
	err error
}

// flush writes the buffer out (once a write failed, nothing more).
func (e *bodyEncoder) flush() {
	if e.err == nil && len(e.buf) > 0 {
		e.crc = crc32.Update(e.crc, bodiesCRC, e.buf)
		var n int
		n, e.err = e.w.Write(e.buf)
		e.n += int64(n)
	}
	e.buf = e.buf[:0]
}

// raw writes bytes as they are.
func (e *bodyEncoder) raw(p []byte) {
	for len(p) > 0 {
		k := min(len(p), 1<<16)
		e.buf = append(e.buf, p[:k]...)
		p = p[k:]
		e.flush()
	}
}

func (e *bodyEncoder) uint(n int) {
	if len(e.buf) >= 1<<16 {
		e.flush()
	}
	e.buf = binary.AppendUvarint(e.buf, uint64(n))
}

func (e *bodyEncoder) str(s string) {
	e.uint(len(s))
	if len(s) > 1<<12 {
		e.raw([]byte(s))
		return
	}
	e.buf = append(e.buf, s...)
}

// totals writes the sizes of the arrays the files hold, so a reader
// allocates each once for all of them.
func (e *bodyEncoder) totals(m map[string]*fileBody) {
	var vocab, spans, t16, t32, tfs int
	for _, c := range m {
		vocab, spans = vocab+len(c.vocab), spans+len(c.spans)
		t16, t32, tfs = t16+len(c.t16), t32+len(c.t32), tfs+len(c.tfs)
	}
	for _, n := range []int{vocab, spans, t16, t32, tfs} {
		e.uint(n)
	}
}

func (e *bodyEncoder) file(p string, c *fileBody) {
	e.str(p)
	e.str(c.stamp)
	var flags int
	if c.skipped {
		flags |= bodySkipped
	}
	if c.t32 != nil {
		flags |= bodyWide
	}
	e.uint(flags)
	e.uint(int(c.bytes))
	e.uint(int(c.nlines))
	e.uint(len(c.spans))
	last := uint32(0)
	for _, sp := range c.spans {
		e.uint(int(sp.start - last))
		e.uint(int(sp.end - sp.start))
		last = sp.start
	}
	if c.skipped {
		return
	}
	e.uint(len(c.vocab))
	for _, v := range c.vocab {
		e.uint(int(v))
	}
	for k := range c.spans {
		e.uint(int(c.length[k]))
		e.uint(int(c.off[k+1] - c.off[k]))
	}
	e.terms(c.t16, c.t32)
	e.tfs(c.tfs)
}

// metas writes the metadata shards by key: vocabulary, documents (node
// from the chunk's first as a delta of the last, field, length, term
// count), local term IDs and frequencies.
func (e *bodyEncoder) metas(m map[uint64]*shard) {
	keys := slices.Sorted(maps.Keys(m))
	e.uint(len(keys))
	for _, k := range keys {
		c := m[k]
		e.buf = binary.LittleEndian.AppendUint64(e.buf, k)
		e.uint(len(c.ids))
		for _, v := range c.ids {
			e.uint(int(v))
		}
		e.uint(len(c.docNode))
		var last graph.NodeID
		for d, n := range c.docNode {
			e.uint(int(n - last))
			e.uint(int(c.docField[d]))
			e.uint(int(c.docLen[d]))
			e.uint(int(c.docOff[d+1] - c.docOff[d]))
			last = n
		}
		for _, t := range c.terms {
			e.uint(int(t))
		}
		e.tfs(c.tfs)
	}
}

// terms writes a file's local term IDs as they are held, little-endian
// (a reader checks them in one tight loop).
func (e *bodyEncoder) terms(t16 []uint16, t32 []uint32) {
	for len(t16) > 0 {
		k := min(len(t16), 1<<14)
		for _, t := range t16[:k] {
			e.buf = binary.LittleEndian.AppendUint16(e.buf, t)
		}
		t16 = t16[k:]
		e.flush()
	}
	for len(t32) > 0 {
		k := min(len(t32), 1<<13)
		for _, t := range t32[:k] {
			e.buf = binary.LittleEndian.AppendUint32(e.buf, t)
		}
		t32 = t32[k:]
		e.flush()
	}
}

// tfs writes term frequencies a byte each, 255 and two bytes past 254.
func (e *bodyEncoder) tfs(tfs []uint16) {
	for len(tfs) > 0 {
		k := min(len(tfs), 1<<14)
		for _, f := range tfs[:k] {
			if f < 255 {
				e.buf = append(e.buf, byte(f))
			} else {
				e.buf = binary.LittleEndian.AppendUint16(append(e.buf, 255), f)
			}
		}
		tfs = tfs[k:]
		e.flush()
	}
}

// ReadBodies decodes what Bodies.WriteTo wrote, for BuildFrom. A file
// that is damaged, cut short or not a bodies file is an error (the build
// then reads every file, as without one), never a panic or a document
// that points outside its file's vocabulary.
func ReadBodies(data []byte) (b *Bodies, err error) {
	if !bytes.HasPrefix(data, bodiesMagic) {
		return nil, errors.New("seek: not a bodies file (bad magic)")
	}
	if len(data) < len(bodiesMagic)+4 {
		return nil, errors.New("seek: bodies file cut short")
	}
	body := data[:len(data)-4]
	if crc32.Checksum(body, bodiesCRC) != binary.LittleEndian.Uint32(data[len(data)-4:]) {
		return nil, errors.New("seek: bodies file damaged (checksum)")
	}
	d := &bodyDecoder{b: body[len(bodiesMagic):]}
	defer func() {
		if r := recover(); r != nil {
			de, ok := r.(bodyDecodeError)
			if !ok {
				panic(r)
			}
			b, err = nil, fmt.Errorf("seek: bodies file: %s", string(de))
		}
	}()
	b = &Bodies{m: map[string]*fileBody{}}
	b.opts.MaxFileBytes, b.opts.MaxEntityTerms, b.opts.MaxFileTerms = d.int(), d.int(), d.int()
	b.terms = &termIndex{tab: d.terms()}
	d.files(b)
	b.meta = d.metas()
	if len(d.b) != 0 {
		d.fail("%d bytes after the last file", len(d.b))
	}
	return b, nil
}

type bodyDecodeError string

type bodyDecoder struct {
	b      []byte
	nterms int
	nfiles int
	seen   []uint32 // per term: the file (+1) whose vocabulary held it
	// the arrays every file's slices are cut from
	vocab, lengths, t32 []uint32
	spans               []span
	t16, tfs            []uint16
}

func (d *bodyDecoder) fail(format string, args ...any) {
	panic(bodyDecodeError(fmt.Sprintf(format, args...)))
}

func (d *bodyDecoder) uint() uint64 {
	if len(d.b) > 0 && d.b[0] < 0x80 {
		v := d.b[0]
		d.b = d.b[1:]
		return uint64(v)
	}
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.fail("bad or cut integer")
	}
	d.b = d.b[n:]
	return v
}

// int is a uvarint at most max int32 (every count and value here).
func (d *bodyDecoder) int() int {
	v := d.uint()
	if v > 1<<31-1 {
		d.fail("value %d out of range", v)
	}
	return int(v)
}

// count is a count of items of at least one byte each still to read.
func (d *bodyDecoder) count() int {
	n := d.int()
	if n > len(d.b) {
		d.fail("count %d past the file's end", n)
	}
	return n
}

func (d *bodyDecoder) bytes(n int) []byte {
	if n > len(d.b) {
		d.fail("%d bytes past the file's end", n)
	}
	v := d.b[:n:n]
	d.b = d.b[n:]
	return v
}

// terms reads the term table: distinct strings, in ID order.
func (d *bodyDecoder) terms() *strtab {
	n := d.count()
	t := newStrtab(n)
	size := 0
	for range n {
		size += d.int()
		if size > len(d.b) {
			d.fail("terms past the file's end")
		}
		t.end = append(t.end, uint32(size))
	}
	t.bytes = append(make([]byte, 0, size), d.bytes(size)...)
	for i := range n {
		if !t.placeNew(uint32(i)) {
			d.fail("term %q twice", t.at(uint32(i)))
		}
	}
	d.nterms = n
	return t
}

// files reads the files into b.m.
func (d *bodyDecoder) files(b *Bodies) {
	n := d.count()
	d.nfiles = n
	vocab, spans, t16, t32, tfs := d.count(), d.count(), d.count(), d.count(), d.count()
	d.vocab, d.spans, d.lengths = make([]uint32, 0, vocab), make([]span, 0, spans), make([]uint32, 0, 2*spans+n)
	d.t16, d.t32, d.tfs = make([]uint16, 0, t16), make([]uint32, 0, t32), make([]uint16, 0, tfs)
	d.seen = make([]uint32, d.nterms)
	var names strings.Builder
	type named struct {
		c           *fileBody
		path, stamp [2]int
	}
	all := make([]named, 0, n)
	last := ""
	for i := range n {
		p, s := d.bytes(d.count()), d.bytes(d.count())
		if len(p) == 0 || (i > 0 && string(p) <= last) {
			d.fail("file paths empty or out of order at %q", p)
		}
		last = string(p)
		f := named{c: d.file(uint32(i + 1))}
		f.path = [2]int{names.Len(), names.Len() + len(p)}
		names.Write(p)
		f.stamp = [2]int{names.Len(), names.Len() + len(s)}
		names.Write(s)
		all = append(all, f)
	}
	if len(d.vocab) != vocab || len(d.spans) != spans || len(d.t16) != t16 || len(d.t32) != t32 || len(d.tfs) != tfs {
		d.fail("files do not sum to their totals")
	}
	str := names.String()
	for _, f := range all {
		f.c.stamp = str[f.stamp[0]:f.stamp[1]]
		b.m[str[f.path[0]:f.path[1]]] = f.c
	}
}

// metas reads the metadata shards (bodyEncoder.metas). A shard's nodes
// are checked against its chunk's size where a build takes it
// (reusableMeta): the key names the chunk, the file does not.
func (d *bodyDecoder) metas() map[uint64]*shard {
	n := d.count()
	m := make(map[uint64]*shard, n)
	var last uint64
	for i := range n {
		raw := d.bytes(8)
		k := binary.LittleEndian.Uint64(raw)
		if i > 0 && k <= last {
			d.fail("metadata chunks out of order")
		}
		last = k
		m[k] = d.meta(uint32(d.nfiles + i + 1))
	}
	return m
}

// meta reads one metadata shard, the mark-th vocabulary of the file.
func (d *bodyDecoder) meta(mark uint32) *shard {
	s := &shard{ids: make([]uint32, d.count())}
	for k := range s.ids {
		v := d.int()
		if v >= d.nterms || d.seen[v] == mark {
			d.fail("vocabulary term %d unknown or twice", v)
		}
		d.seen[v] = mark
		s.ids[k] = uint32(v)
	}
	nd := d.count()
	s.docNode, s.docField, s.docLen = make([]graph.NodeID, nd), make([]Field, nd), make([]uint32, nd)
	s.docOff = make([]uint32, nd+1)
	var node int
	for k := range nd {
		node += d.int()
		f := d.int()
		if node > 1<<31-1 || f >= int(Body) {
			d.fail("metadata document of node %d, field %d", node, f)
		}
		s.docNode[k], s.docField[k], s.docLen[k] = graph.NodeID(node), Field(f), uint32(d.int())
		s.docOff[k+1] = s.docOff[k] + uint32(d.count())
	}
	nt := int(s.docOff[nd])
	if nt > len(d.b) {
		d.fail("metadata terms past the file's end")
	}
	s.terms = make([]uint32, nt)
	for k := range s.terms {
		t := d.int()
		if t >= len(s.ids) {
			d.fail("term %d outside a vocabulary of %d", t, len(s.ids))
		}
		s.terms[k] = uint32(t)
	}
	s.tfs = make([]uint16, nt)
	d.freqs(s.tfs)
	return s
}

// file reads one file's documents (the i-th, from 1).
func (d *bodyDecoder) file(i uint32) *fileBody {
	flags := d.int()
	if flags&^(bodySkipped|bodyWide) != 0 {
		d.fail("unknown flags %#x", flags)
	}
	c := &fileBody{skipped: flags&bodySkipped != 0, bytes: int64(d.int()), nlines: uint32(d.int())}
	c.spans = d.readSpans(d.count(), c.nlines)
	if c.skipped {
		return c
	}
	nv := d.count()
	c.vocab = grow(&d.vocab, nv)
	for k := range c.vocab {
		v := d.int()
		if v >= d.nterms || d.seen[v] == i {
			d.fail("vocabulary term %d unknown or twice", v)
		}
		d.seen[v] = i
		c.vocab[k] = uint32(v)
	}
	c.length = grow(&d.lengths, len(c.spans))
	c.off = grow(&d.lengths, len(c.spans)+1)
	for k := range c.spans {
		c.length[k] = uint32(d.int())
		c.off[k+1] = c.off[k] + uint32(d.count())
	}
	n := int(c.off[len(c.spans)])
	if wide := flags&bodyWide != 0; wide != (nv > 1<<16) {
		d.fail("term width does not fit a vocabulary of %d", nv)
	} else if wide {
		c.t32 = grow(&d.t32, n)
		raw := d.bytes(4 * n)
		for k := range c.t32 {
			c.t32[k] = binary.LittleEndian.Uint32(raw[4*k:])
			if c.t32[k] >= uint32(nv) {
				d.fail("term %d outside a vocabulary of %d", c.t32[k], nv)
			}
		}
	} else {
		c.t16 = grow(&d.t16, n)
		raw := d.bytes(2 * n)
		for k := range c.t16 {
			c.t16[k] = binary.LittleEndian.Uint16(raw[2*k:])
			if int(c.t16[k]) >= nv {
				d.fail("term %d outside a vocabulary of %d", c.t16[k], nv)
			}
		}
	}
	c.tfs = grow(&d.tfs, n)
	d.freqs(c.tfs)
	return c
}

// freqs reads term frequencies (bodyEncoder.tfs), none of them 0.
func (d *bodyDecoder) freqs(tfs []uint16) {
	b := d.b
	for k := range tfs {
		if len(b) == 0 {
			d.fail("term frequencies past the file's end")
		}
		f := uint16(b[0])
		b = b[1:]
		if f == 255 {
			if len(b) < 2 {
				d.fail("term frequencies past the file's end")
			}
			f, b = binary.LittleEndian.Uint16(b), b[2:]
		}
		if f == 0 {
			d.fail("term frequency 0")
		}
		tfs[k] = f
	}
	d.b = b
}

// readSpans reads n spans, sorted and distinct, within nlines lines (the
// file's own, span 0–0, first).
func (d *bodyDecoder) readSpans(n int, nlines uint32) []span {
	sp := grow(&d.spans, n)
	var last uint32
	for k := range sp {
		start := uint64(last) + uint64(d.int())
		end := start + uint64(d.int())
		ok := end <= uint64(nlines) && (start == 0) == (end == 0) && (start > 0 || k == 0)
		if !ok || (k > 0 && cmpSpan(span{uint32(start), uint32(end)}, sp[k-1]) <= 0) {
			d.fail("span %d-%d out of order or past line %d", start, end, nlines)
		}
		sp[k] = span{uint32(start), uint32(end)}
		last = uint32(start)
	}
	return sp
}

// grow takes the next n items of slab (allocated to its total: a file
// that claims more than the totals is damaged) as a slice of their own
// capacity, never nil.
func grow[T any](slab *[]T, n int) []T {
	s := *slab
	if n > cap(s)-len(s) {
		panic(bodyDecodeError("arrays past their totals"))
	}
	*slab = s[:len(s)+n]
	return s[len(s) : len(s)+n : len(s)+n]
}
