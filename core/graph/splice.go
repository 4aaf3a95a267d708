package graph

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/m1nd-go/m1nd/core/internal/finite"
)

// NodeRange replaces the nodes [Lo, Hi) of a base graph with Nodes, in
// that order; Lo == Hi inserts before Lo.
type NodeRange struct {
	Lo, Hi NodeID
	Nodes  []Node
}

// SpliceEdge is an edge of a spliced graph addressed by external IDs (the
// NodeIDs of Edge are ignored).
type SpliceEdge struct {
	Source, Target string
	Edge
}

// Splice describes a graph derived from a finalized base graph by replacing
// node ranges and edges: what an incremental re-ingest changes when a few
// files change.
type Splice struct {
	// Ranges are replaced in place, ascending and not overlapping. A node of
	// a range whose external ID reappears among the range's new nodes is the
	// same node: it keeps its learning state and the edges that reach it
	// from outside; the rest of the range's old nodes are removed with
	// their edges.
	Ranges []NodeRange
	// DropEdge, when set, is asked about every edge of the base graph whose
	// ends both survive (or only those AskSources and AskRelations name),
	// in its primary orientation and with base NodeIDs (the mirror of a
	// bidirectional edge follows its primary); true drops it. Kept edges
	// keep their weight and learning state.
	DropEdge func(src, dst NodeID, rel Str) bool
	// AskSources and AskRelations, when either is set, say which edges
	// DropEdge may drop, so that it is not asked about the others: only an
	// edge whose primary source s has AskSources[s] set (indexed by base
	// NodeID; a shorter slice means false) or whose relation is among
	// AskRelations is asked, and every other edge is kept. A superset of
	// the edges DropEdge drops is fine. With neither set DropEdge is asked
	// about every edge, a call per edge of the graph (about a fifth of the
	// splice's time at 500K nodes); with them the other edges are copied
	// without a call (AskRelations costs a look at each edge's relation,
	// AskSources nothing beyond the edges it names). A caller that drops the
	// outgoing edges of some nodes (a changed file's) and the edges of a
	// few relations (ones it recomputes whole) sets AskSources to those
	// nodes and AskRelations to those relations.
	AskSources   []bool
	AskRelations []Str
	// AddEdges are added like AddEdge + Finalize would; an edge that is
	// already there (and not dropped) keeps its weight and state.
	AddEdges []SpliceEdge
	// FreshWeights gives kept edges their original (ingest-time) weight and
	// no learned state, and nodes no firing history: the graph a rebuild
	// would give, for the caller to carry learned state onto as it does
	// after a rebuild. It also means the splice reads nothing the
	// plasticity engine writes, so it may run while the base graph learns.
	FreshWeights bool
}

// Spliced returns a new finalized graph: g with the splice applied. g is
// not modified and may be read (and its weights updated) concurrently. The
// result shares g's immutable parts (interned strings, tag slices, and the
// long runs of edge and node attributes it keeps, copy-on-write: a write
// to either graph's nodes copies that graph's column first).
//
// Nodes keep g's order with each range's new nodes in its place, so a
// splice that replaces a file's nodes yields the order a full rebuild would.
// Edge order, lookups and indexes are as Finalize builds them; PageRank is
// iterated from g's values, which converges in a few rounds when little
// changed. It also returns, per node of g, its ID in the new graph (NoNode
// when removed).
//
// The cost is about one copy of g's arrays: the edges of sources that keep
// them unchanged are copied in bulk, and the reverse CSR, the string
// indexes and the external-ID order are derived from g's rather than
// rebuilt. Only the ranges, the sources with added or dropped edges and
// those reaching a range go through edge records.
func (g *Graph) Spliced(sp Splice) (*Graph, []NodeID, error) {
	if !g.Finalized() {
		return nil, nil, ErrNotFinalized
	}
	sc := getScratch()
	defer putScratch(sc)
	lay, err := g.spliceLayout(sp, sc)
	if err != nil {
		return nil, nil, err
	}
	out := &Graph{strings: g.strings.derive(), gen: g.gen}
	// The added edges intern their relations before the nodes' goroutine
	// interns labels and tags: one writer at a time.
	fresh, err := out.splicedEdges(g, lay, sp.AddEdges)
	if err != nil {
		return nil, nil, err
	}
	// The nodes, the lookup order and the string indexes need no edge:
	// they are built beside the CSR.
	noded, indexed := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(indexed)
		// New and replaced nodes take the attributes they were given;
		// the replaced ones keep their learning state.
		var placed []NodeID // ascending: ranges are, and so their nodes' IDs
		var vals []nodeAttr
		var labels []Str
		for _, r := range sp.Ranges {
			for _, nd := range r.Nodes {
				placed = append(placed, lay.newExt[nd.ExternalID])
				l, a := out.nodeAttrOf(nd)
				labels, vals = append(labels, l), append(vals, a)
			}
		}
		out.nodes = g.nodes.spliced(lay.from, !sp.FreshWeights, placed, vals)
		k := 0
		for _, r := range sp.Ranges {
			for _, nd := range r.Nodes {
				id := lay.newExt[nd.ExternalID]
				out.nodes.label[id] = labels[k]
				k++
				out.nodes.nodeType[id] = nd.Type
				out.nodes.lastModified[id] = Finite64(nd.LastModified)
				out.nodes.changeFrequency[id] = finite.Clamp(nd.ChangeFrequency, 0, 1)
			}
		}
		close(noded)
		out.extOrder = splicedExtOrder(g, lay.remap, &out.nodes, lay.newExt, sp.Ranges)
		out.splicedIndexes(g, lay.remap, lay.inRange, placed)
	}()
	out.csr = newCSRSplicer(g, &sp, lay.remap, lay.from, fresh, sc).build()
	sc.init = zeroed(sc.init, len(lay.from))
	init := sc.init
	for id, o := range lay.from {
		if o != NoNode {
			init[id] = float64(g.nodes.PageRank[o])
		}
	}
	touched := touchedNodes(g, out, lay.from, sc)
	<-noded // PageRank is stored on the nodes
	out.computePageRankFrom(init, g.prResidual, touched, sc)
	<-indexed
	out.strings.freeze()
	out.finalized = true
	out.gen++
	return out, lay.remap, nil
}

// spliceLayout is where every node of a base graph goes in a spliced one,
// and where every node of the spliced graph comes from.
type spliceLayout struct {
	remap   []NodeID          // old ID → new ID, NoNode when removed
	from    []NodeID          // new ID → old ID, NoNode for a new node
	inRange []bool            // old nodes inside a replaced range
	newExt  map[string]NodeID // external IDs of the ranges' new nodes
}

// spliceLayout checks sp's ranges and new nodes and lays them out; from
// and inRange lie in sc (they do not outlive the splice).
func (g *Graph) spliceLayout(sp Splice, sc *spliceScratch) (*spliceLayout, error) {
	n := NodeID(g.NumNodes())
	var prev NodeID
	added := 0
	for i, r := range sp.Ranges {
		if r.Lo > r.Hi || r.Hi > n || (i > 0 && r.Lo < prev) {
			return nil, fmt.Errorf("splice: range %d [%d, %d) is out of order or outside the %d nodes", i, r.Lo, r.Hi, n)
		}
		prev = r.Hi
		added += len(r.Nodes) - int(r.Hi-r.Lo)
	}
	if cap(sc.from) < int(n)+added {
		sc.from = make([]NodeID, 0, withRoom(int(n)+added))
	}
	sc.inRange = zeroed(sc.inRange, int(n))
	lay := &spliceLayout{remap: make([]NodeID, n), from: sc.from[:0],
		inRange: sc.inRange, newExt: map[string]NodeID{}}
	remap := lay.remap
	var next NodeID
	copyUpTo := func(lo, hi NodeID) {
		for o := lo; o < hi; o++ {
			remap[o] = next
			lay.from = append(lay.from, o)
			next++
		}
	}
	cursor := NodeID(0)
	for ri, r := range sp.Ranges {
		copyUpTo(cursor, r.Lo)
		old := map[string]NodeID{}
		for o := r.Lo; o < r.Hi; o++ {
			old[g.nodes.attr(o).externalID] = o
			remap[o] = NoNode
			lay.inRange[o] = true
		}
		for _, nd := range r.Nodes {
			if nd.ExternalID == "" {
				return nil, fmt.Errorf("splice: range %d: %w", ri, ErrEmptyExternalID)
			}
			if _, dup := lay.newExt[nd.ExternalID]; dup {
				return nil, fmt.Errorf("splice: %w %q", ErrDuplicateNode, nd.ExternalID)
			}
			src := NoNode
			if o, ok := old[nd.ExternalID]; ok {
				src = o
				remap[o] = next
			} else if o, ok := g.Lookup(nd.ExternalID); ok && !inRanges(sp.Ranges, o) {
				return nil, fmt.Errorf("splice: %w %q (node %d outside the replaced ranges)", ErrDuplicateNode, nd.ExternalID, o)
			}
			lay.newExt[nd.ExternalID] = next
			lay.from = append(lay.from, src)
			next++
		}
		cursor = r.Hi
	}
	copyUpTo(cursor, n)
	sc.from = lay.from
	return lay, nil
}

// splicedEdges resolves the added edges in out (a splice of g laid out by
// lay) into records, mirrors included, sorted by (source, target,
// relation) and without repeated triples, to be merged with the kept ones.
func (out *Graph) splicedEdges(g *Graph, lay *spliceLayout, adds []SpliceEdge) ([]edgeRecord, error) {
	lookup := func(ext string) (NodeID, bool) {
		if id, ok := lay.newExt[ext]; ok {
			return id, true
		}
		if o, ok := g.Lookup(ext); ok && lay.remap[o] != NoNode {
			return lay.remap[o], true
		}
		return NoNode, false
	}
	var fresh []edgeRecord
	for i, e := range adds {
		s, ok1 := lookup(e.Source)
		t, ok2 := lookup(e.Target)
		if !ok1 || !ok2 {
			return nil, fmt.Errorf("splice: added edge %d %q -> %q: %w", i, e.Source, e.Target, ErrUnknownNode)
		}
		if !IsFinite(e.Weight) || !IsFinite(e.CausalStrength) {
			return nil, fmt.Errorf("splice: added edge %d: %w", i, ErrNonFinite)
		}
		if e.Direction > Bidirectional {
			return nil, fmt.Errorf("splice: added edge %d: invalid direction %d", i, e.Direction)
		}
		r := edgeRecord{src: s, dst: t, rel: out.strings.Intern(e.Relation), weight: e.Weight, orig: e.Weight,
			dir: e.Direction, inhibitory: e.Inhibitory, causal: e.CausalStrength}
		fresh = append(fresh, r)
		if r.dir == Bidirectional && s != t {
			m := r
			m.src, m.dst = t, s
			m.flags |= flagMirror
			fresh = append(fresh, m)
		}
	}
	return sortAndDedupe(fresh, len(lay.from)), nil
}

// keptEdge is the record of edge e carried into a re-finalized or spliced
// graph (endpoints left for the caller); fresh drops the learned state.
// lp is g's learning state (csr.learning: counts and flags nil when zero).
func (g *Graph) keptEdge(e uint32, fresh bool, lp *EdgePlasticity) edgeRecord {
	oc := &g.csr
	a := oc.attrs.at(EdgeIdx(e))
	r := edgeRecord{
		rel: a.rel, orig: oc.plast.Original[e], causal: a.causal,
		dir: a.dir, inhibitory: a.inhibitory, flags: flagExisting,
	}
	if a.mirror {
		r.flags |= flagMirror
	}
	if fresh {
		r.weight = r.orig
		return r
	}
	r.weight = math.Float32frombits(oc.weights[e].Load())
	if lp.Strengthen == nil {
		return r
	}
	r.strengthen, r.weaken = lp.Strengthen[e], lp.Weaken[e]
	if lp.LTP[e] {
		r.flags |= flagLTP
	}
	if lp.LTD[e] {
		r.flags |= flagLTD
	}
	return r
}

func inRanges(rs []NodeRange, o NodeID) bool {
	i, _ := slices.BinarySearchFunc(rs, o, func(r NodeRange, o NodeID) int {
		if r.Hi <= o {
			return -1
		}
		if r.Lo > o {
			return 1
		}
		return 0
	})
	return i < len(rs) && rs[i].Lo <= o && o < rs[i].Hi
}

func byTarget(a, b edgeRecord) int { return cmpU32(uint32(a.dst), uint32(b.dst)) }

// dedupeSorted collapses repeated (source, target, relation) triples in
// records sorted by (source, target); relations within a target may be in
// any order (a loaded snapshot renumbers them), so each run is scanned.
// An existing edge beats a new one.
func dedupeSorted(recs []edgeRecord) []edgeRecord {
	out := recs[:0]
	runStart := 0
	for i := range recs {
		r := recs[i]
		if len(out) > 0 {
			last := &out[len(out)-1]
			if last.src != r.src || last.dst != r.dst {
				runStart = len(out)
			} else {
				dup := -1
				for k := runStart; k < len(out); k++ {
					if out[k].rel == r.rel {
						dup = k
						break
					}
				}
				if dup >= 0 {
					if better(&r, &out[dup]) {
						out[dup] = r
					}
					continue
				}
			}
		}
		out = append(out, r)
	}
	return out
}

// spliced copies the nodes listed in from (old IDs; NoNode for a new
// node) into fresh storage, with their firing history when firing is set.
// The nodes placed (ascending) take vals as their attributes; the others'
// attributes are shared with s where s's column is frozen (splicedAttrs).
func (s *NodeStorage) spliced(from []NodeID, firing bool, placed []NodeID, vals []nodeAttr) NodeStorage {
	n := len(from)
	c := NodeStorage{
		PageRank:        make([]float32, n),
		Plasticity:      make([]PlasticityNode, n),
		label:           make([]Str, n),
		nodeType:        make([]NodeType, n),
		lastModified:    make([]float64, n),
		changeFrequency: make([]float32, n),
	}
	// Copy runs of consecutive old nodes at once.
	for i := 0; i < n; {
		o := from[i]
		if o == NoNode {
			i++
			continue
		}
		j := i + 1
		for j < n && from[j] == o+NodeID(j-i) {
			j++
		}
		hi := o + NodeID(j-i)
		copy(c.PageRank[i:j], s.PageRank[o:hi])
		if firing {
			copy(c.Plasticity[i:j], s.Plasticity[o:hi])
		}
		copy(c.label[i:j], s.label[o:hi])
		copy(c.nodeType[i:j], s.nodeType[o:hi])
		copy(c.lastModified[i:j], s.lastModified[o:hi])
		copy(c.changeFrequency[i:j], s.changeFrequency[o:hi])
		i = j
	}
	c.attrs = s.splicedAttrs(from, placed, vals)
	return c
}

// splicedAttrs builds the attribute column of a splice: the runs of nodes
// kept in order between placed ones are shared with s's column (copied
// when it is not frozen, as a graph still being built may write it), the
// placed nodes take vals.
func (s *NodeStorage) splicedAttrs(from []NodeID, placed []NodeID, vals []nodeAttr) attrCol[nodeAttr] {
	// runs calls kept for each run of old nodes [lo, hi) kept in order and
	// put for each placed node, in new ID order.
	runs := func(kept func(lo, hi uint32), put func(k int)) {
		k := 0
		for i := 0; i < len(from); {
			if k < len(placed) && placed[k] == NodeID(i) {
				put(k)
				k, i = k+1, i+1
				continue
			}
			o := from[i]
			j := i + 1
			for j < len(from) && from[j] == o+NodeID(j-i) && (k == len(placed) || placed[k] != NodeID(j)) {
				j++
			}
			kept(uint32(o), uint32(o)+uint32(j-i))
			i = j
		}
	}
	var b attrBuilder[nodeAttr]
	own := len(placed)
	runs(func(lo, hi uint32) {
		if s.attrs.frozen {
			own += s.attrs.copies(lo, hi)
		} else {
			own += int(hi - lo)
		}
	}, func(int) {})
	b.reserve(own)
	runs(func(lo, hi uint32) {
		if s.attrs.frozen {
			b.share(&s.attrs, lo, hi)
			return
		}
		for e := lo; e < hi; e++ {
			b.add(*s.attrs.at(EdgeIdx(e)))
		}
	}, func(k int) { b.add(vals[k]) })
	return b.finish()
}

// splicedExtOrder derives the sorted external-ID order of a spliced graph
// from g's: surviving nodes keep their relative order, new ones are merged
// in where a binary search over g's order puts them (a node removed there
// is skipped, so its place does not matter: no new node shares the ID of
// one that survives). Only the new nodes' IDs are compared.
func splicedExtOrder(g *Graph, remap []NodeID, s *NodeStorage, newExt map[string]NodeID, ranges []NodeRange) []NodeID {
	var added []NodeID
	for _, r := range ranges {
		for _, nd := range r.Nodes {
			id := newExt[nd.ExternalID]
			if o, ok := g.Lookup(nd.ExternalID); ok && remap[o] == id {
				continue // the same node, already in g's order
			}
			added = append(added, id)
		}
	}
	ext := func(id NodeID) string { return s.attr(id).externalID }
	slices.SortFunc(added, func(a, b NodeID) int { return strings.Compare(ext(a), ext(b)) })
	out := make([]NodeID, 0, s.Len())
	copyUpTo := func(old []NodeID) {
		for _, o := range old {
			if id := remap[o]; id != NoNode {
				out = append(out, id)
			}
		}
	}
	k := 0 // g.extOrder[:k] is written
	for _, a := range added {
		x := ext(a)
		i, _ := slices.BinarySearchFunc(g.extOrder[k:], x, func(o NodeID, x string) int {
			return strings.Compare(g.nodes.attr(o).externalID, x)
		})
		copyUpTo(g.extOrder[k : k+i])
		out = append(out, a)
		k += i
	}
	copyUpTo(g.extOrder[k:])
	return out
}

// touchedNodes lists the nodes of out whose in-sum a splice moved: new
// nodes, nodes whose in- or out-degree changed, and the out-neighbours of
// the latter, ascending.
func touchedNodes(g, out *Graph, from []NodeID, sc *spliceScratch) []NodeID {
	oc, nc := &g.csr, &out.csr
	sc.mark = zeroed(sc.mark, len(from))
	mark := sc.mark
	for i, o := range from {
		id := NodeID(i)
		if o == NoNode {
			mark[i] = true
			continue
		}
		outMoved := nc.offsets[id+1]-nc.offsets[id] != oc.offsets[o+1]-oc.offsets[o]
		if outMoved {
			for _, t := range nc.targets[nc.offsets[id]:nc.offsets[id+1]] {
				mark[t] = true
			}
		}
		if outMoved || nc.revOffsets[id+1]-nc.revOffsets[id] != oc.revOffsets[o+1]-oc.revOffsets[o] {
			mark[i] = true
		}
	}
	var touched []NodeID
	for i, m := range mark {
		if m {
			touched = append(touched, NodeID(i))
		}
	}
	return touched
}
