package graph

import "slices"

// Str is an interned string handle. The zero handle is the empty string, so a
// zero Str field means "absent".
type Str uint32

// Interner maps strings to dense handles and back, both in O(1).
// It is not safe for concurrent mutation; a finalized Graph only reads it.
//
// The string-to-handle map is layered so that graphs derived from one
// another (Clone, Spliced) share what they have in common instead of
// copying it: frozen layers are never written again, and only the newest,
// private layer takes new strings. Finalize freezes the private layer.
//
// The handle-to-string side is chunked for the same reason: a derived
// interner copies the chunk headers and, on its first new string, the
// last chunk only, never the whole table (a splice adds a few strings to
// a graph of a million).
type Interner struct {
	chunks [][]string       // strChunk strings each but the last, which may be shared
	n      int              // strings in chunks
	frozen []map[string]Str // read-only, oldest first; may be shared
	idx    map[string]Str   // private, mutable
}

// strChunk is the number of strings per chunk (a power of two).
const strChunkBits = 12
const strChunk = 1 << strChunkBits

// maxFrozenLayers bounds the lookups of a miss: beyond it the small layers
// above the first (the bulk of a graph's strings) are merged into one.
const maxFrozenLayers = 4

// NewInterner returns an interner holding only the empty string (handle 0).
func NewInterner() *Interner { return newInterner(0) }

func newInterner(capacity int) *Interner {
	in := &Interner{idx: make(map[string]Str, capacity+1)}
	in.push("")
	in.idx[""] = 0
	return in
}

// Intern returns the handle of s, adding it when new.
func (in *Interner) Intern(s string) Str {
	if h, ok := in.Lookup(s); ok {
		return h
	}
	h := Str(in.n)
	in.push(s)
	if in.idx == nil {
		in.idx = map[string]Str{}
	}
	in.idx[s] = h
	return h
}

// Lookup returns the handle of s without adding it.
func (in *Interner) Lookup(s string) (Str, bool) {
	if h, ok := in.idx[s]; ok {
		return h, true
	}
	for i := len(in.frozen) - 1; i >= 0; i-- {
		if h, ok := in.frozen[i][s]; ok {
			return h, true
		}
	}
	return 0, false
}

// String resolves a handle; an unknown handle resolves to "".
func (in *Interner) String(h Str) string {
	if int(h) < in.n {
		return in.chunks[h>>strChunkBits][h&(strChunk-1)]
	}
	return ""
}

// push appends s to the handle table. A full last chunk starts a new one;
// a shared last chunk (len == cap after derive) is copied by append.
func (in *Interner) push(s string) {
	if k := len(in.chunks); k == 0 || len(in.chunks[k-1]) == strChunk {
		in.chunks = append(in.chunks, make([]string, 0, strChunk))
	}
	k := len(in.chunks) - 1
	in.chunks[k] = append(in.chunks[k], s)
	in.n++
}

// Len is the number of distinct strings, including the empty string.
func (in *Interner) Len() int { return in.n }

// freeze turns the private layer into a frozen one (the caller has
// exclusive access), merging small frozen layers when there are too many.
func (in *Interner) freeze() {
	if len(in.idx) == 0 {
		in.idx = nil
		return
	}
	in.frozen = append(in.frozen[:len(in.frozen):len(in.frozen)], in.idx)
	in.idx = nil
	if len(in.frozen) > maxFrozenLayers {
		size := 0
		for _, l := range in.frozen[1:] {
			size += len(l)
		}
		merged := make(map[string]Str, size)
		for _, l := range in.frozen[1:] {
			for k, v := range l {
				merged[k] = v
			}
		}
		in.frozen = []map[string]Str{in.frozen[0], merged}
	}
}

// derive returns an interner with the same strings that shares in's frozen
// layers and never writes to anything in owns. in's private layer, if any,
// is copied (a finalized graph has none).
func (in *Interner) derive() *Interner {
	c := &Interner{
		chunks: slices.Clone(in.chunks),
		n:      in.n,
		frozen: in.frozen[:len(in.frozen):len(in.frozen)],
	}
	if k := len(c.chunks) - 1; k >= 0 {
		c.chunks[k] = c.chunks[k][:len(c.chunks[k]):len(c.chunks[k])] // its first append copies
	}
	if len(in.idx) > 0 {
		own := make(map[string]Str, len(in.idx))
		for k, v := range in.idx {
			own[k] = v
		}
		c.idx = own
	}
	return c
}
