package graph

import "slices"

// Scored pairs a node with a score. Engines exchange ranked results as
// slices of Scored ordered by SortScored.
type Scored struct {
	Node  NodeID
	Score float32
}

// SortScored orders by score descending, ties broken by NodeID ascending,
// so the same graph and query always give the same order.
func SortScored(s []Scored) {
	slices.SortFunc(s, CompareScored)
}

// CompareScored is the comparison SortScored uses.
func CompareScored(a, b Scored) int {
	switch {
	case a.Score > b.Score:
		return -1
	case a.Score < b.Score:
		return 1
	case a.Node < b.Node:
		return -1
	case a.Node > b.Node:
		return 1
	}
	return 0
}
