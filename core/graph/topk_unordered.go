package graph

// SelectTopUnordered moves the k best entries of s (CompareScored order:
// score descending, ties by NodeID) to s[:k] and returns that prefix in no
// particular order: the set SelectTop returns, without sorting it, for
// callers to whom the order within the top does not matter.
func SelectTopUnordered(s []Scored, k int) []Scored {
	if k <= 0 {
		return s[:0]
	}
	if k >= len(s) {
		return s
	}
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
