package seek

import (
	"math"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/m1nd-go/m1nd/core/graph"
)

// docRef locates one document in the shards.
type docRef struct {
	shard uint32
	doc   uint32
}

// assembler holds what assemble's workers share: the shards, their terms
// in the global vocabulary, and each node's documents.
type assembler struct {
	x      *Index
	shards []*shard
	remap  [][]uint32 // per shard: local term ID → global
	// The documents of node i are refs[docStart[i]:docStart[i+1]], in shard
	// order: metadata (label, path, doc) before body, so a node's fields
	// come in Field order.
	refs     []docRef
	docStart []uint32
	avg      [NumFields]float32
}

// forward is the BM25F saturations of the nodes [lo, lo+len(off)-1).
type forward struct {
	lo    int
	off   []uint32 // per node in range, +1
	terms []uint32
	sats  []uint16
}

// assemble merges the shards' vocabularies, combines each node's fields
// into BM25F saturations, and inverts them into postings.
func (x *Index) assemble(shards []*shard, workers int) {
	a := &assembler{x: x, shards: shards}
	order := a.mergeVocab()
	nterms := len(order)
	// The query's term map is only read once the index is built: hashing
	// its strings overlaps the rest of the assembly.
	vocabDone := make(chan struct{})
	go func() {
		defer close(vocabDone)
		x.vocab = vocabTab(x.terms.view(), order)
	}()
	defer func() { <-vocabDone }()
	a.indexDocs()

	// Forward index per node range, in parallel; each worker sums a
	// node's fields in dense per-term scratch of its own.
	n := x.n
	chunk := max(4096, (n+workers*4-1)/max(1, workers*4))
	var parts []*forward
	for lo := 0; lo < n; lo += chunk {
		parts = append(parts, &forward{lo: lo})
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < min(workers, len(parts)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			acc := make([]float32, nterms)
			seen := make([]uint32, nterms)
			for {
				k := int(next.Add(1) - 1)
				if k >= len(parts) {
					return
				}
				p := parts[k]
				a.forward(p, min(p.lo+chunk, n), acc, seen)
			}
		}()
	}
	wg.Wait()
	for _, s := range shards {
		*s = shard{}
	}
	x.invert(parts, nterms, workers)
}

// mergeVocab gives every shard term a global ID, in shard order so IDs
// are reproducible, and returns the terms (termIndex IDs) by global ID.
// Shards name their terms by the build's termIndex IDs, so this is array
// indexing, not a string hash per shard and term (1.2 M on go-std).
func (a *assembler) mergeVocab() []uint32 {
	gid := make([]uint32, a.x.terms.size()) // termIndex ID → global ID+1
	var order []uint32
	a.remap = make([][]uint32, len(a.shards))
	for si, s := range a.shards {
		r := make([]uint32, len(s.ids))
		for li, t := range s.ids {
			if gid[t] == 0 {
				order = append(order, t)
				gid[t] = uint32(len(order))
			}
			r[li] = gid[t] - 1
		}
		a.remap[si] = r
		s.ids = nil
	}
	return order
}

// vocabTab numbers each term (terms, by termIndex ID) by its global ID,
// in a table of its own: the index keeps it, not the termIndex.
func vocabTab(terms strtab, order []uint32) strtab {
	n := 0
	for _, t := range order {
		n += len(terms.at(t))
	}
	v := newStrtab(len(order))
	v.bytes = make([]byte, 0, n)
	for _, t := range order {
		v.addNew(terms.at(t))
	}
	return *v
}

// indexDocs sorts the documents by node (counting sort) and averages the
// field lengths.
func (a *assembler) indexDocs() {
	n := a.x.n
	a.docStart = make([]uint32, n+1)
	var lenSum [NumFields]float64
	var lenCnt [NumFields]int
	for _, s := range a.shards {
		for d, node := range s.docNode {
			a.docStart[node+1]++
			f := s.docField[d]
			lenSum[f] += float64(s.docLen[d])
			lenCnt[f]++
		}
	}
	for i := 1; i <= n; i++ {
		a.docStart[i] += a.docStart[i-1]
	}
	a.refs = make([]docRef, a.docStart[n])
	pos := slices.Clone(a.docStart[:n])
	for si, s := range a.shards {
		for d, node := range s.docNode {
			a.refs[pos[node]] = docRef{uint32(si), uint32(d)}
			pos[node]++
		}
	}
	for f := range a.avg {
		a.avg[f] = 1
		if lenCnt[f] > 0 && lenSum[f] > 0 {
			a.avg[f] = float32(lenSum[f] / float64(lenCnt[f]))
		}
	}
}

// forward fills p with the saturations of the nodes [p.lo, hi). acc and
// seen are scratch of one entry per global term: seen[t] is the node+1
// whose sum acc[t] holds. A node's term sums its fields in Field order,
// as the documents come, so the float result is the same whatever the
// order its terms are met in.
func (a *assembler) forward(p *forward, hi int, acc []float32, seen []uint32) {
	var total uint32
	for _, r := range a.refs[a.docStart[p.lo]:a.docStart[hi]] {
		s := a.shards[r.shard]
		lo, hi := s.doc(r.doc)
		total += hi - lo
	}
	p.off = make([]uint32, 1, hi-p.lo+1)
	p.terms = make([]uint32, 0, total)
	p.sats = make([]uint16, 0, total)
	k1 := a.x.opts.K1
	var touched []uint32
	for i := p.lo; i < hi; i++ {
		refs := a.refs[a.docStart[i]:a.docStart[i+1]]
		norm := a.norms(graph.NodeID(i), refs)
		touched = touched[:0]
		mark := uint32(i) + 1
		for _, r := range refs {
			s := a.shards[r.shard]
			w, rm := norm[s.docField[r.doc]], a.remap[r.shard]
			lo, hi := s.doc(r.doc)
			if s.t16 != nil {
				touched = accumulate(s.t16[lo:hi], s.tfs[lo:hi], rm, w, acc, seen, mark, touched)
			} else {
				touched = accumulate(s.terms[lo:hi], s.tfs[lo:hi], rm, w, acc, seen, mark, touched)
			}
		}
		for _, t := range touched {
			tf := acc[t]
			if !(tf > 0) || !graph.IsFinite(tf) {
				continue
			}
			sat := tf / (k1 + tf)
			q := uint16(min(float32(math.MaxUint16), sat*math.MaxUint16+0.5))
			p.terms = append(p.terms, t)
			p.sats = append(p.sats, max(q, 1))
		}
		p.off = append(p.off, uint32(len(p.terms)))
	}
}

// accumulate adds one document's weighted term frequencies (local terms
// ts, global by rm) to acc, marking the terms first met for this node.
func accumulate[T uint16 | uint32](ts []T, tfs []uint16, rm []uint32, w float32, acc []float32, seen []uint32, mark uint32, touched []uint32) []uint32 {
	for k, lt := range ts {
		t := rm[lt]
		if seen[t] != mark {
			seen[t], acc[t] = mark, 0
			touched = append(touched, t)
		}
		acc[t] += w * float32(tfs[k])
	}
	return touched
}

// norms are the BM25F weights of a node's fields over their lengths.
func (a *assembler) norms(id graph.NodeID, refs []docRef) [NumFields]float32 {
	var flen [NumFields]uint32
	for _, r := range refs {
		s := a.shards[r.shard]
		flen[s.docField[r.doc]] += s.docLen[r.doc]
	}
	var norm [NumFields]float32
	for f := range norm {
		fp := a.x.opts.Fields[f]
		wgt := fp.Weight
		if Field(f) == Path {
			if t := a.x.g.Type(id); t != graph.File && t != graph.Directory {
				wgt *= a.x.opts.EntityPathWeight
			}
		}
		norm[f] = wgt / (1 - fp.B + fp.B*float32(flen[f])/a.avg[f])
	}
	return norm
}

// invert turns the forward parts into postings: a counting sort keeps
// NodeID order per term (a node's own term order does not matter). The
// parts are split into one contiguous group per worker; each group
// counts its terms, then writes its postings from its own cursor per
// term (the groups before it counted where it starts), in parallel.
func (x *Index) invert(parts []*forward, nterms, workers int) {
	groups := splitParts(parts, workers)
	counts := make([][]uint32, len(groups))
	parallel(len(groups), func(gi int) {
		c := make([]uint32, nterms)
		for _, p := range groups[gi] {
			for _, t := range p.terms {
				c[t]++
			}
		}
		counts[gi] = c
	})
	x.off = make([]uint32, nterms+1)
	for t := 0; t < nterms; t++ {
		sum := x.off[t]
		for _, c := range counts {
			// counts become each group's first slot for the term
			c[t], sum = sum, sum+c[t]
		}
		x.off[t+1] = sum
	}
	total := x.off[nterms]
	x.pnode = make([]graph.NodeID, total)
	x.psat = make([]uint16, total)
	parallel(len(groups), func(gi int) {
		next := counts[gi]
		for _, p := range groups[gi] {
			for i := 0; i+1 < len(p.off); i++ {
				node := graph.NodeID(p.lo + i)
				for k := p.off[i]; k < p.off[i+1]; k++ {
					t := p.terms[k]
					x.pnode[next[t]] = node
					x.psat[next[t]] = p.sats[k]
					next[t]++
				}
			}
		}
	})
}

// splitParts cuts parts (in node order) into at most n contiguous
// groups of about equal postings.
func splitParts(parts []*forward, n int) [][]*forward {
	total := 0
	for _, p := range parts {
		total += len(p.terms)
	}
	n = max(1, min(n, len(parts)))
	var groups [][]*forward
	start, acc := 0, 0
	for i, p := range parts {
		acc += len(p.terms)
		if len(groups) < n-1 && acc*n >= total*(len(groups)+1) {
			groups = append(groups, parts[start:i+1])
			start = i + 1
		}
	}
	return append(groups, parts[start:])
}

// parallel runs f(0..n-1), each on its own goroutine, and waits.
func parallel(n int, f func(i int)) {
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f(i)
		}()
	}
	wg.Wait()
}
