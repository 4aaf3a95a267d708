package cache

import (
	"encoding/binary"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/ingest/extract"
)

// A result blob is an extract.Result in a compact binary form: gob, with
// a new encoder per blob (each blob must decode alone) and reflection for
// every field, was 4.5 s of CPU of a go-std ingest through the server, on
// the two cores the parse needs, for 6,500 files.
//
// Layout: blobMagic, then the fields in the order encodeResult writes
// them. Integers are uvarints (ParseErrors a varint); a count precedes
// each list and map, maps in key order. A string is a uvarint code: 0 the
// empty string, 2n+1 a new string of n bytes that follow (it takes the
// next index of the blob's string table), 2n+2 the string of index n, so
// the file ID every node and edge repeats is written once.
var blobMagic = []byte("m1nr\x01")

// blobEncoder holds an encoding's buffer and string table between blobs.
type blobEncoder struct {
	buf []byte
	tab map[string]uint64
}

var blobEncoders = sync.Pool{New: func() any { return &blobEncoder{tab: map[string]uint64{}} }}

// encodeResult returns r's blob.
func encodeResult(r *extract.Result) []byte {
	e := blobEncoders.Get().(*blobEncoder)
	e.buf = append([]byte(nil), blobMagic...)
	e.str(r.Path)
	e.str(r.Language)
	e.str(r.Package)
	e.str(r.BuildConstraint)
	e.buf = binary.AppendVarint(e.buf, int64(r.ParseErrors))
	e.nodes(r.Nodes)
	e.edges(r.Edges)
	e.imports(r.Imports)
	e.uint(len(r.Reexports))
	for _, x := range r.Reexports {
		e.str(x.Name)
		e.str(x.Module)
		e.str(x.Target)
	}
	e.strs(r.UnresolvedRefs)
	e.typeRefs(r.Returns)
	e.typeRefs(r.Fields)
	e.arities(r.Arity)
	out := e.buf
	e.buf = nil
	if len(e.tab) > 1<<14 {
		e.tab = map[string]uint64{} // a huge file's table is not kept
	} else {
		clear(e.tab)
	}
	blobEncoders.Put(e)
	return out
}

func (e *blobEncoder) uint(n int) { e.buf = binary.AppendUvarint(e.buf, uint64(n)) }

func (e *blobEncoder) str(s string) {
	if s == "" {
		e.buf = append(e.buf, 0)
		return
	}
	if i, ok := e.tab[s]; ok {
		e.buf = binary.AppendUvarint(e.buf, 2*i+2)
		return
	}
	e.tab[s] = uint64(len(e.tab))
	e.buf = binary.AppendUvarint(e.buf, 2*uint64(len(s))+1)
	e.buf = append(e.buf, s...)
}

func (e *blobEncoder) strs(ss []string) {
	e.uint(len(ss))
	for _, s := range ss {
		e.str(s)
	}
}

func (e *blobEncoder) flag(b bool) {
	if b {
		e.buf = append(e.buf, 1)
	} else {
		e.buf = append(e.buf, 0)
	}
}

func (e *blobEncoder) nodes(ns []extract.Node) {
	e.uint(len(ns))
	for i := range ns {
		n := &ns[i]
		e.str(n.ID)
		e.str(n.Label)
		e.buf = append(e.buf, byte(n.Type))
		e.strs(n.Tags)
		e.uint(int(n.Line))
		e.uint(int(n.EndLine))
		e.str(n.Excerpt)
	}
}

func (e *blobEncoder) edges(es []extract.Edge) {
	e.uint(len(es))
	for i := range es {
		x := &es[i]
		e.str(x.Source)
		e.str(x.Target)
		e.str(x.Relation)
		e.uint(int(x.Line))
		e.str(x.Hint.Module)
		e.str(x.Hint.Receiver)
		e.str(x.Hint.ReceiverType)
		e.buf = append(e.buf, x.Hint.Args)
		e.str(x.Hint.ArgKinds)
	}
}

func (e *blobEncoder) imports(is []extract.Import) {
	e.uint(len(is))
	for i := range is {
		x := &is[i]
		e.str(x.Module)
		e.str(x.Alias)
		e.strs(x.Names)
		e.uint(int(x.Line))
	}
}

func (e *blobEncoder) typeRefs(m map[string]extract.TypeRef) {
	e.uint(len(m))
	for _, k := range slices.Sorted(maps.Keys(m)) {
		t := m[k]
		e.str(k)
		e.str(t.Name)
		e.str(t.Module)
		e.flag(t.Coll)
	}
}

func (e *blobEncoder) arities(m map[string]extract.Arity) {
	e.uint(len(m))
	for _, k := range slices.Sorted(maps.Keys(m)) {
		a := m[k]
		e.str(k)
		e.buf = append(e.buf, a.Params, a.Results, a.Optional)
		e.flag(a.Variadic)
		e.str(a.Kinds)
	}
}

// errBlob is what a blob that does not decode wraps.
var errBlob = errors.New("not a result blob of this format")

// blobDecoder reads a blob; err is the first failure, after which every
// read returns zero values.
type blobDecoder struct {
	b   []byte
	tab []string
	err error
}

// decodeResult decodes a blob encodeResult wrote. It never panics on
// other bytes: a torn or foreign file is an error.
func decodeResult(b []byte) (*extract.Result, error) {
	if len(b) < len(blobMagic) || string(b[:len(blobMagic)]) != string(blobMagic) {
		return nil, errBlob
	}
	d := &blobDecoder{b: b[len(blobMagic):]}
	r := &extract.Result{}
	r.Path = d.str()
	r.Language = d.str()
	r.Package = d.str()
	r.BuildConstraint = d.str()
	r.ParseErrors = d.varint()
	r.Nodes = d.nodes()
	r.Edges = d.edges()
	r.Imports = d.imports()
	if n := d.count(3); n > 0 {
		r.Reexports = make([]extract.Reexport, n)
		for i := range r.Reexports {
			r.Reexports[i] = extract.Reexport{Name: d.str(), Module: d.str(), Target: d.str()}
		}
	}
	r.UnresolvedRefs = d.strs()
	r.Returns = d.typeRefs()
	r.Fields = d.typeRefs()
	r.Arity = d.arities()
	if d.err == nil && len(d.b) > 0 {
		d.fail("%d bytes after the result", len(d.b))
	}
	if d.err != nil {
		return nil, d.err
	}
	return r, nil
}

func (d *blobDecoder) fail(format string, args ...any) {
	if d.err == nil {
		d.err = fmt.Errorf("%w: %s", errBlob, fmt.Sprintf(format, args...))
	}
	d.b = nil
}

func (d *blobDecoder) uvarint() uint64 {
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.fail("a truncated or overlong integer")
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *blobDecoder) varint() int {
	v, n := binary.Varint(d.b)
	if n <= 0 || int64(int(v)) != v {
		d.fail("a truncated or overlong integer")
		return 0
	}
	d.b = d.b[n:]
	return int(v)
}

func (d *blobDecoder) u32() uint32 {
	v := d.uvarint()
	if v > 1<<32-1 {
		d.fail("a line number of %d", v)
		return 0
	}
	return uint32(v)
}

func (d *blobDecoder) byte() byte {
	if len(d.b) == 0 {
		d.fail("truncated")
		return 0
	}
	c := d.b[0]
	d.b = d.b[1:]
	return c
}

func (d *blobDecoder) flag() bool {
	switch d.byte() {
	case 0:
		return false
	case 1:
		return true
	}
	d.fail("a flag neither 0 nor 1")
	return false
}

// count reads a list's length, each item at least min bytes: a count the
// rest of the blob cannot hold is an error, not an allocation.
func (d *blobDecoder) count(min int) int {
	n := d.uvarint()
	if n > uint64(len(d.b)/min) {
		d.fail("a count of %d with %d bytes left", n, len(d.b))
		return 0
	}
	return int(n)
}

func (d *blobDecoder) str() string {
	c := d.uvarint()
	switch {
	case c == 0:
		return ""
	case c&1 == 1:
		n := c >> 1
		if n > uint64(len(d.b)) {
			d.fail("a string of %d bytes with %d left", n, len(d.b))
			return ""
		}
		s := string(d.b[:n])
		d.b = d.b[n:]
		d.tab = append(d.tab, s)
		return s
	default:
		i := c>>1 - 1
		if i >= uint64(len(d.tab)) {
			d.fail("string %d of a table of %d", i, len(d.tab))
			return ""
		}
		return d.tab[i]
	}
}

func (d *blobDecoder) strs() []string {
	n := d.count(1)
	if n == 0 {
		return nil
	}
	out := make([]string, n)
	for i := range out {
		out[i] = d.str()
	}
	return out
}

func (d *blobDecoder) nodes() []extract.Node {
	n := d.count(7)
	if n == 0 {
		return nil
	}
	out := make([]extract.Node, n)
	for i := range out {
		x := &out[i]
		x.ID = d.str()
		x.Label = d.str()
		x.Type = graph.NodeType(d.byte())
		x.Tags = d.strs()
		x.Line = d.u32()
		x.EndLine = d.u32()
		x.Excerpt = d.str()
	}
	return out
}

func (d *blobDecoder) edges() []extract.Edge {
	n := d.count(9)
	if n == 0 {
		return nil
	}
	out := make([]extract.Edge, n)
	for i := range out {
		x := &out[i]
		x.Source = d.str()
		x.Target = d.str()
		x.Relation = d.str()
		x.Line = d.u32()
		x.Hint.Module = d.str()
		x.Hint.Receiver = d.str()
		x.Hint.ReceiverType = d.str()
		x.Hint.Args = d.byte()
		x.Hint.ArgKinds = d.str()
	}
	return out
}

func (d *blobDecoder) imports() []extract.Import {
	n := d.count(4)
	if n == 0 {
		return nil
	}
	out := make([]extract.Import, n)
	for i := range out {
		x := &out[i]
		x.Module = d.str()
		x.Alias = d.str()
		x.Names = d.strs()
		x.Line = d.u32()
	}
	return out
}

func (d *blobDecoder) typeRefs() map[string]extract.TypeRef {
	n := d.count(4)
	if n == 0 {
		return nil
	}
	m := make(map[string]extract.TypeRef, n)
	for range n {
		k := d.str()
		m[k] = extract.TypeRef{Name: d.str(), Module: d.str(), Coll: d.flag()}
	}
	return m
}

func (d *blobDecoder) arities() map[string]extract.Arity {
	n := d.count(6)
	if n == 0 {
		return nil
	}
	m := make(map[string]extract.Arity, n)
	for range n {
		k := d.str()
		a := extract.Arity{Params: d.byte(), Results: d.byte(), Optional: d.byte()}
		a.Variadic = d.flag()
		a.Kinds = d.str()
		m[k] = a
	}
	return m
}
