package graph

// Str is an interned string handle. The zero handle is the empty string, so a
// zero Str field means "absent".
type Str uint32

// Interner maps strings to dense handles and back, both in O(1).
// It is not safe for concurrent mutation; a finalized Graph only reads it.
type Interner struct {
	strs []string
	idx  map[string]Str
}

// NewInterner returns an interner holding only the empty string (handle 0).
func NewInterner() *Interner { return newInterner(0) }

func newInterner(capacity int) *Interner {
	in := &Interner{strs: make([]string, 1, capacity+1), idx: make(map[string]Str, capacity+1)}
	in.idx[""] = 0
	return in
}

// Intern returns the handle of s, adding it when new.
func (in *Interner) Intern(s string) Str {
	if h, ok := in.idx[s]; ok {
		return h
	}
	h := Str(len(in.strs))
	in.strs = append(in.strs, s)
	in.idx[s] = h
	return h
}

// Lookup returns the handle of s without adding it.
func (in *Interner) Lookup(s string) (Str, bool) {
	h, ok := in.idx[s]
	return h, ok
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

func (in *Interner) clone() *Interner {
	c := &Interner{strs: append([]string(nil), in.strs...), idx: make(map[string]Str, len(in.idx))}
	for k, v := range in.idx {
		c.idx[k] = v
	}
	return c
}
