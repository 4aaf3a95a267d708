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
	a.mergeVocab()
	a.indexDocs()
	nterms := len(x.vocab)

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
	x.invert(parts, nterms)
}

// mergeVocab gives every shard term a global ID, in shard order so IDs
// are reproducible.
func (a *assembler) mergeVocab() {
	x := a.x
	x.vocab = map[string]uint32{}
	a.remap = make([][]uint32, len(a.shards))
	for si, s := range a.shards {
		r := make([]uint32, len(s.vocab))
		for li, t := range s.vocab {
			id, ok := x.vocab[t]
			if !ok {
				id = uint32(len(x.vocab))
				x.vocab[t] = id
			}
			r[li] = id
		}
		a.remap[si] = r
		s.vocab = nil
	}
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
		total += s.docOff[r.doc+1] - s.docOff[r.doc]
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
			for k := s.docOff[r.doc]; k < s.docOff[r.doc+1]; k++ {
				t := rm[s.terms[k]]
				if seen[t] != mark {
					seen[t], acc[t] = mark, 0
					touched = append(touched, t)
				}
				acc[t] += w * float32(s.tfs[k])
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

// invert turns the forward parts into postings (a counting sort keeps
// NodeID order per term; a node's own term order does not matter).
func (x *Index) invert(parts []*forward, nterms int) {
	x.off = make([]uint32, nterms+1)
	for _, p := range parts {
		for _, t := range p.terms {
			x.off[t+1]++
		}
	}
	for t := 1; t <= nterms; t++ {
		x.off[t] += x.off[t-1]
	}
	total := x.off[nterms]
	x.pnode = make([]graph.NodeID, total)
	x.psat = make([]uint16, total)
	next := slices.Clone(x.off[:nterms])
	for _, p := range parts {
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
}
