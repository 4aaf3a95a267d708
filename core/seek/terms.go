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
}

// maxPooledTerms bounds the table a worker keeps between shards (about
// 50 MB of strings and slots; go-std has 184 K terms): a tree with more
// distinct terms starts over rather than keeping them all.
const maxPooledTerms = 1 << 20

var termPool = sync.Pool{New: func() any { return &termTable{slots: make([]uint32, 1024)} }}

// getTermTable takes a table for a new shard.
func getTermTable() *termTable {
	t := termPool.Get().(*termTable)
	t.cur++
	if t.cur == 0 { // wrapped: no local ID may survive
		clear(t.gen)
		t.cur = 1
	}
	return t
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
