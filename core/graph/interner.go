package graph

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
type Interner struct {
	strs   []string
	frozen []map[string]Str // read-only, oldest first; may be shared
	idx    map[string]Str   // private, mutable
}

// maxFrozenLayers bounds the lookups of a miss: beyond it the small layers
// above the first (the bulk of a graph's strings) are merged into one.
const maxFrozenLayers = 4

// NewInterner returns an interner holding only the empty string (handle 0).
func NewInterner() *Interner { return newInterner(0) }

func newInterner(capacity int) *Interner {
	in := &Interner{strs: make([]string, 1, capacity+1), idx: make(map[string]Str, capacity+1)}
	in.idx[""] = 0
	return in
}

// Intern returns the handle of s, adding it when new.
func (in *Interner) Intern(s string) Str {
	if h, ok := in.Lookup(s); ok {
		return h
	}
	h := Str(len(in.strs))
	in.strs = append(in.strs, s)
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
	if int(h) < len(in.strs) {
		return in.strs[h]
	}
	return ""
}

// Len is the number of distinct strings, including the empty string.
func (in *Interner) Len() int { return len(in.strs) }

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
		strs:   in.strs[:len(in.strs):len(in.strs)], // the first append copies
		frozen: in.frozen[:len(in.frozen):len(in.frozen)],
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
