package graph

import (
	"math"
	"slices"
	"sync/atomic"
)

// edgeRecord is the staging form of an edge (pending, or carried over from
// a previous CSR during re-finalize).
type edgeRecord struct {
	src, dst   NodeID
	rel        Str
	weight     float32
	orig       float32
	causal     float32
	strengthen uint16
	weaken     uint16
	dir        Direction
	inhibitory bool
	flags      uint8
}

const (
	flagLTP      = 1 << iota // long-term potentiation applied
	flagLTD                  // long-term depression applied
	flagMirror               // reverse copy of a bidirectional edge
	flagExisting             // came from a previous CSR (learned state wins)
)

// csr is the compressed sparse row adjacency, forward and reverse.
type csr struct {
	offsets []uint32 // NumNodes+1
	sources []NodeID // nil when lazySrc is set: read through edgeSources
	targets []NodeID
	weights []atomicU32 // float32 bits
	attrs   attrCol[edgeAttr]

	plast EdgePlasticity
	// lazy is set when plast's counts and flags may be left unallocated
	// (learnlazy.go); nil when they are always there.
	lazy *lazyLearning
	// lazySrc is set when sources was left out (lazysources.go).
	lazySrc *lazySources

	revOffsets []uint32 // NumNodes+1
	revSources []NodeID
	revEdge    []EdgeIdx

	// mirrors counts the mirror entries when mirrorsKnown (a CSR built by
	// Finalize or a splice), so NumPrimaryEdges need not walk every edge.
	mirrors      int
	mirrorsKnown bool
}

// EdgePlasticity is the per-edge learning state, parallel to the forward
// edge arrays. The plasticity engine owns writes to it (under its own lock);
// weights themselves live in the CSR and change only through atomics.
type EdgePlasticity struct {
	Original   []float32
	Strengthen []uint16
	Weaken     []uint16
	LTP        []bool
	LTD        []bool
}

// Finalize builds the CSR from every staged edge (and, when called again
// after more nodes or edges were added, from the current CSR as well),
// computes PageRank and the lookup indexes, and bumps the generation.
//
// Bidirectional edges become two forward entries (the second one is a
// "mirror"). Edges with the same (source, target, relation) collapse into
// one: an edge that was already in the CSR keeps its learned weight and
// state; among new edges the largest weight wins.
func (g *Graph) Finalize() {
	n := g.NumNodes()
	old := &g.csr
	recs := make([]edgeRecord, 0, len(old.targets)+2*len(g.pending))
	lp := old.learning()
	oldSrc := old.edgeSources()
	for e := range old.targets {
		r := g.keptEdge(uint32(e), false, &lp)
		r.src, r.dst = oldSrc[e], old.targets[e]
		recs = append(recs, r)
	}
	for _, r := range g.pending {
		recs = append(recs, r)
		if r.dir == Bidirectional && r.src != r.dst {
			m := r
			m.src, m.dst = r.dst, r.src
			m.flags |= flagMirror
			recs = append(recs, m)
		}
	}
	g.pending = nil

	recs = sortAndDedupe(recs, n)
	g.csr = buildCSR(recs, n)
	g.inBound.Store(nil) // described the old edges
	g.packTags()
	// A splice of g may share the nodes' attributes from here on; a later
	// write to them copies the column first.
	g.nodes.attrs.frozen = true
	g.sortExternalIDs()
	g.computePageRank()
	g.buildIndexes()
	g.strings.freeze()
	g.finalized = true
	g.dirty = false
	g.gen++
}

// better reports whether a should be kept over b for the same triple.
func better(a, b *edgeRecord) bool {
	ae, be := a.flags&flagExisting != 0, b.flags&flagExisting != 0
	if ae != be {
		return ae
	}
	am, bm := a.flags&flagMirror == 0, b.flags&flagMirror == 0
	if am != bm {
		return am
	}
	return a.weight > b.weight
}

// sortAndDedupe orders records by (src, dst, rel), grouping them by src
// in their order and then sorting each source's few, and collapses
// duplicate triples.
func sortAndDedupe(recs []edgeRecord, n int) []edgeRecord {
	sorted := groupBySource(recs, n)
	out := sorted[:0]
	for lo := 0; lo < len(sorted); {
		hi := lo + 1
		for hi < len(sorted) && sorted[hi].src == sorted[lo].src {
			hi++
		}
		seg := sorted[lo:hi]
		lo = hi
		if len(seg) > 1 {
			slices.SortFunc(seg, func(a, b edgeRecord) int {
				if a.dst != b.dst {
					return cmpU32(uint32(a.dst), uint32(b.dst))
				}
				return cmpU32(uint32(a.rel), uint32(b.rel))
			})
		}
		start := len(out)
		for i := range seg {
			r := seg[i]
			if len(out) > start {
				last := &out[len(out)-1]
				if last.dst == r.dst && last.rel == r.rel {
					keep := *last
					if better(&r, &keep) {
						keep = r
					}
					if keep.flags&flagExisting == 0 {
						keep.weight = max(last.weight, r.weight)
						keep.orig = keep.weight
					}
					*last = keep
					continue
				}
			}
			out = append(out, r)
		}
	}
	return out
}

// groupBySource returns recs ordered by src, keeping their order within a
// source: a counting sort over the n sources, or a stable sort when there
// are far fewer records than nodes (a splice's added edges), where the
// counts alone would cost more than sorting.
func groupBySource(recs []edgeRecord, n int) []edgeRecord {
	if len(recs) < n/16 {
		sorted := slices.Clone(recs)
		slices.SortStableFunc(sorted, func(a, b edgeRecord) int { return cmpU32(uint32(a.src), uint32(b.src)) })
		return sorted
	}
	count := make([]uint32, n+1)
	for i := range recs {
		count[recs[i].src+1]++
	}
	for i := 1; i <= n; i++ {
		count[i] += count[i-1]
	}
	sorted := make([]edgeRecord, len(recs))
	for i := range recs {
		s := recs[i].src
		sorted[count[s]] = recs[i]
		count[s]++
	}
	return sorted
}

func cmpU32(a, b uint32) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func buildCSR(recs []edgeRecord, n int) csr {
	b := newCSRBuilder(n, len(recs))
	for i := range recs {
		b.add(&recs[i])
	}
	return b.finish()
}

// csrBuilder fills a CSR from records appended in (source, target) order.
type csrBuilder struct {
	c csr
	n int
}

// newCSRBuilder allocates for n nodes and at most m edges.
func newCSRBuilder(n, m int) *csrBuilder { return &csrBuilder{n: n, c: newCSR(n, m)} }

// newCSR returns an empty forward CSR with room for n nodes and m edges.
func newCSR(n, m int) csr {
	return csr{
		offsets: make([]uint32, n+1),
		sources: make([]NodeID, 0, m),
		targets: make([]NodeID, 0, m),
		weights: make([]atomicU32, 0, m),
		attrs:   attrCol[edgeAttr]{flat: make([]edgeAttr, 0, m)},
		plast: EdgePlasticity{
			Original:   make([]float32, 0, m),
			Strengthen: make([]uint16, 0, m),
			Weaken:     make([]uint16, 0, m),
			LTP:        make([]bool, 0, m),
			LTD:        make([]bool, 0, m),
		},
	}
}

func (b *csrBuilder) add(r *edgeRecord) {
	b.c.offsets[r.src+1]++
	if r.flags&flagMirror != 0 {
		b.c.mirrors++
	}
	b.c.push(r)
}

// push appends r's fields to the forward arrays (offsets are the caller's).
// allocEdges gives c's per-edge arrays but the attributes and the sources
// m zero entries, to be written by index (setPlast, or in bulk); a splice
// builds the attributes apart and leaves the sources to edgeSources. With
// lazy, the counts and flags are left to EdgePlasticity (every record
// written must have none).
func (c *csr) allocEdges(m int, lazy bool) {
	c.targets, c.weights = make([]NodeID, m), make([]atomicU32, m)
	c.lazySrc = &lazySources{}
	c.plast = EdgePlasticity{Original: make([]float32, m)}
	if lazy {
		c.lazy = &lazyLearning{}
		return
	}
	c.plast.Strengthen, c.plast.Weaken = make([]uint16, m), make([]uint16, m)
	c.plast.LTP, c.plast.LTD = make([]bool, m), make([]bool, m)
}

// setPlast writes r's learning state at edge e (a lazy CSR's counts and
// flags stay unallocated: r has none).
func (c *csr) setPlast(e int, r *edgeRecord) {
	p := &c.plast
	p.Original[e] = r.orig
	if p.Strengthen != nil {
		p.Strengthen[e], p.Weaken[e] = r.strengthen, r.weaken
		p.LTP[e], p.LTD[e] = r.flags&flagLTP != 0, r.flags&flagLTD != 0
	}
}

func (c *csr) push(r *edgeRecord) {
	c.sources = append(c.sources, r.src)
	c.targets = append(c.targets, r.dst)
	c.weights = append(c.weights, atomicU32(math.Float32bits(r.weight)))
	c.attrs.flat = append(c.attrs.flat, attrOf(r))
	c.plast.Original = append(c.plast.Original, r.orig)
	c.plast.Strengthen = append(c.plast.Strengthen, r.strengthen)
	c.plast.Weaken = append(c.plast.Weaken, r.weaken)
	c.plast.LTP = append(c.plast.LTP, r.flags&flagLTP != 0)
	c.plast.LTD = append(c.plast.LTD, r.flags&flagLTD != 0)
}

// finish turns the counts into offsets and builds the reverse CSR.
func (b *csrBuilder) finish() csr {
	c := b.c
	for i := 1; i <= b.n; i++ {
		c.offsets[i] += c.offsets[i-1]
	}
	c.buildReverse(b.n)
	c.mirrorsKnown = true
	return c
}

// buildReverse builds the reverse CSR of the forward one.
func (c *csr) buildReverse(n int) {
	m := len(c.targets)
	c.revOffsets = make([]uint32, n+1)
	for _, d := range c.targets {
		c.revOffsets[d+1]++
	}
	for i := 1; i <= n; i++ {
		c.revOffsets[i] += c.revOffsets[i-1]
	}
	// Iterating edges in forward order keeps each node's incoming list
	// sorted by source.
	c.revSources = make([]NodeID, m)
	c.revEdge = make([]EdgeIdx, m)
	pos := slices.Clone(c.revOffsets[:n])
	src := c.edgeSources()
	for e, d := range c.targets {
		c.revSources[pos[d]] = src[e]
		c.revEdge[pos[d]] = EdgeIdx(e)
		pos[d]++
	}
}

// --- edge access -----------------------------------------------------------

// OutRange returns the half-open range of node n's outgoing edges.
func (g *Graph) OutRange(n NodeID) (lo, hi EdgeIdx) {
	return EdgeIdx(g.csr.offsets[n]), EdgeIdx(g.csr.offsets[n+1])
}

// InRange returns the half-open range of positions of node n's incoming
// edges; resolve positions with InSource and InEdge.
func (g *Graph) InRange(n NodeID) (lo, hi uint32) {
	return g.csr.revOffsets[n], g.csr.revOffsets[n+1]
}

// InSource is the source node at a reverse position.
func (g *Graph) InSource(pos uint32) NodeID { return g.csr.revSources[pos] }

// InEdge is the forward edge at a reverse position.
func (g *Graph) InEdge(pos uint32) EdgeIdx { return g.csr.revEdge[pos] }

// OutDegree is the number of outgoing CSR entries of n.
func (g *Graph) OutDegree(n NodeID) int { return int(g.csr.offsets[n+1] - g.csr.offsets[n]) }

// InDegree is the number of incoming CSR entries of n.
func (g *Graph) InDegree(n NodeID) int { return int(g.csr.revOffsets[n+1] - g.csr.revOffsets[n]) }

// Degree is OutDegree + InDegree.
func (g *Graph) Degree(n NodeID) int { return g.OutDegree(n) + g.InDegree(n) }

// Source of edge e.
func (g *Graph) Source(e EdgeIdx) NodeID {
	if g.csr.lazySrc == nil { // inlined: a graph built whole reads its array
		return g.csr.sources[e]
	}
	return g.csr.edgeSources()[e]
}

// Target of edge e.
func (g *Graph) Target(e EdgeIdx) NodeID { return g.csr.targets[e] }

// Relation of edge e (interned).
func (g *Graph) Relation(e EdgeIdx) Str { return edgeAt(&g.csr.attrs, e).rel }

// RelationName of edge e.
func (g *Graph) RelationName(e EdgeIdx) string { return g.strings.String(edgeAt(&g.csr.attrs, e).rel) }

// Inhibitory reports the polarity of edge e.
func (g *Graph) Inhibitory(e EdgeIdx) bool { return edgeAt(&g.csr.attrs, e).inhibitory }

// EdgeDirection of edge e as declared (both copies of a bidirectional edge
// report Bidirectional).
func (g *Graph) EdgeDirection(e EdgeIdx) Direction { return edgeAt(&g.csr.attrs, e).dir }

// IsMirror reports whether e is the generated reverse copy of a
// bidirectional edge (snapshots store only the primary copy).
func (g *Graph) IsMirror(e EdgeIdx) bool { return edgeAt(&g.csr.attrs, e).mirror }

// NumPrimaryEdges returns the number of distinct edges of a finalized
// graph: a bidirectional edge, stored twice (the second a mirror), counts
// once. Finalize and Spliced keep the count; other graphs are walked.
func (g *Graph) NumPrimaryEdges() int {
	if g.csr.mirrorsKnown {
		return len(g.csr.targets) - g.csr.mirrors
	}
	return len(g.csr.targets) - g.csr.countMirrors(0, uint32(len(g.csr.targets)))
}

// countMirrors counts the mirror entries among edges [lo, hi).
func (c *csr) countMirrors(lo, hi uint32) int {
	n := 0
	for e := lo; e < hi; e++ {
		if c.attrs.at(EdgeIdx(e)).mirror {
			n++
		}
	}
	return n
}

// CausalStrength of edge e.
func (g *Graph) CausalStrength(e EdgeIdx) float32 { return edgeAt(&g.csr.attrs, e).causal }

// Weight of edge e (atomic load).
func (g *Graph) Weight(e EdgeIdx) float32 {
	return math.Float32frombits(g.csr.weights[e].Load())
}

// EdgePlasticity exposes the per-edge learning state arrays, to be
// written; it allocates the counts and flags of a graph spliced without
// them (LearningState reads without allocating).
func (g *Graph) EdgePlasticity() *EdgePlasticity {
	g.csr.materialize()
	return &g.csr.plast
}

// AtomicMaxWeight raises edge e's weight to v if v is larger (scatter-max),
// retrying the compare-and-swap at most CASRetryLimit times.
func (g *Graph) AtomicMaxWeight(e EdgeIdx, v float32) error {
	if !IsFinite(v) {
		return ErrNonFinite
	}
	slot := g.atomicWeight(e)
	nb := math.Float32bits(v)
	for range CASRetryLimit {
		ob := slot.Load()
		if math.Float32frombits(ob) >= v {
			return nil
		}
		if slot.CompareAndSwap(ob, nb) {
			g.raiseInBound(e, v)
			return nil
		}
	}
	return ErrCASExhausted
}

// AtomicWriteWeight sets edge e's weight to v (the plasticity write),
// retrying the compare-and-swap at most CASRetryLimit times.
func (g *Graph) AtomicWriteWeight(e EdgeIdx, v float32) error {
	_, err := g.UpdateWeight(e, func(float32) float32 { return v })
	return err
}

// UpdateWeight applies f to edge e's weight atomically: it reads the current
// weight, computes f(old), and swaps it in if no one changed it meanwhile,
// retrying at most CASRetryLimit times. A non-finite result is rejected and
// leaves the weight unchanged. It returns the weight written.
func (g *Graph) UpdateWeight(e EdgeIdx, f func(old float32) float32) (float32, error) {
	slot := g.atomicWeight(e)
	for range CASRetryLimit {
		ob := slot.Load()
		nv := f(math.Float32frombits(ob))
		if !IsFinite(nv) {
			return math.Float32frombits(ob), ErrNonFinite
		}
		if slot.CompareAndSwap(ob, math.Float32bits(nv)) {
			g.raiseInBound(e, nv)
			return nv, nil
		}
	}
	return g.Weight(e), ErrCASExhausted
}

// FindEdge returns the edge (source, target, relation), if present.
func (g *Graph) FindEdge(source, target NodeID, relation Str) (EdgeIdx, bool) {
	if !g.Valid(source) || !g.Valid(target) {
		return 0, false
	}
	lo, hi := g.OutRange(source)
	seg := g.csr.targets[lo:hi]
	i, _ := slices.BinarySearch(seg, target)
	for j := int(lo) + i; j < int(hi) && g.csr.targets[j] == target; j++ {
		if edgeAt(&g.csr.attrs, EdgeIdx(j)).rel == relation {
			return EdgeIdx(j), true
		}
	}
	return 0, false
}

// FindEdgeByName is FindEdge with the relation as a string.
func (g *Graph) FindEdgeByName(source, target NodeID, relation string) (EdgeIdx, bool) {
	r, ok := g.strings.Lookup(relation)
	if !ok {
		return 0, false
	}
	return g.FindEdge(source, target, r)
}

// Adjacent reports whether any edge joins a and b, in either direction.
func (g *Graph) Adjacent(a, b NodeID) bool { return g.hasEdge(a, b) || g.hasEdge(b, a) }

// hasEdge binary-searches source's targets (sorted within its range) for
// target.
func (g *Graph) hasEdge(source, target NodeID) bool {
	lo, hi := g.OutRange(source)
	_, found := slices.BinarySearch(g.csr.targets[lo:hi], target)
	return found
}

// EdgesBetween returns every edge source → target (any relation).
func (g *Graph) EdgesBetween(source, target NodeID) []EdgeIdx {
	lo, hi := g.OutRange(source)
	seg := g.csr.targets[lo:hi]
	i, _ := slices.BinarySearch(seg, target)
	var out []EdgeIdx
	for j := int(lo) + i; j < int(hi) && g.csr.targets[j] == target; j++ {
		out = append(out, EdgeIdx(j))
	}
	return out
}

// Neighbor is one adjacent node as Neighbors reports it.
type Neighbor struct {
	Node     NodeID
	Edge     EdgeIdx
	Relation string
	Weight   float32
	// Incoming is true when the edge runs from Node to the queried node.
	Incoming bool
}

// Neighbors lists n's outgoing then incoming neighbours. Engines on hot paths
// use OutRange/InRange directly; this is the convenient form.
func (g *Graph) Neighbors(n NodeID) []Neighbor {
	lo, hi := g.OutRange(n)
	ilo, ihi := g.InRange(n)
	out := make([]Neighbor, 0, int(hi-lo)+int(ihi-ilo))
	for e := lo; e < hi; e++ {
		out = append(out, Neighbor{Node: g.Target(e), Edge: e, Relation: g.RelationName(e), Weight: g.Weight(e)})
	}
	for p := ilo; p < ihi; p++ {
		e := g.InEdge(p)
		out = append(out, Neighbor{Node: g.InSource(p), Edge: e, Relation: g.RelationName(e), Weight: g.Weight(e), Incoming: true})
	}
	return out
}

// atomicU32 holds float32 bits. Once a CSR is shared its weights are read
// and written only through these atomic methods; a CSR being built is
// filled with plain stores (atomic.Uint32's Store is a locked exchange on
// amd64, a cost per edge that copying a large CSR notices).
type atomicU32 uint32

func (a *atomicU32) Load() uint32 { return atomic.LoadUint32((*uint32)(a)) }

func (a *atomicU32) CompareAndSwap(old, new uint32) bool {
	return atomic.CompareAndSwapUint32((*uint32)(a), old, new)
}
