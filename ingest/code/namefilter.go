package code

import "math/bits"

// A patch checks every unchanged file against the stale labels
// (staleness.passesOver): on go-std 5,600 files of about a hundred names
// each, ≈ 7.8 ms of CPU a 64-file tick by string comparison. Each file
// keeps its names' hashes (fileResolution.refHash), and the labels are
// set in a bit filter once a patch has them all: a file none of whose
// hashes hits the filter shares no name with them, and only a file that
// hits it is compared name by name. The filter has no false negatives,
// so what passes over is exactly what did.

// nameHash is a name's hash for the label filter (FNV-1a, then mixed so
// that its low and high halves both spread).
func nameHash(s string) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(s); i++ {
		h ^= uint32(s[i])
		h *= 16777619
	}
	h ^= h >> 16
	h *= 0x7feb352d
	h ^= h >> 15
	return h
}

// nameHashes are the hashes of l's names, in l's order.
func nameHashes(l nameList) []uint32 {
	if l.len() == 0 {
		return nil
	}
	out := make([]uint32, l.len())
	for i := range out {
		out[i] = nameHash(l.at(i))
	}
	return out
}

// labelFilter is a Bloom filter of the stale labels: two bits a label, in
// 256 bits a label or more (a power of two), so that a file's hundred
// names all miss unless one is a label, but for ≈ 1 in 160 files.
type labelFilter struct {
	bits []uint64
	mask uint32
}

// Bounds of the filter's size in bits: 2 KB for a few labels, 512 KB
// for the largest sets (a type's change marks thousands).
const (
	minFilterBits = 1 << 14
	maxFilterBits = 1 << 22
)

func newLabelFilter(labels []string) labelFilter {
	n := min(max(minFilterBits, 256*len(labels)), maxFilterBits)
	n = 1 << bits.Len(uint(n-1)) // a power of two
	f := labelFilter{bits: make([]uint64, n/64), mask: uint32(n - 1)}
	for _, l := range labels {
		a, b := f.probes(nameHash(l))
		f.bits[a/64] |= 1 << (a % 64)
		f.bits[b/64] |= 1 << (b % 64)
	}
	return f
}

// probes are a hash's two bits.
func (f *labelFilter) probes(h uint32) (uint32, uint32) {
	return h & f.mask, bits.RotateLeft32(h, 16) & f.mask
}

// mayShare reports whether some hash of hs may be a label's: false means
// none is. Hashes not made for a file's names (none kept) may share.
func (f *labelFilter) mayShare(hs []uint32, names int) bool {
	if len(hs) != names || f.bits == nil {
		return true
	}
	for _, h := range hs {
		a, b := f.probes(h)
		if f.bits[a/64]&(1<<(a%64)) != 0 && f.bits[b/64]&(1<<(b%64)) != 0 {
			return true
		}
	}
	return false
}
