package graph

// Rewrite describes a graph derived from a finalized one by dropping nodes
// and renaming the ones kept: how a server puts one repository's nodes
// under a namespace when a second repository joins the graph, or removes a
// repository's nodes before adding them again.
type Rewrite struct {
	// Drop, when set, removes a node and every edge that touches it.
	Drop func(id NodeID) bool
	// Rename, when set, gives a kept node a new external ID and source path
	// (an empty string keeps the current one).
	Rename func(id NodeID) (externalID, sourcePath string)
}

// Rewritten returns a new finalized graph: g with rw applied. The nodes
// kept stay in g's order with their attributes, edges, weights and
// learning state; PageRank values are g's (not recomputed). It fails when
// two kept nodes would share an external ID. g is not modified.
func (g *Graph) Rewritten(rw Rewrite) (*Graph, error) {
	r, err := g.ToRaw()
	if err != nil {
		return nil, err
	}
	n := len(r.ExternalID)
	newID := make([]uint32, n) // old → new index, or n when dropped
	kept := 0
	for i := range n {
		if rw.Drop != nil && rw.Drop(NodeID(i)) {
			newID[i] = uint32(n)
			continue
		}
		newID[i] = uint32(kept)
		kept++
	}
	out := &Raw{Generation: r.Generation, Strings: r.Strings}
	str := func(s string) uint32 {
		out.Strings = append(out.Strings, s)
		return uint32(len(out.Strings) - 1)
	}
	out.TagOffsets = []uint32{0}
	out.Offsets = []uint32{0}
	for i := range n {
		if newID[i] == uint32(n) {
			continue
		}
		ext, src := r.ExternalID[i], r.SourcePath[i]
		if rw.Rename != nil {
			if e, s := rw.Rename(NodeID(i)); e != "" || s != "" {
				if e != "" {
					ext = str(e)
				}
				if s != "" {
					src = str(s)
				}
			}
		}
		out.ExternalID = append(out.ExternalID, ext)
		out.SourcePath = append(out.SourcePath, src)
		keepNode(out, r, i)
		for e := r.Offsets[i]; e < r.Offsets[i+1]; e++ {
			if t := newID[r.Targets[e]]; t != uint32(n) {
				keepEdge(out, r, int(e), t)
			}
		}
		out.Offsets = append(out.Offsets, uint32(len(out.Targets)))
	}
	return FromRaw(out)
}

// keepNode copies node i's attributes (all but its external ID and source
// path) from r to out.
func keepNode(out, r *Raw, i int) {
	out.Label = append(out.Label, r.Label[i])
	out.Type = append(out.Type, r.Type[i])
	out.Tags = append(out.Tags, r.Tags[r.TagOffsets[i]:r.TagOffsets[i+1]]...)
	out.TagOffsets = append(out.TagOffsets, uint32(len(out.Tags)))
	out.LastModified = append(out.LastModified, r.LastModified[i])
	out.ChangeFrequency = append(out.ChangeFrequency, r.ChangeFrequency[i])
	out.PageRank = append(out.PageRank, r.PageRank[i])
	out.Excerpt = append(out.Excerpt, r.Excerpt[i])
	out.Namespace = append(out.Namespace, r.Namespace[i])
	out.LineStart = append(out.LineStart, r.LineStart[i])
	out.LineEnd = append(out.LineEnd, r.LineEnd[i])
	out.Canonical = append(out.Canonical, r.Canonical[i])
}

// keepEdge copies edge e of r to out with target t. Kept targets keep
// their relative order, so each node's edges stay sorted by target.
func keepEdge(out, r *Raw, e int, t uint32) {
	out.Targets = append(out.Targets, t)
	out.Weights = append(out.Weights, r.Weights[e])
	out.Relations = append(out.Relations, r.Relations[e])
	out.Directions = append(out.Directions, r.Directions[e])
	out.Inhibitory = append(out.Inhibitory, r.Inhibitory[e])
	out.Causal = append(out.Causal, r.Causal[e])
	out.Mirror = append(out.Mirror, r.Mirror[e])
	out.Original = append(out.Original, r.Original[e])
	out.Strengthen = append(out.Strengthen, r.Strengthen[e])
	out.Weaken = append(out.Weaken, r.Weaken[e])
	out.LTP = append(out.LTP, r.LTP[e])
	out.LTD = append(out.LTD, r.LTD[e])
}
