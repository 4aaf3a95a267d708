package graph

import "slices"

// keyNode is one entry of a string index: a node carrying a handle.
type keyNode struct {
	key  Str
	node NodeID
}

// splicedIndexes derives the string indexes of out (a splice of g) from
// g's instead of rebuilding them: the entries of nodes outside the ranges
// only move through remap, which keeps their order, and the ranges' new
// nodes are merged in. inRange marks g's nodes inside a range; added lists
// the ranges' new nodes in out.
func (out *Graph) splicedIndexes(g *Graph, remap []NodeID, inRange []bool, added []NodeID) {
	s := &out.nodes
	var labels, tags, paths []keyNode
	for _, id := range added {
		a := s.attr(id)
		labels = append(labels, keyNode{s.label[id], id})
		for _, t := range a.tags {
			tags = append(tags, keyNode{t, id})
		}
		if p := a.prov.sourcePath; p != 0 {
			paths = append(paths, keyNode{p, id})
		}
	}
	out.byLabel = splicedIndex(&g.byLabel, remap, inRange, labels)
	out.byTag = splicedIndex(&g.byTag, remap, inRange, tags)
	out.byPath = splicedIndex(&g.byPath, remap, inRange, paths)
}

// splicedIndex is old with the entries of nodes in a range removed, the
// rest remapped, and added merged in: what buildStrIndex would give.
func splicedIndex(old *strIndex, remap []NodeID, inRange []bool, added []keyNode) strIndex {
	slices.SortFunc(added, func(a, b keyNode) int {
		if a.key != b.key {
			return cmpU32(uint32(a.key), uint32(b.key))
		}
		return cmpU32(uint32(a.node), uint32(b.node))
	})
	x := strIndex{
		keys:    make([]Str, 0, len(old.keys)+len(added)),
		offsets: make([]uint32, 1, len(old.keys)+len(added)+1),
		nodes:   make([]NodeID, 0, len(old.nodes)+len(added)),
	}
	ai := 0
	for k := 0; k < len(old.keys) || ai < len(added); {
		var key Str
		var olds []NodeID
		if k < len(old.keys) && (ai == len(added) || old.keys[k] <= added[ai].key) {
			key, olds = old.keys[k], old.nodes[old.offsets[k]:old.offsets[k+1]]
			k++
		} else {
			key = added[ai].key
		}
		for _, o := range olds {
			if inRange[o] {
				continue
			}
			id := remap[o]
			for ai < len(added) && added[ai].key == key && added[ai].node < id {
				x.nodes = append(x.nodes, added[ai].node)
				ai++
			}
			x.nodes = append(x.nodes, id)
		}
		for ai < len(added) && added[ai].key == key {
			x.nodes = append(x.nodes, added[ai].node)
			ai++
		}
		if uint32(len(x.nodes)) > x.offsets[len(x.offsets)-1] {
			x.keys = append(x.keys, key)
			x.offsets = append(x.offsets, uint32(len(x.nodes)))
		}
	}
	return x
}
