package graph

import (
	"math"
	"slices"
)

// csrSplicer writes the CSR of a spliced graph. Node IDs move by a
// constant between the replaced ranges, so most sources keep exactly the
// edges they had, with their targets shifted: runs of such sources are
// copied array by array. The others (new or touched sources, sources with
// a dropped edge, an edge to a removed or reordered node, or an added
// edge) go through edge records one source at a time.
type csrSplicer struct {
	g            *Graph
	sp           *Splice
	remap, from  []NodeID
	fresh        []edgeRecord // added edges, sorted by (source, target, relation)
	fi           int          // next fresh edge
	shaky        []bool       // old nodes a copied edge may not target
	askRel       []bool       // by relation handle: DropEdge is asked
	askAll       bool         // DropEdge is asked about every edge
	b            *csrBuilder
	seg          []edgeRecord
	freshWeights bool
}

func newCSRSplicer(g *Graph, sp *Splice, remap, from []NodeID, fresh []edgeRecord) *csrSplicer {
	s := &csrSplicer{g: g, sp: sp, remap: remap, from: from, fresh: fresh, freshWeights: sp.FreshWeights,
		b: newCSRBuilder(len(from), len(g.csr.targets)+len(fresh))}
	s.shaky = make([]bool, len(remap))
	for o, id := range remap {
		s.shaky[o] = id == NoNode
	}
	// A range that lists its surviving nodes in a new order breaks the
	// target order of the sources that reach them.
	for _, r := range sp.Ranges {
		last := NoNode
		for o := r.Lo; o < r.Hi; o++ {
			if id := remap[o]; id != NoNode {
				if last != NoNode && id < last {
					for k := r.Lo; k < r.Hi; k++ {
						s.shaky[k] = true
					}
					break
				}
				last = id
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
	}
	return s
}

// build writes every source's edges and returns the finished CSR.
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
		s.b.appendRun(&s.g.csr, o, ns, int(end-ns), s.remap, s.freshWeights)
		ns = end
	}
	return s.b.finish()
}

// unchanged reports whether new source ns (old source o) keeps exactly o's
// edges in o's order: no added edge, no dropped one, no target removed or
// reordered.
func (s *csrSplicer) unchanged(ns, o NodeID) bool {
	if s.fi < len(s.fresh) && s.fresh[s.fi].src == ns {
		return false
	}
	oc := &s.g.csr
	for e := oc.offsets[o]; e < oc.offsets[o+1]; e++ {
		t := oc.targets[e]
		if s.shaky[t] {
			return false
		}
		if s.sp.DropEdge == nil {
			continue
		}
		ps, pt := o, t
		if oc.mirror[e] {
			ps, pt = pt, ps
		}
		if s.asks(ps, oc.relations[e]) && s.sp.DropEdge(ps, pt, oc.relations[e]) {
			return false
		}
	}
	return true
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
	g, sp, oc := s.g, s.sp, &s.g.csr
	seg := s.seg[:0]
	if o := s.from[ns]; o != NoNode {
		for e := oc.offsets[o]; e < oc.offsets[o+1]; e++ {
			nt := s.remap[oc.targets[e]]
			if nt == NoNode {
				continue
			}
			rel := oc.relations[e]
			if sp.DropEdge != nil {
				ps, pt := o, oc.targets[e]
				if oc.mirror[e] {
					ps, pt = pt, ps
				}
				if s.asks(ps, rel) && sp.DropEdge(ps, pt, rel) {
					// A dropped edge may have stood in for the mirror of
					// a bidirectional edge coming back (same triple):
					// the mirror takes its place again.
					if m, ok := s.mirrorOf(o, oc.targets[e], rel, oc.mirror[e]); ok {
						m.src, m.dst = ns, nt
						seg = append(seg, m)
					}
					continue
				}
			}
			for s.fi < len(s.fresh) && s.fresh[s.fi].src == ns && s.fresh[s.fi].dst < nt {
				seg = append(seg, s.fresh[s.fi])
				s.fi++
			}
			r := g.keptEdge(e, s.freshWeights)
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
		s.b.add(&seg[i])
	}
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
	if !ok || oc.mirror[p] || oc.directions[p] != Bidirectional || (s.asks(t, rel) && s.sp.DropEdge(t, src, rel)) {
		return edgeRecord{}, false
	}
	r := s.g.keptEdge(uint32(p), s.freshWeights)
	r.flags |= flagMirror
	return r, true
}

// appendRun appends the edges of the k consecutive sources of oc starting
// at o as the sources starting at ns, unchanged but for their targets
// (through remap); fresh gives them their original weights and no learned
// state, as keptEdge does.
func (b *csrBuilder) appendRun(oc *csr, o, ns NodeID, k int, remap []NodeID, fresh bool) {
	c := &b.c
	lo, hi := oc.offsets[o], oc.offsets[int(o)+k]
	base, m := len(c.targets), int(hi-lo)
	for i := range k {
		c.offsets[int(ns)+i+1] = oc.offsets[int(o)+i+1] - oc.offsets[int(o)+i]
	}
	c.sources = c.sources[:base+m]
	for i := range k {
		srcs := c.sources[base+int(oc.offsets[int(o)+i]-lo) : base+int(oc.offsets[int(o)+i+1]-lo)]
		for j := range srcs {
			srcs[j] = ns + NodeID(i)
		}
	}
	c.targets = c.targets[:base+m]
	for j, t := range oc.targets[lo:hi] {
		c.targets[base+j] = remap[t]
	}
	c.inhibitory = append(c.inhibitory, oc.inhibitory[lo:hi]...)
	c.relations = append(c.relations, oc.relations[lo:hi]...)
	c.directions = append(c.directions, oc.directions[lo:hi]...)
	c.causal = append(c.causal, oc.causal[lo:hi]...)
	c.mirror = append(c.mirror, oc.mirror[lo:hi]...)
	c.plast.Original = append(c.plast.Original, oc.plast.Original[lo:hi]...)
	c.weights = c.weights[:base+m]
	w := c.weights[base:]
	p := &c.plast
	if fresh {
		for j, v := range oc.plast.Original[lo:hi] {
			w[j] = atomicU32(math.Float32bits(v))
		}
		p.Strengthen = appendZeros(p.Strengthen, m)
		p.Weaken = appendZeros(p.Weaken, m)
		p.LTP = appendZeros(p.LTP, m)
		p.LTD = appendZeros(p.LTD, m)
		return
	}
	// The base may be learning: weights only through atomic loads.
	for j := range w {
		w[j] = atomicU32(oc.weights[int(lo)+j].Load())
	}
	p.Strengthen = append(p.Strengthen, oc.plast.Strengthen[lo:hi]...)
	p.Weaken = append(p.Weaken, oc.plast.Weaken[lo:hi]...)
	p.LTP = append(p.LTP, oc.plast.LTP[lo:hi]...)
	p.LTD = append(p.LTD, oc.plast.LTD[lo:hi]...)
}

// appendZeros extends s by m zero values.
func appendZeros[T any](s []T, m int) []T {
	s = slices.Grow(s, m)[:len(s)+m]
	clear(s[len(s)-m:])
	return s
}
