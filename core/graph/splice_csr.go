package graph

import (
	"math"
	"runtime"
	"slices"
	"sync"
)

// csrSplicer writes the CSR of a spliced graph. Node IDs move by a
// constant between the replaced ranges, so most sources keep exactly the
// edges they had, with their targets shifted: runs of such sources are
// copied array by array, and their entries of the reverse CSR carried
// over with the edge indexes shifted. The other sources (in a range, or
// with an added edge, a dropped one, or an edge to a removed or reordered
// node) go through edge records one source at a time.
type csrSplicer struct {
	g           *Graph
	sp          *Splice
	remap, from []NodeID
	fresh       []edgeRecord   // added edges, sorted by (source, target, relation)
	fi          int            // next fresh edge
	shaky       []bool         // old nodes a copied edge may not target
	care        []uint8        // per old source: careRelations, careEdges or careRecords
	askRel      []bool         // by relation handle: DropEdge is asked
	askAll      bool           // DropEdge is asked about every edge
	fw          bool           // FreshWeights
	lp          EdgePlasticity // g's learning state (csr.learning)
	c           csr            // being written; offsets absolute
	m           int            // edges laid out so far
	pieces      []piece        // the new forward edges, in order
	recs        []edgeRecord   // the edges written through records, in order
	shift       []int32        // per old source copied in bulk: new edge index - old (bounded by the edges that changed)
	skip        []uint32       // per old node: its incoming edges from sources not copied in bulk (countReverse)
	slowIn      []revEntry     // reverse entries of edges written through records
	seg         []edgeRecord
}

// piece is a stretch of the new forward edges from edge index at on:
// the edges [lo, hi) of the old CSR copied in bulk (run), or
// recs[lo:hi] (not run).
type piece struct {
	run    bool
	at     int
	lo, hi int
}

// How closely an old source's edges must be looked at before a bulk copy.
const (
	careRelations = iota // only relations DropEdge is asked about
	careEdges            // every edge: it reaches a range or an asked source
	careRecords          // none: a source in a range always goes through records
)

// noShift marks an old source whose edges were not copied in bulk.
const noShift = math.MinInt32

// revEntry is an incoming edge of dst written through records.
type revEntry struct {
	dst, src NodeID
	e        EdgeIdx
}

// newCSRSplicer readies a splicer; its per-old-source marks lie in sc.
func newCSRSplicer(g *Graph, sp *Splice, remap, from []NodeID, fresh []edgeRecord, sc *spliceScratch) *csrSplicer {
	n := NodeID(len(remap))
	s := &csrSplicer{g: g, sp: sp, remap: remap, from: from, fresh: fresh, fw: sp.FreshWeights,
		lp: g.csr.learning(), c: csr{offsets: make([]uint32, len(from)+1)}}
	sc.shaky, sc.care = zeroed(sc.shaky, int(n)), zeroed(sc.care, int(n))
	s.shaky, s.care = sc.shaky, sc.care
	oc := &g.csr
	for _, r := range sp.Ranges {
		s.markRange(r)
		for o := r.Lo; o < r.Hi; o++ {
			s.care[o] = careRecords
			for p := oc.revOffsets[o]; p < oc.revOffsets[o+1]; p++ {
				s.careAbout(oc.revSources[p])
			}
		}
	}
	if sp.DropEdge != nil {
		s.askAll = sp.AskSources == nil && sp.AskRelations == nil
		for _, rel := range sp.AskRelations {
			if int(rel) >= len(s.askRel) {
				s.askRel = append(s.askRel, make([]bool, int(rel)+1-len(s.askRel))...)
			}
			s.askRel[rel] = true
		}
		// An asked source's edges, and the mirrors of its bidirectional
		// edges (they leave the nodes with an edge to it).
		for o, ask := range sp.AskSources[:min(len(sp.AskSources), int(n))] {
			if ask {
				s.careAbout(NodeID(o))
				for p := oc.revOffsets[o]; p < oc.revOffsets[o+1]; p++ {
					s.careAbout(oc.revSources[p])
				}
			}
		}
	}
	sc.shift = zeroed(sc.shift, int(n))
	s.shift = sc.shift
	sc.skip = zeroed(sc.skip, int(n))
	s.skip = sc.skip
	for i := range s.shift {
		s.shift[i] = noShift
	}
	return s
}

// markRange marks a range's removed nodes as shaky, and all of them when
// it lists its surviving nodes in a new order (which breaks the target
// order of the sources that reach them).
func (s *csrSplicer) markRange(r NodeRange) {
	last := NoNode
	for o := r.Lo; o < r.Hi; o++ {
		id := s.remap[o]
		if id == NoNode {
			s.shaky[o] = true
			continue
		}
		if last != NoNode && id < last {
			for k := r.Lo; k < r.Hi; k++ {
				s.shaky[k] = true
			}
			return
		}
		last = id
	}
}

func (s *csrSplicer) careAbout(o NodeID) { s.care[o] = max(s.care[o], careEdges) }

// build lays out every source's edges, then writes the forward arrays
// (two goroutines, by array) and the reverse CSR (this one) at once: the
// reverse needs only the layout. It returns the finished CSR.
func (s *csrSplicer) build() csr {
	n := NodeID(len(s.from))
	for ns := NodeID(0); ns < n; {
		o := s.from[ns]
		if o == NoNode || !s.unchanged(ns, o) {
			s.spliceSource(ns)
			ns++
			continue
		}
		end := ns + 1
		for end < n && s.from[end] == o+(end-ns) && s.unchanged(end, s.from[end]) {
			end++
		}
		s.layRun(o, ns, int(end-ns))
		ns = end
	}
	// Kept edges carry no counts or flags with fresh weights or from a
	// base that had none, and added edges never do.
	s.c.allocEdges(s.m, s.fw || s.lp.Strengthen == nil)
	s.countMirrors()
	var wg sync.WaitGroup
	wg.Go(s.writeEnds)
	wg.Go(s.writeAttrs)
	s.reverse()
	wg.Wait()
	return s.c
}

// countMirrors counts the new CSR's mirror entries from g's count: the
// edges of sources copied in bulk keep theirs, the old edges of the other
// sources (written through records, or removed) are taken out and the
// records' mirrors added. It costs a pass over the old sources' marks and
// the changed sources' edges, not over every edge.
func (s *csrSplicer) countMirrors() {
	oc := &s.g.csr
	if !oc.mirrorsKnown {
		return
	}
	n := oc.mirrors
	for o, sh := range s.shift {
		if sh == noShift {
			n -= oc.countMirrors(oc.offsets[o], oc.offsets[o+1])
		}
	}
	for i := range s.recs {
		if s.recs[i].flags&flagMirror != 0 {
			n++
		}
	}
	s.c.mirrors, s.c.mirrorsKnown = n, true
}

// unchanged reports whether new source ns (old source o) keeps exactly o's
// edges in o's order: no added edge, no dropped one, no target removed or
// reordered.
func (s *csrSplicer) unchanged(ns, o NodeID) bool {
	if s.fi < len(s.fresh) && s.fresh[s.fi].src == ns {
		return false
	}
	oc := &s.g.csr
	// Shaky nodes lie in ranges, and a source with an edge into a range
	// is looked at edge by edge.
	switch {
	case s.care[o] == careRecords:
		return false
	case s.care[o] == careEdges:
		for e := oc.offsets[o]; e < oc.offsets[o+1]; e++ {
			if s.shaky[oc.targets[e]] || s.drops(o, e) {
				return false
			}
		}
	case s.askAll:
		// The one call per edge of the graph: kept tight.
		lo, hi := oc.offsets[o], oc.offsets[o+1]
		drop := s.sp.DropEdge
		for i, t := range oc.targets[lo:hi] {
			a := oc.attrs.at(EdgeIdx(lo + uint32(i)))
			ps, pt := o, t
			if a.mirror {
				ps, pt = t, o
			}
			if drop(ps, pt, a.rel) {
				return false
			}
		}
	case s.askRel != nil:
		for e := oc.offsets[o]; e < oc.offsets[o+1]; e++ {
			if rel := oc.attrs.at(EdgeIdx(e)).rel; int(rel) < len(s.askRel) && s.askRel[rel] && s.drops(o, e) {
				return false
			}
		}
	}
	return true
}

// drops reports whether DropEdge, if asked, drops edge e of old source o.
func (s *csrSplicer) drops(o NodeID, e uint32) bool {
	if s.sp.DropEdge == nil {
		return false
	}
	oc := &s.g.csr
	a := oc.attrs.at(EdgeIdx(e))
	ps, pt, rel := o, oc.targets[e], a.rel
	if a.mirror {
		ps, pt = pt, ps
	}
	return s.asks(ps, rel) && s.sp.DropEdge(ps, pt, rel)
}

// asks reports whether DropEdge must be asked about an edge of primary
// source ps and relation rel.
func (s *csrSplicer) asks(ps NodeID, rel Str) bool {
	return s.askAll || (int(ps) < len(s.sp.AskSources) && s.sp.AskSources[ps]) ||
		(int(rel) < len(s.askRel) && s.askRel[rel])
}

// spliceSource writes new source ns's edges through records: its kept
// edges (old source from[ns], if any) merged with its added ones.
func (s *csrSplicer) spliceSource(ns NodeID) {
	oc := &s.g.csr
	seg := s.seg[:0]
	if o := s.from[ns]; o != NoNode {
		for e := oc.offsets[o]; e < oc.offsets[o+1]; e++ {
			nt := s.remap[oc.targets[e]]
			if nt == NoNode {
				continue
			}
			if s.drops(o, e) {
				// A dropped edge may have stood in for the mirror of
				// a bidirectional edge coming back (same triple):
				// the mirror takes its place again.
				a := oc.attrs.at(EdgeIdx(e))
				if m, ok := s.mirrorOf(o, oc.targets[e], a.rel, a.mirror); ok {
					m.src, m.dst = ns, nt
					seg = append(seg, m)
				}
				continue
			}
			for s.fi < len(s.fresh) && s.fresh[s.fi].src == ns && s.fresh[s.fi].dst < nt {
				seg = append(seg, s.fresh[s.fi])
				s.fi++
			}
			r := s.g.keptEdge(e, s.fw, &s.lp)
			r.src, r.dst = ns, nt
			seg = append(seg, r)
		}
	}
	for s.fi < len(s.fresh) && s.fresh[s.fi].src == ns {
		seg = append(seg, s.fresh[s.fi])
		s.fi++
	}
	// A range may list its surviving nodes in a new order, so the
	// targets of one source are not always ascending any more.
	if !slices.IsSortedFunc(seg, byTarget) {
		slices.SortStableFunc(seg, byTarget)
	}
	// Fresh edges interleaved with kept ones may repeat a kept triple.
	seg = dedupeSorted(seg)
	for i := range seg {
		s.slowIn = append(s.slowIn, revEntry{dst: seg[i].dst, src: ns, e: EdgeIdx(s.m + i)})
	}
	if k := len(s.pieces) - 1; k >= 0 && !s.pieces[k].run {
		s.pieces[k].hi += len(seg)
	} else if len(seg) > 0 {
		s.pieces = append(s.pieces, piece{at: s.m, lo: len(s.recs), hi: len(s.recs) + len(seg)})
	}
	s.recs = append(s.recs, seg...)
	s.m += len(seg)
	s.c.offsets[ns+1] = uint32(s.m)
	s.seg = seg
}

// mirrorOf returns the mirror record of the bidirectional edge t → s (rel)
// when that edge is a kept primary and s → t was not itself a mirror.
func (s *csrSplicer) mirrorOf(src, t NodeID, rel Str, isMirror bool) (edgeRecord, bool) {
	if isMirror || src == t {
		return edgeRecord{}, false
	}
	p, ok := s.g.FindEdge(t, src, rel)
	oc := &s.g.csr
	if !ok || oc.attrs.at(p).mirror || oc.attrs.at(p).dir != Bidirectional || (s.asks(t, rel) && s.sp.DropEdge(t, src, rel)) {
		return edgeRecord{}, false
	}
	r := s.g.keptEdge(uint32(p), s.fw, &s.lp)
	r.flags |= flagMirror
	return r, true
}

// layRun lays out the edges of the k consecutive old sources from o on
// as those of the new sources from ns on, unchanged but for their ends.
func (s *csrSplicer) layRun(o, ns NodeID, k int) {
	oc := &s.g.csr
	lo, hi := oc.offsets[o], oc.offsets[int(o)+k]
	base := s.m
	for i := range k {
		s.c.offsets[int(ns)+i+1] = uint32(base) + oc.offsets[int(o)+i+1] - lo
		s.shift[int(o)+i] = int32(base) - int32(lo)
	}
	s.pieces = append(s.pieces, piece{run: true, at: base, lo: int(lo), hi: int(hi)})
	s.m += int(hi - lo)
}

// writeEnds writes the targets and weights of every piece (the sources
// follow from the offsets: edgeSources); with
// fresh weights a copied edge gets its original weight, as keptEdge
// gives it.
func (s *csrSplicer) writeEnds() {
	c, oc := &s.c, &s.g.csr
	for _, p := range s.pieces {
		if !p.run {
			for i, r := range s.recs[p.lo:p.hi] {
				c.targets[p.at+i] = r.dst
				c.weights[p.at+i] = atomicU32(math.Float32bits(r.weight))
			}
			continue
		}
		dst := c.targets[p.at : p.at+p.hi-p.lo]
		for j, t := range oc.targets[p.lo:p.hi] {
			dst[j] = s.remap[t]
		}
		w := c.weights[p.at : p.at+p.hi-p.lo]
		if s.fw {
			for j, v := range oc.plast.Original[p.lo:p.hi] {
				w[j] = atomicU32(math.Float32bits(v))
			}
			continue
		}
		// The base may be learning: its weights only through atomic loads.
		for j := range w {
			w[j] = atomicU32(oc.weights[p.lo+j].Load())
		}
	}
}

// writeAttrs writes the other per-edge arrays of every piece: the
// attributes of copied runs shared with g's (attrBuilder), the learning
// state copied. With fresh weights the learned state stays zero, as the
// arrays were made.
func (s *csrSplicer) writeAttrs() {
	c, oc := &s.c, &s.g.csr
	var ab attrBuilder[edgeAttr]
	own := 0
	for _, p := range s.pieces {
		if p.run {
			own += oc.attrs.copies(uint32(p.lo), uint32(p.hi))
		} else {
			own += p.hi - p.lo
		}
	}
	ab.reserve(own)
	for _, p := range s.pieces {
		if !p.run {
			for i := range s.recs[p.lo:p.hi] {
				c.setPlast(p.at+i, &s.recs[p.lo+i])
				ab.add(attrOf(&s.recs[p.lo+i]))
			}
			continue
		}
		ab.share(&oc.attrs, uint32(p.lo), uint32(p.hi))
		at := p.at
		copy(c.plast.Original[at:], oc.plast.Original[p.lo:p.hi])
		if c.lazy == nil {
			copy(c.plast.Strengthen[at:], s.lp.Strengthen[p.lo:p.hi])
			copy(c.plast.Weaken[at:], s.lp.Weaken[p.lo:p.hi])
			copy(c.plast.LTP[at:], s.lp.LTP[p.lo:p.hi])
			copy(c.plast.LTD[at:], s.lp.LTD[p.lo:p.hi])
		}
	}
	c.attrs = ab.finish()
}

// reverse builds the reverse CSR as finish would (each node's incoming
// edges in forward order), from g's: an incoming edge from a source
// copied in bulk is g's entry with its source and edge index shifted, and
// the entries of edges written through records are merged in by source.
// Copied sources lie outside the ranges, so shifting keeps their order.
//
// A node's count of entries is known without walking them (g's count,
// less the entries of sources not copied in bulk, plus its records'), so
// on a large graph the nodes are filled in chunks on several cores: the
// walk over every incoming edge was most of a splice's CPU.
func (s *csrSplicer) reverse() {
	c := &s.c
	n, m := len(s.from), s.m
	slices.SortFunc(s.slowIn, func(a, b revEntry) int {
		if a.dst != b.dst {
			return cmpU32(uint32(a.dst), uint32(b.dst))
		}
		return cmpU32(uint32(a.e), uint32(b.e)) // by source, then position
	})
	revOff, revSrc, revEdge := make([]uint32, n+1), make([]NodeID, m), make([]EdgeIdx, m)
	chunks := 1
	if m >= reverseSplitEdges {
		chunks = min(runtime.GOMAXPROCS(0), 4)
	}
	if chunks == 1 {
		s.fillReverse(0, NodeID(n), s.slowIn, 0, revOff, revSrc, revEdge)
		c.revOffsets, c.revSources, c.revEdge = revOff, revSrc, revEdge
		return
	}
	s.countReverse(revOff)
	var wg sync.WaitGroup
	for k := range chunks {
		lo, hi := NodeID(n*k/chunks), NodeID(n*(k+1)/chunks)
		i, _ := slices.BinarySearchFunc(s.slowIn, lo, func(r revEntry, lo NodeID) int { return cmpU32(uint32(r.dst), uint32(lo)) })
		at := int(revOff[lo])
		wg.Go(func() { s.fillReverse(lo, hi, s.slowIn[i:], at, nil, revSrc, revEdge) })
	}
	wg.Wait()
	c.revOffsets, c.revSources, c.revEdge = revOff, revSrc, revEdge
}

// reverseSplitEdges is the edge count from which reverse fills its nodes
// in chunks on several cores; a variable only so that a test can split
// small graphs.
var reverseSplitEdges = 1 << 18

// countReverse writes the reverse offsets: per new node, its old node's
// entries less those from sources not copied in bulk, plus the entries of
// its edges written through records (slowIn, sorted by target).
func (s *csrSplicer) countReverse(revOff []uint32) {
	oc := &s.g.csr
	skip := s.skip
	for src, sh := range s.shift {
		if sh == noShift {
			for _, t := range oc.targets[oc.offsets[src]:oc.offsets[src+1]] {
				skip[t]++
			}
		}
	}
	for nt, o := range s.from {
		d := uint32(0)
		if o != NoNode {
			d = oc.revOffsets[o+1] - oc.revOffsets[o] - skip[o]
		}
		revOff[nt+1] = d
	}
	for _, r := range s.slowIn {
		revOff[r.dst+1]++
	}
	for i := 1; i < len(revOff); i++ {
		revOff[i] += revOff[i-1]
	}
}

// fillReverse writes the entries of new nodes [lo, hi) from position at
// on, and their offsets when revOff is not nil (a chunk's are counted
// before); slow starts at the first record entry of lo or after it.
func (s *csrSplicer) fillReverse(lo, hi NodeID, slow []revEntry, at int, revOff []uint32, revSrc []NodeID, revEdge []EdgeIdx) {
	// Written by index into arrays of the exact size, through locals (the
	// loop runs once per edge).
	oc := &s.g.csr
	oOff, oSrc, oEdge := oc.revOffsets, oc.revSources, oc.revEdge
	shift, remap, from := s.shift, s.remap, s.from
	k := at
	for nt := lo; nt < hi; nt++ {
		if o := from[nt]; o != NoNode {
			for p := oOff[o]; p < oOff[o+1]; p++ {
				src := oSrc[p]
				sh := shift[src]
				if sh == noShift {
					continue
				}
				ns := remap[src]
				for len(slow) > 0 && slow[0].dst == nt && slow[0].src < ns {
					revSrc[k], revEdge[k] = slow[0].src, slow[0].e
					slow, k = slow[1:], k+1
				}
				revSrc[k], revEdge[k] = ns, EdgeIdx(int32(oEdge[p])+sh)
				k++
			}
		}
		for len(slow) > 0 && slow[0].dst == nt {
			revSrc[k], revEdge[k] = slow[0].src, slow[0].e
			slow, k = slow[1:], k+1
		}
		if revOff != nil {
			revOff[nt+1] = uint32(k)
		}
	}
}
