package snapshot

import (
	"encoding/binary"
	"hash/crc32"
	"math"

	"github.com/m1nd-go/m1nd/core/graph"
)

type encoder struct{ buf []byte }

func (e *encoder) u32(v uint32) { e.buf = binary.LittleEndian.AppendUint32(e.buf, v) }
func (e *encoder) u64(v uint64) { e.buf = binary.LittleEndian.AppendUint64(e.buf, v) }

func (e *encoder) u32s(a []uint32) {
	e.u64(uint64(len(a)))
	for _, v := range a {
		e.u32(v)
	}
}
func (e *encoder) f32s(a []float32) {
	e.u64(uint64(len(a)))
	for _, v := range a {
		e.u32(math.Float32bits(v))
	}
}
func (e *encoder) f64s(a []float64) {
	e.u64(uint64(len(a)))
	for _, v := range a {
		e.u64(math.Float64bits(v))
	}
}
func (e *encoder) u16s(a []uint16) {
	e.u64(uint64(len(a)))
	for _, v := range a {
		e.buf = binary.LittleEndian.AppendUint16(e.buf, v)
	}
}
func (e *encoder) bytesOf(n int, at func(int) byte) {
	e.u64(uint64(n))
	for i := 0; i < n; i++ {
		e.buf = append(e.buf, at(i))
	}
}
func (e *encoder) bools(a []bool) {
	e.bytesOf(len(a), func(i int) byte {
		if a[i] {
			return 1
		}
		return 0
	})
}

// encodeViaRaw is the encoder the streamed one replaced, kept as the
// reference of the file format: it copies the graph out (graph.ToRaw) and
// builds the whole file in memory.
func encodeViaRaw(g *graph.Graph, meta []byte) ([]byte, error) {
	r, err := g.ToRaw()
	if err != nil {
		return nil, err
	}
	e := &encoder{buf: make([]byte, 0, 64+len(meta)+len(r.Targets)*40+len(r.ExternalID)*80)}
	e.buf = append(e.buf, binaryMagic[:]...)
	e.u32(BinaryVersion)
	e.u32(0)
	e.u64(r.Generation)
	e.u64(uint64(len(meta)))
	e.buf = append(e.buf, meta...)
	// String table.
	e.u64(uint64(len(r.Strings)))
	for _, s := range r.Strings {
		e.u32(uint32(len(s)))
	}
	for _, s := range r.Strings {
		e.buf = append(e.buf, s...)
	}
	// Nodes.
	e.u32s(r.ExternalID)
	e.u32s(r.Label)
	e.bytesOf(len(r.Type), func(i int) byte { return byte(r.Type[i]) })
	e.u32s(r.TagOffsets)
	e.u32s(r.Tags)
	e.f64s(r.LastModified)
	e.f32s(r.ChangeFrequency)
	e.f32s(r.PageRank)
	e.u32s(r.SourcePath)
	e.u32s(r.Excerpt)
	e.u32s(r.Namespace)
	e.u32s(r.LineStart)
	e.u32s(r.LineEnd)
	e.bools(r.Canonical)
	// Edges.
	e.u32s(r.Offsets)
	e.u32s(r.Targets)
	e.f32s(r.Weights)
	e.u32s(r.Relations)
	e.bytesOf(len(r.Directions), func(i int) byte { return byte(r.Directions[i]) })
	e.bools(r.Inhibitory)
	e.f32s(r.Causal)
	e.bools(r.Mirror)
	e.f32s(r.Original)
	e.u16s(r.Strengthen)
	e.u16s(r.Weaken)
	e.bools(r.LTP)
	e.bools(r.LTD)
	// Trailer.
	body := uint64(len(e.buf))
	e.u64(body)
	e.u32(crc32.Checksum(e.buf, castagnoli))
	e.buf = append(e.buf, binaryTrailer[:]...)
	return e.buf, nil
}
