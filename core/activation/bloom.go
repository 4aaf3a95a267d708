package activation

import (
	"math"

	"github.com/m1nd-go/m1nd/core/graph"
)

// Bloom is a double-hashing Bloom filter over node IDs: k probe positions
// h1 + i·h2 (mod m). Inserting and testing cost k bit operations and no
// allocation, and the filter's size follows the number of nodes a query
// expects to visit rather than the size of the graph. It may report a node
// it never saw (at about the configured false-positive rate); it never
// misses one it did see.
type Bloom struct {
	bits []uint64
	m    uint64
	k    uint32
}

// NewBloom sizes a filter for about expected insertions at false-positive
// rate fpr: m = −n·ln p / ln²2 bits, k = (m/n)·ln 2 probes (1..16).
func NewBloom(expected int, fpr float64) *Bloom {
	b := &Bloom{}
	b.Reset(expected, fpr)
	return b
}

// Reset empties the filter, resizing it for expected insertions at fpr and
// reusing its memory when large enough.
func (b *Bloom) Reset(expected int, fpr float64) {
	n := float64(max(expected, 1))
	if !(fpr > 0 && fpr < 1) {
		fpr = 0.01
	}
	m := uint64(math.Ceil(-n * math.Log(fpr) / (math.Ln2 * math.Ln2)))
	m = max(m, 64)
	words := int((m + 63) / 64)
	b.m = uint64(words) * 64
	b.k = uint32(min(max(math.Round(float64(b.m)/n*math.Ln2), 1), 16))
	if cap(b.bits) >= words {
		b.bits = b.bits[:words]
		clear(b.bits)
	} else {
		b.bits = make([]uint64, words)
	}
}

// hashes derives the two independent hashes of id (splitmix64 finaliser
// halves; h2 is forced odd so the probe sequence never collapses).
func hashes(id graph.NodeID) (uint64, uint64) {
	z := uint64(id) + 0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	z ^= z >> 31
	return z & 0xffffffff, (z >> 32) | 1
}

// Add inserts id.
func (b *Bloom) Add(id graph.NodeID) {
	h1, h2 := hashes(id)
	for i := uint64(0); i < uint64(b.k); i++ {
		p := (h1 + i*h2) % b.m
		b.bits[p>>6] |= 1 << (p & 63)
	}
}

// MayContain reports whether id may have been added (false means it
// certainly was not).
func (b *Bloom) MayContain(id graph.NodeID) bool {
	h1, h2 := hashes(id)
	for i := uint64(0); i < uint64(b.k); i++ {
		p := (h1 + i*h2) % b.m
		if b.bits[p>>6]&(1<<(p&63)) == 0 {
			return false
		}
	}
	return true
}
