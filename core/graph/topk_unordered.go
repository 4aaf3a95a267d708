package graph

// SelectTopUnordered moves the k best entries of s (CompareScored order:
// score descending, ties by NodeID) to s[:k] and returns that prefix in no
// particular order: the set SelectTop returns, without sorting it, for
// callers to whom the order within the top does not matter. The rest of s
// keeps the other entries.
func SelectTopUnordered(s []Scored, k int) []Scored {
	if k <= 0 {
		return s[:0]
	}
	if k >= len(s) {
		return s
	}
	if k <= heapSelectMaxK && len(s) >= heapSelectMinRatio*k {
		if top, ok := selectByHeap(s, k); ok {
			return top
		}
	}
	return quickselect(s, k)
}

// quickselect is SelectTopUnordered by partitions (expected O(n)).
func quickselect(s []Scored, k int) []Scored {
	lo, hi := 0, len(s)-1
	for lo < hi {
		p := partitionScored(s, lo, hi)
		switch {
		case p == k-1:
			lo = hi // done: s[:k] holds the k best
		case p < k-1:
			lo = p + 1
		default:
			hi = p - 1
		}
	}
	return s[:k]
}

// A few best of many (seek's 20 of 9,000 candidates on go-std, its 10
// spreading sources, activate's top 20) are kept in a heap of k instead:
// one comparison with the worst kept for most entries, where quickselect
// moves and compares each entry over several partitions (20 of 9,000 in
// random order: 16 against 31 µs). Entries that keep getting better (an
// ascending list) make every one a replacement, ≈ 3× quickselect's time,
// so after heapSelectMaxSwaps of n replacements the heap hands over. The
// set is the same either way (CompareScored is a total order).
const (
	heapSelectMaxK     = 256
	heapSelectMinRatio = 8
	heapSelectMaxSwaps = 1.0 / 16
)

// selectByHeap is SelectTopUnordered keeping s[:k] as a heap whose root
// is the worst entry kept: an entry better than the root replaces it (the
// two swap places, so s stays a permutation). It gives up (false) after
// too many replacements, s still a permutation of its entries.
func selectByHeap(s []Scored, k int) ([]Scored, bool) {
	h := s[:k]
	for i := k/2 - 1; i >= 0; i-- {
		siftWorst(h, i)
	}
	swaps, maxSwaps := 0, k+int(float64(len(s))*heapSelectMaxSwaps)
	for j := k; j < len(s); j++ {
		if CompareScored(s[j], h[0]) < 0 {
			if swaps++; swaps > maxSwaps {
				return nil, false
			}
			h[0], s[j] = s[j], h[0]
			siftWorst(h, 0)
		}
	}
	return h, true
}

// siftWorst moves h[i] down until no child ranks after it.
func siftWorst(h []Scored, i int) {
	for {
		c := 2*i + 1
		if c >= len(h) {
			return
		}
		if c+1 < len(h) && CompareScored(h[c+1], h[c]) > 0 {
			c++
		}
		if CompareScored(h[c], h[i]) <= 0 {
			return
		}
		h[i], h[c] = h[c], h[i]
		i = c
	}
}
