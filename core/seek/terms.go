package seek

import "sync"

// termTable interns the terms one worker meets across the shards it
// writes, one shard at a time: a term an earlier file had costs a hash
// probe rather than a string allocation and a map insert. Per interned
// term it also holds the local ID the current shard gave it (gen: which
// shard did).
type termTable struct {
	slots []uint32 // interned ID+1, 0 when empty; len a power of two
	hash  []uint64
	strs  []string
	gen   []uint32
	local []uint32
	cur   uint32 // the current shard's generation (never 0)

	// idents remembers the terms of every identifier the worker has
	// tokenised, across shards: most of a file's distinct identifiers
	// (err, nil, ctx, ...) were met in an earlier file, and splitting,
	// lower-casing and stemming them again was most of a body build.
	idents identTable

	// gid is, per interned term, its ID+1 in the termIndex gidOf (0: not
	// looked up yet): a worker asks the shared index once per term.
	gidOf *termIndex
	gid   []uint32
	// maxIdents, when set, bounds idents below the default: a Collector's
	// tables live through an ingest, whose peak memory they add to.
	maxIdents int
}

// identTable maps identifiers to the interned IDs of their terms, in the
// order the tokenizer emits them (so shard vocabularies keep their
// first-seen order and the index does not change). Entries live in the
// slots themselves: a probe costs one cache miss, not two.
type identTable struct {
	slots []identEnt // len a power of two; hash 0 when empty
	n     int        // filled slots
	bytes []byte     // identifiers, bytes[kFrom:kTo]
	wids  []uint32   // term IDs, wids[wFrom:wTo]
}

type identEnt struct {
	hash       uint64
	kFrom, kTo uint32
	wFrom, wTo uint32
}

// maxIdents bounds the identifiers a worker remembers; past it, new
// identifiers are tokenised each time (correct, only slower).
const maxIdents = 1 << 20

// maxPooledTerms bounds the table a worker keeps between shards (about
// 50 MB of strings and slots; go-std has 184 K terms): a tree with more
// distinct terms starts over rather than keeping them all.
const maxPooledTerms = 1 << 20

var termPool = sync.Pool{New: func() any { return &termTable{slots: make([]uint32, 1024)} }}

// getTermTable takes a table for a new shard.
func getTermTable() *termTable {
	t := termPool.Get().(*termTable)
	t.nextShard()
	return t
}

// nextShard starts a new shard's local IDs.
func (t *termTable) nextShard() {
	t.cur++
	if t.cur == 0 { // wrapped: no local ID may survive
		clear(t.gen)
		t.cur = 1
	}
}

func putTermTable(t *termTable) {
	if t != nil && len(t.strs) <= maxPooledTerms {
		termPool.Put(t)
	}
}

// intern returns term's interned ID, adding it when new.
func (t *termTable) intern(term []byte) uint32 {
	h := identHash(term)
	mask := uint64(len(t.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		e := t.slots[i]
		if e == 0 {
			wid := uint32(len(t.strs))
			t.strs = append(t.strs, string(term))
			t.hash = append(t.hash, h)
			t.gen = append(t.gen, 0)
			t.local = append(t.local, 0)
			t.slots[i] = wid + 1
			if 2*len(t.strs) > len(t.slots) {
				t.grow()
			}
			return wid
		}
		if t.hash[e-1] == h && t.strs[e-1] == string(term) {
			return e - 1
		}
	}
}

// identTerms returns the interned IDs of identifier id's terms (tokenised
// by tok on the first meeting). The slice is valid until the next call.
func (t *termTable) identTerms(tok *tokenizer, id []byte) []uint32 {
	m := &t.idents
	if len(m.slots) == 0 {
		m.slots = make([]identEnt, 4096)
	}
	h := identHash(id)
	mask := uint64(len(m.slots) - 1)
	i := h & mask
	for ; m.slots[i].hash != 0; i = (i + 1) & mask {
		if e := &m.slots[i]; e.hash == h && string(m.bytes[e.kFrom:e.kTo]) == string(id) {
			return m.wids[e.wFrom:e.wTo]
		}
	}
	from := len(m.wids)
	tok.ident(id, func(term []byte) { m.wids = append(m.wids, t.intern(term)) })
	if m.n >= maxIdents || (t.maxIdents > 0 && m.n >= t.maxIdents) {
		out := m.wids[from:]
		m.wids = m.wids[:from] // not kept; valid until the next call
		return out
	}
	kFrom := len(m.bytes)
	m.bytes = append(m.bytes, id...)
	m.slots[i] = identEnt{hash: h, kFrom: uint32(kFrom), kTo: uint32(len(m.bytes)), wFrom: uint32(from), wTo: uint32(len(m.wids))}
	if m.n++; 2*m.n > len(m.slots) {
		m.grow()
	}
	return m.wids[from:]
}

// grow doubles the identifier slots and places every entry again.
func (m *identTable) grow() {
	old := m.slots
	m.slots = make([]identEnt, 2*len(old))
	mask := uint64(len(m.slots) - 1)
	for _, e := range old {
		if e.hash == 0 {
			continue
		}
		i := e.hash & mask
		for m.slots[i].hash != 0 {
			i = (i + 1) & mask
		}
		m.slots[i] = e
	}
}

// grow doubles the slots and places every interned term again.
func (t *termTable) grow() {
	t.slots = make([]uint32, 2*len(t.slots))
	mask := uint64(len(t.slots) - 1)
	for wid, h := range t.hash {
		i := h & mask
		for t.slots[i] != 0 {
			i = (i + 1) & mask
		}
		t.slots[i] = uint32(wid) + 1
	}
}
