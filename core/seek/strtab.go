package seek

import (
	"hash/maphash"
	"math/bits"
)

// strtab is a set of distinct strings numbered 0, 1, … in the order they
// were added, held without a pointer: their bytes in one slab, where each
// ends, and an open-addressing table of their numbers. The collector
// marks its three arrays and scans none of them: as maps of strings, the
// vocabulary and term index of go-std were ≈ 17 MB it scanned on every
// cycle of a server that keeps the index (issue 29).
type strtab struct {
	seed  maphash.Seed
	bytes []byte
	end   []uint32 // string i is bytes[end[i-1]:end[i]] (from 0 for i = 0)
	slots []uint32 // number+1, 0 empty; a power of two, at most half full
}

// newStrtab makes a table with room for n strings before it grows.
func newStrtab(n int) *strtab {
	return &strtab{seed: maphash.MakeSeed(), end: make([]uint32, 0, n), slots: make([]uint32, slotsFor(n))}
}

// slotsFor is the table size that holds n strings at most half full.
func slotsFor(n int) int { return 1 << bits.Len(uint(2*n+1)) }

// len is the number of strings.
func (t *strtab) len() int { return len(t.end) }

// at is string i's bytes, a view of the slab: read only.
func (t *strtab) at(i uint32) []byte {
	lo := uint32(0)
	if i > 0 {
		lo = t.end[i-1]
	}
	return t.bytes[lo:t.end[i]:t.end[i]]
}

// lookup is s's number.
func (t *strtab) lookup(s string) (uint32, bool) {
	if len(t.slots) == 0 {
		return 0, false
	}
	mask := uint64(len(t.slots) - 1)
	for i := maphash.String(t.seed, s) & mask; ; i = (i + 1) & mask {
		e := t.slots[i]
		if e == 0 {
			return 0, false
		}
		if string(t.at(e-1)) == s {
			return e - 1, true
		}
	}
}

// lookupBytes is b's number, without making a string of b.
func (t *strtab) lookupBytes(b []byte) (uint32, bool) {
	if len(t.slots) == 0 {
		return 0, false
	}
	mask := uint64(len(t.slots) - 1)
	for i := maphash.Bytes(t.seed, b) & mask; ; i = (i + 1) & mask {
		e := t.slots[i]
		if e == 0 {
			return 0, false
		}
		if string(t.at(e-1)) == string(b) {
			return e - 1, true
		}
	}
}

// intern is s's number, adding s when it is new.
func (t *strtab) intern(s string) uint32 {
	if id, ok := t.lookup(s); ok {
		return id
	}
	t.bytes = append(t.bytes, s...)
	return t.push()
}

// addNew adds b, which must not be in the table yet (a table copied from
// another's distinct strings), and returns its number.
func (t *strtab) addNew(b []byte) uint32 {
	t.bytes = append(t.bytes, b...)
	return t.push()
}

// push numbers the bytes appended to the slab since the last string.
func (t *strtab) push() uint32 {
	id := uint32(len(t.end))
	t.end = append(t.end, uint32(len(t.bytes)))
	if 2*len(t.end) >= len(t.slots) {
		t.slots = make([]uint32, slotsFor(len(t.end)))
		for k := range t.end {
			t.place(uint32(k))
		}
		return id
	}
	t.place(id)
	return id
}

// place puts string id in the first free slot of its probe sequence.
func (t *strtab) place(id uint32) {
	mask := uint64(len(t.slots) - 1)
	i := maphash.Bytes(t.seed, t.at(id)) & mask
	for t.slots[i] != 0 {
		i = (i + 1) & mask
	}
	t.slots[i] = id + 1
}

// placeNew places string id like place unless an equal string is in the
// table already (then it reports false and places nothing): one probe
// sequence for a table read back whole.
func (t *strtab) placeNew(id uint32) bool {
	b := t.at(id)
	mask := uint64(len(t.slots) - 1)
	i := maphash.Bytes(t.seed, b) & mask
	for ; t.slots[i] != 0; i = (i + 1) & mask {
		if string(t.at(t.slots[i]-1)) == string(b) {
			return false
		}
	}
	t.slots[i] = id + 1
	return true
}
