package graph

// SelectTop reorders s so that its k best entries (by CompareScored: score
// descending, NodeID ascending) come first, sorted, and returns them as
// s[:k] (all of s when k >= len(s); nothing when k <= 0).
//
// Engines produce thousands of candidates and keep tens, so a full sort
// would dominate a query; this selects in place (SelectTopUnordered: a heap
// of k for a few of many, else quickselect, expected O(n)) and sorts only
// the k survivors. Because CompareScored is a total order the result is
// the same for the same input multiset regardless of input order.
func SelectTop(s []Scored, k int) []Scored {
	top := SelectTopUnordered(s, k)
	SortScored(top)
	return top
}

// partitionScored is a Lomuto partition around the median of three of
// s[lo], s[mid], s[hi]; entries better than the pivot end up on its left.
func partitionScored(s []Scored, lo, hi int) int {
	mid := lo + (hi-lo)/2
	if CompareScored(s[mid], s[lo]) < 0 {
		s[mid], s[lo] = s[lo], s[mid]
	}
	if CompareScored(s[hi], s[lo]) < 0 {
		s[hi], s[lo] = s[lo], s[hi]
	}
	if CompareScored(s[hi], s[mid]) < 0 {
		s[hi], s[mid] = s[mid], s[hi]
	}
	// s[mid] is the median; move it to hi and partition.
	s[mid], s[hi] = s[hi], s[mid]
	pivot := s[hi]
	i := lo
	for j := lo; j < hi; j++ {
		if CompareScored(s[j], pivot) < 0 {
			s[i], s[j] = s[j], s[i]
			i++
		}
	}
	s[i], s[hi] = s[hi], s[i]
	return i
}
