package graph

import "slices"

// strIndex maps a string handle to the nodes that carry it, as two arrays
// built by counting sort: no per-entry allocation, no map.
type strIndex struct {
	offsets []uint32 // len = number of handles + 1
	nodes   []NodeID
}

func (x *strIndex) get(h Str) []NodeID {
	if int(h)+1 >= len(x.offsets) {
		return nil
	}
	return x.nodes[x.offsets[h]:x.offsets[h+1]]
}

// buildStrIndex indexes nodes by the handles each(i) yields.
func buildStrIndex(numStr, numNodes int, each func(i int, f func(Str))) strIndex {
	x := strIndex{offsets: make([]uint32, numStr+1)}
	for i := 0; i < numNodes; i++ {
		each(i, func(h Str) { x.offsets[h+1]++ })
	}
	for i := 1; i <= numStr; i++ {
		x.offsets[i] += x.offsets[i-1]
	}
	x.nodes = make([]NodeID, x.offsets[numStr])
	pos := slices.Clone(x.offsets[:numStr])
	for i := 0; i < numNodes; i++ {
		each(i, func(h Str) {
			x.nodes[pos[h]] = NodeID(i)
			pos[h]++
		})
	}
	return x
}

func (g *Graph) buildIndexes() {
	n, ns := g.NumNodes(), g.strings.Len()
	s := &g.nodes
	g.byLabel = buildStrIndex(ns, n, func(i int, f func(Str)) { f(s.label[i]) })
	g.byTag = buildStrIndex(ns, n, func(i int, f func(Str)) {
		for _, t := range s.tags[i] {
			f(t)
		}
	})
	g.byPath = buildStrIndex(ns, n, func(i int, f func(Str)) {
		if p := s.prov[i].sourcePath; p != 0 {
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
	for h := 0; h+1 < len(g.byTag.offsets); h++ {
		if nodes := g.byTag.get(Str(h)); len(nodes) > 0 {
			f(g.strings.String(Str(h)), nodes)
		}
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
		strings:   g.strings.clone(),
		nodes:     g.nodes.clone(),
		byExt:     make(map[string]NodeID, len(g.byExt)),
		pending:   slices.Clone(g.pending),
		finalized: g.finalized,
		dirty:     g.dirty,
		gen:       g.gen,
	}
	for k, v := range g.byExt {
		c.byExt[k] = v
	}
	o := &g.csr
	c.csr = csr{
		offsets:    slices.Clone(o.offsets),
		sources:    slices.Clone(o.sources),
		targets:    slices.Clone(o.targets),
		inhibitory: slices.Clone(o.inhibitory),
		relations:  slices.Clone(o.relations),
		directions: slices.Clone(o.directions),
		causal:     slices.Clone(o.causal),
		mirror:     slices.Clone(o.mirror),
		plast: EdgePlasticity{
			Original:   slices.Clone(o.plast.Original),
			Strengthen: slices.Clone(o.plast.Strengthen),
			Weaken:     slices.Clone(o.plast.Weaken),
			LTP:        slices.Clone(o.plast.LTP),
			LTD:        slices.Clone(o.plast.LTD),
		},
		revOffsets: slices.Clone(o.revOffsets),
		revSources: slices.Clone(o.revSources),
		revEdge:    slices.Clone(o.revEdge),
	}
	c.csr.weights = make([]atomicU32, len(o.weights))
	for i := range o.weights {
		c.csr.weights[i].Store(o.weights[i].Load())
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
