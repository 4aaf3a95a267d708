package graph

import "slices"

// strIndex maps a string handle to the nodes that carry it: the distinct
// handles in use, sorted, with offsets into one node array. It costs space
// for the strings actually used, not for every interned string, and no map.
type strIndex struct {
	keys    []Str
	offsets []uint32 // len(keys)+1
	nodes   []NodeID
}

func (x *strIndex) get(h Str) []NodeID {
	i, ok := slices.BinarySearch(x.keys, h)
	if !ok {
		return nil
	}
	return x.nodes[x.offsets[i]:x.offsets[i+1]]
}

// buildStrIndex indexes nodes by the handles each(i) yields: a counting
// pass over a scratch array per handle, then compaction to the handles
// used. Node order within a key is ascending.
func buildStrIndex(numStr, numNodes int, each func(i int, f func(Str))) strIndex {
	count := make([]uint32, numStr)
	total := 0
	// The callbacks are made once: a literal inside the loops would be
	// allocated per node.
	tally := func(h Str) { count[h]++; total++ }
	for i := 0; i < numNodes; i++ {
		each(i, tally)
	}
	var x strIndex
	for h, c := range count {
		if c > 0 {
			x.keys = append(x.keys, Str(h))
		}
	}
	x.offsets = make([]uint32, len(x.keys)+1)
	slot := count // reuse: handle → position of its key
	for k, h := range x.keys {
		x.offsets[k+1] = x.offsets[k] + count[h]
		slot[h] = uint32(k)
	}
	x.nodes = make([]NodeID, total)
	pos := slices.Clone(x.offsets[:len(x.keys)])
	var cur NodeID
	place := func(h Str) {
		k := slot[h]
		x.nodes[pos[k]] = cur
		pos[k]++
	}
	for i := 0; i < numNodes; i++ {
		cur = NodeID(i)
		each(i, place)
	}
	return x
}

func (g *Graph) buildIndexes() {
	n, ns := g.NumNodes(), g.strings.Len()
	s := &g.nodes
	g.byLabel = buildStrIndex(ns, n, func(i int, f func(Str)) { f(s.label[i]) })
	g.byTag = buildStrIndex(ns, n, func(i int, f func(Str)) {
		for _, t := range s.attr(NodeID(i)).tags {
			f(t)
		}
	})
	g.byPath = buildStrIndex(ns, n, func(i int, f func(Str)) {
		if p := s.attr(NodeID(i)).prov.sourcePath; p != 0 {
			f(p)
		}
	})
}

func (g *Graph) lookupIndex(idx *strIndex, s string) []NodeID {
	h, ok := g.strings.Lookup(s)
	if !ok {
		return nil
	}
	return slices.Clone(idx.get(h))
}

// NodesByLabel returns every node with exactly this label, in NodeID order.
func (g *Graph) NodesByLabel(label string) []NodeID { return g.lookupIndex(&g.byLabel, label) }

// NodesByTag returns every node carrying tag, in NodeID order.
func (g *Graph) NodesByTag(tag string) []NodeID { return g.lookupIndex(&g.byTag, tag) }

// NodesByPath returns every node whose provenance source_path is path.
func (g *Graph) NodesByPath(path string) []NodeID { return g.lookupIndex(&g.byPath, path) }

// ForEachTag calls f for each distinct tag with its nodes, in tag handle
// order (deterministic for a given graph). Do not modify nodes.
func (g *Graph) ForEachTag(f func(tag string, nodes []NodeID)) {
	for k, h := range g.byTag.keys {
		f(g.strings.String(h), g.byTag.nodes[g.byTag.offsets[k]:g.byTag.offsets[k+1]])
	}
}

// CountByType returns the number of nodes of each type present.
func (g *Graph) CountByType() map[NodeType]int {
	out := map[NodeType]int{}
	for _, t := range g.nodes.nodeType {
		out[t]++
	}
	return out
}

// DegreeStats summarises the degree distribution of the CSR.
type DegreeStats struct {
	Nodes, Edges int
	// AvgDegree is edges per node (forward CSR entries / nodes).
	AvgDegree float64
	MaxOut    int
	MaxIn     int
}

// Degrees computes DegreeStats.
func (g *Graph) Degrees() DegreeStats {
	n := g.NumNodes()
	st := DegreeStats{Nodes: n, Edges: g.NumEdges()}
	if n == 0 || !g.finalized {
		return st
	}
	st.AvgDegree = float64(st.Edges) / float64(n)
	for i := 0; i < n; i++ {
		st.MaxOut = max(st.MaxOut, g.OutDegree(NodeID(i)))
		st.MaxIn = max(st.MaxIn, g.InDegree(NodeID(i)))
	}
	return st
}

// AvgDegree is forward CSR entries per node (0 for an empty graph).
func (g *Graph) AvgDegree() float64 {
	if g.NumNodes() == 0 {
		return 0
	}
	return float64(g.NumEdges()) / float64(g.NumNodes())
}

// Clone returns a deep copy that can be mutated (e.g. merged into and
// re-finalized) while readers keep using g.
func (g *Graph) Clone() *Graph {
	c := &Graph{
		strings:   g.strings.derive(),
		nodes:     g.nodes.clone(),
		extOrder:  slices.Clone(g.extOrder),
		pending:   slices.Clone(g.pending),
		finalized: g.finalized,
		dirty:     g.dirty,
		gen:       g.gen,
	}
	if g.byExt != nil {
		c.byExt = make(map[string]NodeID, len(g.byExt))
		for k, v := range g.byExt {
			c.byExt[k] = v
		}
	}
	o := &g.csr
	lp := o.learning()
	if m := len(o.targets); lp.Strengthen == nil && m > 0 { // a clone is written: its own zero arrays
		lp.Strengthen, lp.Weaken, lp.LTP, lp.LTD = make([]uint16, m), make([]uint16, m), make([]bool, m), make([]bool, m)
	}
	c.csr = csr{
		offsets: slices.Clone(o.offsets),
		sources: slices.Clone(o.edgeSources()),
		targets: slices.Clone(o.targets),
		attrs:   attrCol[edgeAttr]{flat: o.attrs.flatCopy()},
		plast: EdgePlasticity{
			Original:   slices.Clone(o.plast.Original),
			Strengthen: slices.Clone(lp.Strengthen),
			Weaken:     slices.Clone(lp.Weaken),
			LTP:        slices.Clone(lp.LTP),
			LTD:        slices.Clone(lp.LTD),
		},
		revOffsets: slices.Clone(o.revOffsets),
		revSources: slices.Clone(o.revSources),
		revEdge:    slices.Clone(o.revEdge),
		mirrors:    o.mirrors, mirrorsKnown: o.mirrorsKnown,
	}
	c.csr.weights = make([]atomicU32, len(o.weights))
	for i := range o.weights {
		c.csr.weights[i] = atomicU32(o.weights[i].Load())
	}
	if g.finalized {
		c.buildIndexes()
	}
	return c
}

// Merge copies every node and edge of src into g: nodes with an external ID
// already in g are updated in place, new ones are appended, and edges are
// staged with their current weights. Call Finalize afterwards. Learned state
// of edges g already has is kept.
func (g *Graph) Merge(src *Graph) error {
	remap := make([]NodeID, src.NumNodes())
	for i := range remap {
		id, _, err := g.UpsertNode(src.Node(NodeID(i)))
		if err != nil {
			return err
		}
		remap[i] = id
	}
	stage := func(s, t NodeID, rel string, w float32, d Direction, inh bool, cs float32) error {
		return g.AddEdge(Edge{Source: remap[s], Target: remap[t], Relation: rel, Weight: w, Direction: d, Inhibitory: inh, CausalStrength: cs})
	}
	for e := 0; e < src.NumEdges(); e++ {
		ei := EdgeIdx(e)
		if src.IsMirror(ei) {
			continue
		}
		if err := stage(src.Source(ei), src.Target(ei), src.RelationName(ei), src.Weight(ei), src.EdgeDirection(ei), src.Inhibitory(ei), src.CausalStrength(ei)); err != nil {
			return err
		}
	}
	for _, r := range src.pending {
		if err := stage(r.src, r.dst, src.strings.String(r.rel), r.weight, r.dir, r.inhibitory, r.causal); err != nil {
			return err
		}
	}
	return nil
}

// packTags moves every node's tags into one shared array: nodes carry one or
// two tags, and a separate small allocation each cost more than the tags.
// A later UpsertNode gives that node a fresh slice again. A frozen column
// is left as it is: no node was written since the Finalize or splice that
// froze it, and rewriting it would copy it.
func (g *Graph) packTags() {
	c := &g.nodes.attrs
	if c.frozen {
		return
	}
	total := 0
	for i := range c.flat {
		total += len(c.flat[i].tags)
	}
	flat := make([]Str, 0, total)
	for i := range c.flat {
		a := &c.flat[i]
		if len(a.tags) == 0 {
			a.tags = nil
			continue
		}
		start := len(flat)
		flat = append(flat, a.tags...)
		a.tags = flat[start:len(flat):len(flat)]
	}
}
