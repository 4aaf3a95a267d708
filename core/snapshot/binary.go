package snapshot

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"hash/crc32"
	"io"
	"math"
	"os"

	"github.com/m1nd-go/m1nd/core/graph"
)

// BinaryVersion is the version of the binary snapshot layout. Version 2
// added the meta section; version 1 files still load (with no meta).
const BinaryVersion = 2

var (
	binaryMagic   = [8]byte{'M', '1', 'N', 'D', 'G', 'R', 'P', 'H'}
	binaryTrailer = [8]byte{'M', '1', 'N', 'D', 'E', 'N', 'D', 0}
	castagnoli    = crc32.MakeTable(crc32.Castagnoli)
)

// The binary snapshot holds a finalized graph's arrays verbatim (graph.Raw),
// so loading skips sorting, deduplication and PageRank:
//
//	magic "M1NDGRPH" | version u32 | reserved u32 | generation u64 |
//	meta (u64 length, bytes) | sections… |
//	body length u64 | CRC-32C of everything before it u32 | "M1NDEND\0"
//
// Each array section is a u64 element count followed by little-endian data;
// the string table is a count, a u32 length per string, then the bytes.
// A truncated or altered file fails the length or checksum test.

// EncodeBinary returns the binary snapshot of a finalized graph.
func EncodeBinary(g *graph.Graph) ([]byte, error) { return EncodeBinaryWithMeta(g, nil) }

// EncodeBinaryWithMeta returns the binary snapshot of a finalized graph
// carrying meta (see SaveWithMeta), in memory. To write a file, SaveWithMeta
// or a Cut streams the same bytes without holding them.
func EncodeBinaryWithMeta(g *graph.Graph, meta []byte) ([]byte, error) {
	c, err := TakeCut(g, meta)
	if err != nil {
		return nil, err
	}
	return encodeCut(c)
}

type decoder struct {
	b   []byte
	err error
}

func (d *decoder) need(n uint64) bool {
	if d.err != nil {
		return false
	}
	if uint64(len(d.b)) < n {
		d.err = formatErr("binary snapshot is truncated")
		return false
	}
	return true
}
func (d *decoder) u32() uint32 {
	if !d.need(4) {
		return 0
	}
	v := binary.LittleEndian.Uint32(d.b)
	d.b = d.b[4:]
	return v
}
func (d *decoder) u64() uint64 {
	if !d.need(8) {
		return 0
	}
	v := binary.LittleEndian.Uint64(d.b)
	d.b = d.b[8:]
	return v
}

// count reads an element count and checks the remaining bytes can hold it.
func (d *decoder) count(elem uint64) int {
	n := d.u64()
	if d.err == nil && (n > uint64(len(d.b)) || n*elem > uint64(len(d.b))) {
		d.err = formatErr("binary snapshot section claims %d elements, more than the file holds", n)
		return 0
	}
	return int(n)
}

// section reads a section's element count and takes its bytes, size
// bytes an element (none after an error).
func (d *decoder) section(size int) ([]byte, int) {
	n := d.count(uint64(size))
	if d.err != nil {
		return nil, 0
	}
	b := d.b[:size*n]
	d.b = d.b[size*n:]
	return b, n
}
func (d *decoder) u32s() []uint32 {
	b, n := d.section(4)
	out := make([]uint32, n)
	for i := range out {
		out[i] = binary.LittleEndian.Uint32(b[4*i:])
	}
	return out
}
func (d *decoder) f32s() []float32 {
	u := d.u32s()
	out := make([]float32, len(u))
	for i, v := range u {
		out[i] = math.Float32frombits(v)
	}
	return out
}
func (d *decoder) f64s() []float64 {
	b, n := d.section(8)
	out := make([]float64, n)
	for i := range out {
		out[i] = math.Float64frombits(binary.LittleEndian.Uint64(b[8*i:]))
	}
	return out
}
func (d *decoder) u16s() []uint16 {
	b, n := d.section(2)
	out := make([]uint16, n)
	for i := range out {
		out[i] = binary.LittleEndian.Uint16(b[2*i:])
	}
	return out
}
func (d *decoder) raw() []byte {
	b, _ := d.section(1)
	return b
}
func (d *decoder) bools() []bool {
	r := d.raw()
	out := make([]bool, len(r))
	for i, v := range r {
		if v > 1 {
			d.err = formatErr("binary snapshot has a boolean byte %d", v)
			return nil
		}
		out[i] = v == 1
	}
	return out
}

// DecodeBinary parses a binary snapshot, verifying its checksum first.
func DecodeBinary(data []byte) (*graph.Graph, error) {
	g, _, err := DecodeBinaryWithMeta(data)
	return g, err
}

// DecodeBinaryWithMeta parses a binary snapshot and returns its meta too
// (nil for a version 1 file, which has none).
func DecodeBinaryWithMeta(data []byte) (*graph.Graph, []byte, error) {
	const fixed = 8 + 4 + 4
	const trailer = 8 + 4 + 8
	if len(data) < fixed+trailer || !bytes.Equal(data[:8], binaryMagic[:]) {
		return nil, nil, formatErr("not a binary graph snapshot (missing M1NDGRPH header)")
	}
	version := binary.LittleEndian.Uint32(data[8:])
	if version != 1 && version != BinaryVersion {
		return nil, nil, formatErr("binary snapshot version %d is not supported (this build reads versions 1 and %d)", version, BinaryVersion)
	}
	t := data[len(data)-trailer:]
	if !bytes.Equal(t[12:], binaryTrailer[:]) {
		return nil, nil, formatErr("binary snapshot is truncated (no end marker)")
	}
	body := binary.LittleEndian.Uint64(t)
	if body != uint64(len(data)-trailer) {
		return nil, nil, formatErr("binary snapshot length %d does not match its recorded length %d", len(data)-trailer, body)
	}
	if crc32.Checksum(data[:len(data)-trailer+8], castagnoli) != binary.LittleEndian.Uint32(t[8:]) {
		return nil, nil, formatErr("binary snapshot checksum mismatch (file is corrupted)")
	}
	d := &decoder{b: data[fixed : len(data)-trailer]}
	r := &graph.Raw{Generation: d.u64()}
	var meta []byte
	if version >= 2 {
		meta = d.raw()
		if len(meta) == 0 {
			meta = nil
		}
	}
	ns := d.count(4)
	if d.err == nil {
		lens := make([]uint32, ns)
		total := uint64(0)
		for i := range lens {
			lens[i] = d.u32()
			total += uint64(lens[i])
		}
		if d.need(total) {
			all := string(d.b[:total])
			d.b = d.b[total:]
			r.Strings = make([]string, ns)
			off := uint64(0)
			for i, l := range lens {
				r.Strings[i] = all[off : off+uint64(l)]
				off += uint64(l)
			}
		}
	}
	r.ExternalID = d.u32s()
	r.Label = d.u32s()
	for _, b := range d.raw() {
		r.Type = append(r.Type, graph.NodeType(b))
	}
	r.TagOffsets = d.u32s()
	r.Tags = d.u32s()
	r.LastModified = d.f64s()
	r.ChangeFrequency = d.f32s()
	r.PageRank = d.f32s()
	r.SourcePath = d.u32s()
	r.Excerpt = d.u32s()
	r.Namespace = d.u32s()
	r.LineStart = d.u32s()
	r.LineEnd = d.u32s()
	r.Canonical = d.bools()
	r.Offsets = d.u32s()
	r.Targets = d.u32s()
	r.Weights = d.f32s()
	r.Relations = d.u32s()
	for _, b := range d.raw() {
		r.Directions = append(r.Directions, graph.Direction(b))
	}
	r.Inhibitory = d.bools()
	r.Causal = d.f32s()
	r.Mirror = d.bools()
	r.Original = d.f32s()
	r.Strengthen = d.u16s()
	r.Weaken = d.u16s()
	r.LTP = d.bools()
	r.LTD = d.bools()
	if d.err != nil {
		return nil, nil, d.err
	}
	if len(d.b) != 0 {
		return nil, nil, formatErr("binary snapshot has %d unexpected bytes after the last section", len(d.b))
	}
	g, err := graph.FromRaw(r)
	if err != nil {
		return nil, nil, formatErr("%v", err)
	}
	return g, bytes.Clone(meta), nil // not a view: it would pin the file's bytes
}

// SaveBinary writes g atomically to path as a binary snapshot.
func SaveBinary(g *graph.Graph, path string) error { return saveBinary(g, nil, path) }

func saveBinary(g *graph.Graph, meta []byte, path string) error {
	c, err := TakeCut(g, meta)
	if err != nil {
		return err
	}
	return WriteFileAtomic(path, 0o644, func(w io.Writer) error {
		_, err := c.WriteTo(w)
		return err
	})
}

// LoadBinary reads a binary snapshot file.
func LoadBinary(path string) (*graph.Graph, error) {
	g, _, err := loadBinary(path)
	return g, err
}

func loadBinary(path string) (*graph.Graph, []byte, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	g, meta, err := DecodeBinaryWithMeta(data)
	if err != nil {
		return nil, nil, fmtPath(path, err)
	}
	return g, meta, nil
}

// Load reads a snapshot in either format, recognised by its first bytes.
func Load(path string) (*graph.Graph, error) {
	g, _, err := LoadWithMeta(path)
	return g, err
}

// LoadWithMeta reads a snapshot in either format and returns the meta it
// was saved with (nil when none).
func LoadWithMeta(path string) (*graph.Graph, []byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	head := make([]byte, 8)
	n, _ := io.ReadFull(f, head)
	f.Close()
	if n == 8 && bytes.Equal(head, binaryMagic[:]) {
		return loadBinary(path)
	}
	return loadJSON(path)
}

// Save writes g in the format chosen by the file name: ".bin" means binary,
// anything else JSON.
func Save(g *graph.Graph, path string) error { return SaveWithMeta(g, nil, path) }

// Marshal encodes g with meta in the format Save would choose for path, in
// memory. A caller that takes the snapshot at one moment and writes it
// later should take CutFor instead: a binary one is then streamed.
func Marshal(g *graph.Graph, meta []byte, path string) ([]byte, error) {
	if isBinaryPath(path) {
		return EncodeBinaryWithMeta(g, meta)
	}
	f, err := ToFile(g)
	if err != nil {
		return nil, err
	}
	if len(meta) > 0 {
		if !json.Valid(meta) {
			return nil, errMetaNotJSON
		}
		f.Meta = meta
	}
	return json.Marshal(f)
}

func isBinaryPath(path string) bool { return len(path) > 4 && path[len(path)-4:] == ".bin" }

// SaveWithMeta is Save with application data stored inside the snapshot:
// meta (a JSON value for a JSON snapshot, any bytes for a binary one) is
// replaced atomically with the graph, so what must agree with the graph —
// the roots it was built from, a save counter — cannot be torn from it by
// a crash between two files. The engine does not interpret it.
func SaveWithMeta(g *graph.Graph, meta []byte, path string) error {
	if isBinaryPath(path) {
		return saveBinary(g, meta, path)
	}
	return saveJSON(g, meta, path)
}
