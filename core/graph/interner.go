package graph

import (
	"hash/maphash"
	"slices"
	"unsafe"
)

// Str is an interned string handle. The zero handle is the empty string, so a
// zero Str field means "absent".
type Str uint32

// Interner maps strings to dense handles and back, both in O(1).
// It is not safe for concurrent mutation; a finalized Graph only reads it.
//
// Nothing it holds is a pointer per string: the strings' bytes are
// appended to blocks, and the string-to-handle side is open addressing
// of handles. A go-std graph has half a million strings; held as string
// values and map keys they were a million pointers every collection of a
// server marked again.
//
// The string-to-handle index is layered so that graphs derived from one
// another (Clone, Spliced) share what they have in common instead of
// copying it: frozen layers are never written again, and only the newest,
// private layer takes new strings. Finalize freezes the private layer.
//
// The handle-to-string side is chunked for the same reason: a derived
// interner copies the chunk and block headers and, on its first new
// string, the last chunk only, never the whole table (a splice adds a few
// strings to a graph of a million). A block is only ever appended to
// within its capacity, so a string's bytes never move or change: String
// returns them without a copy.
type Interner struct {
	blocks [][]byte       // strings' bytes; the last may be shared, capped at its length
	refs   [][]strRef     // per handle, strChunk a chunk but the last, which may be shared
	n      int            // handles
	frozen []*handleIndex // read-only, oldest first; may be shared
	idx    *handleIndex   // private, mutable; nil when empty
}

// strRef is where a handle's string is: blocks[block][off:off+n].
type strRef struct{ block, off, n uint32 }

// strChunk is the number of strings per chunk (a power of two).
const strChunkBits = 12
const strChunk = 1 << strChunkBits

// Blocks start at minBlock bytes and double up to maxBlock; a longer
// string has a block of its own.
const (
	minBlock = 4 << 10
	maxBlock = 256 << 10
)

// maxFrozenLayers bounds the lookups of a miss: beyond it the small layers
// above the first (the bulk of a graph's strings) are merged into one.
const maxFrozenLayers = 4

// strSeed seeds every index's hash: frozen layers are shared between
// interners, which must hash alike.
var strSeed = maphash.MakeSeed()

// NewInterner returns an interner holding only the empty string (handle 0).
func NewInterner() *Interner { return newInterner(0) }

func newInterner(capacity int) *Interner {
	in := &Interner{}
	if capacity > 0 {
		in.idx = newHandleIndex(capacity)
	}
	in.push("")
	return in
}

// Intern returns the handle of s, adding it when new.
func (in *Interner) Intern(s string) Str {
	if s == "" {
		return 0
	}
	hv := maphash.String(strSeed, s)
	if h, ok := in.lookup(s, hv); ok {
		return h
	}
	h := Str(in.n)
	in.push(s)
	if in.idx == nil {
		in.idx = newHandleIndex(0)
	}
	in.idx.insert(uint32(hv), h)
	return h
}

// Lookup returns the handle of s without adding it.
func (in *Interner) Lookup(s string) (Str, bool) {
	if s == "" {
		return 0, true
	}
	return in.lookup(s, maphash.String(strSeed, s))
}

func (in *Interner) lookup(s string, hv uint64) (Str, bool) {
	if h, ok := in.idx.find(in, s, uint32(hv)); ok {
		return h, true
	}
	for i := len(in.frozen) - 1; i >= 0; i-- {
		if h, ok := in.frozen[i].find(in, s, uint32(hv)); ok {
			return h, true
		}
	}
	return 0, false
}

// String resolves a handle; an unknown handle resolves to "".
func (in *Interner) String(h Str) string {
	if int(h) >= in.n {
		return ""
	}
	r := in.refs[h>>strChunkBits][h&(strChunk-1)]
	if r.n == 0 {
		return ""
	}
	return unsafe.String(&in.blocks[r.block][r.off], r.n)
}

// push appends s to the handle table. A full last chunk starts a new one;
// a shared last chunk (len == cap after derive) is copied by append. The
// bytes go to the last block when they fit in its capacity, else to a
// new block (a shared last block is full by its cap).
func (in *Interner) push(s string) {
	r := strRef{n: uint32(len(s))}
	if len(s) > 0 {
		k := len(in.blocks) - 1
		if k < 0 || cap(in.blocks[k])-len(in.blocks[k]) < len(s) {
			size := minBlock
			if k >= 0 {
				size = min(maxBlock, max(size, 2*cap(in.blocks[k])))
			}
			in.blocks = append(in.blocks, make([]byte, 0, max(size, len(s))))
			k++
		}
		r.block, r.off = uint32(k), uint32(len(in.blocks[k]))
		in.blocks[k] = append(in.blocks[k], s...)
	}
	if k := len(in.refs); k == 0 || len(in.refs[k-1]) == strChunk {
		in.refs = append(in.refs, make([]strRef, 0, strChunk))
	}
	k := len(in.refs) - 1
	in.refs[k] = append(in.refs[k], r)
	in.n++
}

// Len is the number of distinct strings, including the empty string.
func (in *Interner) Len() int { return in.n }

// freeze turns the private layer into a frozen one (the caller has
// exclusive access), merging small frozen layers when there are too many.
func (in *Interner) freeze() {
	if in.idx == nil || in.idx.n == 0 {
		in.idx = nil
		return
	}
	in.frozen = append(in.frozen[:len(in.frozen):len(in.frozen)], in.idx)
	in.idx = nil
	if len(in.frozen) > maxFrozenLayers {
		size := 0
		for _, l := range in.frozen[1:] {
			size += l.n
		}
		merged := newHandleIndex(size)
		for _, l := range in.frozen[1:] {
			for _, e := range l.slots {
				if e != 0 {
					merged.place(e)
				}
			}
		}
		in.frozen = []*handleIndex{in.frozen[0], merged}
	}
}

// derive returns an interner with the same strings that shares in's frozen
// layers and never writes to anything in owns. in's private layer, if any,
// is copied (a finalized graph has none).
func (in *Interner) derive() *Interner {
	c := &Interner{
		blocks: slices.Clone(in.blocks),
		refs:   slices.Clone(in.refs),
		n:      in.n,
		frozen: in.frozen[:len(in.frozen):len(in.frozen)],
	}
	if k := len(c.blocks) - 1; k >= 0 {
		c.blocks[k] = c.blocks[k][:len(c.blocks[k]):len(c.blocks[k])] // its next string starts a block
	}
	if k := len(c.refs) - 1; k >= 0 {
		c.refs[k] = c.refs[k][:len(c.refs[k]):len(c.refs[k])] // its first append copies
	}
	if in.idx != nil && in.idx.n > 0 {
		c.idx = &handleIndex{slots: slices.Clone(in.idx.slots), n: in.idx.n}
	}
	return c
}

// handleIndex finds handles by string: open addressing with linear probing,
// each slot the string's 32-bit hash << 32 | its handle+1 (0: empty). The
// hash decides the slot (its low bits) and settles most mismatches
// without reading the string.
type handleIndex struct {
	slots []uint64 // len a power of two, at most half full
	n     int
}

func newHandleIndex(capacity int) *handleIndex {
	size := 8
	for size < 2*capacity {
		size *= 2
	}
	return &handleIndex{slots: make([]uint64, size)}
}

// find returns the handle of s (hash hv) in x, reading strings from in.
func (x *handleIndex) find(in *Interner, s string, hv uint32) (Str, bool) {
	if x == nil {
		return 0, false
	}
	mask := uint64(len(x.slots) - 1)
	for i := uint64(hv) & mask; ; i = (i + 1) & mask {
		e := x.slots[i]
		if e == 0 {
			return 0, false
		}
		if uint32(e>>32) == hv {
			if h := Str(uint32(e) - 1); in.String(h) == s {
				return h, true
			}
		}
	}
}

// insert adds handle h of a string whose hash is hv (not yet in x).
func (x *handleIndex) insert(hv uint32, h Str) {
	if 2*(x.n+1) > len(x.slots) {
		old := x.slots
		x.slots = make([]uint64, 2*len(old))
		x.n = 0
		for _, e := range old {
			if e != 0 {
				x.place(e)
			}
		}
	}
	x.place(uint64(hv)<<32 | uint64(h+1))
}

// place puts slot value e in its first free slot (the caller keeps x at
// most half full).
func (x *handleIndex) place(e uint64) {
	mask := uint64(len(x.slots) - 1)
	i := (e >> 32) & mask
	for x.slots[i] != 0 {
		i = (i + 1) & mask
	}
	x.slots[i] = e
	x.n++
}
