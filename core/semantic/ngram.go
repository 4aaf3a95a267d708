package semantic

import (
	"math"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/internal/finite"
)

// TrigramMask keeps the 24 bits of a trigram hash the index uses.
const TrigramMask = 1<<24 - 1

// maxGramRunes bounds how much of a label is cut into trigrams: labels of
// documents or long generated names would otherwise dominate build time
// and memory without adding signal.
const maxGramRunes = 200

// HashTrigram is the 24-bit FNV-1a hash of gram: 32-bit FNV-1a over its
// bytes, xor-folded to 24 bits (the folding FNV's authors recommend for
// widths that are not a power of two, so the high bits are not wasted).
func HashTrigram(gram string) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(gram); i++ {
		h ^= uint32(gram[i])
		h *= 16777619
	}
	return (h >> 24) ^ (h & TrigramMask)
}

// AppendTrigrams appends to dst the hash of every trigram of runes in s
// (with repeats, in order). s should already be lower case. A non-empty s
// shorter than three runes contributes itself as a single gram, so short
// names such as "db" or "io" are still indexable.
func AppendTrigrams(dst []uint32, s string) []uint32 {
	if s == "" {
		return dst
	}
	// Byte offsets of the last three rune starts.
	var o [3]int
	n := 0
	for i := range s {
		if n >= maxGramRunes {
			// Close the last window at this rune boundary.
			if n >= 3 {
				dst = append(dst, HashTrigram(s[o[(n-3)%3]:i]))
			}
			return dst
		}
		if n >= 3 {
			dst = append(dst, HashTrigram(s[o[(n-3)%3]:i]))
		}
		o[n%3] = i
		n++
	}
	if n < 3 {
		return append(dst, HashTrigram(s))
	}
	return append(dst, HashTrigram(s[o[(n-3)%3]:]))
}

// NgramIndex is a TF-IDF index of label trigrams with an inverted index
// from trigram hash to the nodes whose label contains it. Query cost is
// proportional to the postings of the query's trigrams, not to the number
// of nodes. It is immutable after BuildNgramIndex and safe for concurrent
// use.
type NgramIndex struct {
	n      int
	gramID map[uint32]uint32 // hash → dense gram id
	idf    []float32         // per gram id: ln(N/df) + 1
	maxIDF float32           // idf of a gram no label has

	postOff  []uint32 // per gram id, into postNode/postTF
	postNode []graph.NodeID
	postTF   []uint8

	norm     []float32 // per node: L2 norm of its TF-IDF vector
	distinct []uint16  // per node: number of distinct trigrams
	// lower holds every node's lower-case label, node n's at
	// lower[lowerOff[n]:lowerOff[n+1]]: one string, not one a node for
	// every collection to mark.
	lower    string
	lowerOff []uint32
}

// BuildNgramIndex indexes the labels of every node of g.
func BuildNgramIndex(g *graph.Graph) *NgramIndex {
	n := g.NumNodes()
	x := &NgramIndex{
		n:        n,
		gramID:   make(map[uint32]uint32),
		norm:     make([]float32, n),
		distinct: make([]uint16, n),
	}
	x.lower, x.lowerOff = lowerLabels(g)
	// Pass 1: per-node distinct (gram, tf) lists in a flat forward index,
	// document frequencies per gram.
	fwdOff := make([]uint32, n+1)
	var fwdGram []uint32
	var fwdTF []uint8
	var df []uint32
	var buf []uint32
	for i := 0; i < n; i++ {
		buf = AppendTrigrams(buf[:0], x.LowerLabel(graph.NodeID(i)))
		slices.Sort(buf)
		for j := 0; j < len(buf); {
			k := j
			for k < len(buf) && buf[k] == buf[j] {
				k++
			}
			id, ok := x.gramID[buf[j]]
			if !ok {
				id = uint32(len(df))
				x.gramID[buf[j]] = id
				df = append(df, 0)
			}
			df[id]++
			fwdGram = append(fwdGram, id)
			fwdTF = append(fwdTF, uint8(min(k-j, math.MaxUint8)))
			j = k
		}
		x.distinct[i] = uint16(min(int(uint32(len(fwdGram))-fwdOff[i]), math.MaxUint16))
		fwdOff[i+1] = uint32(len(fwdGram))
	}
	nf := float64(max(n, 1))
	x.idf = make([]float32, len(df))
	for id, d := range df {
		x.idf[id] = float32(math.Log(nf/float64(d)) + 1)
	}
	x.maxIDF = float32(math.Log(nf+1) + 1)
	// Pass 2: postings, grouped by gram, in NodeID order within a gram.
	x.postOff = make([]uint32, len(df)+1)
	for id, d := range df {
		x.postOff[id+1] = x.postOff[id] + d
	}
	x.postNode = make([]graph.NodeID, len(fwdGram))
	x.postTF = make([]uint8, len(fwdGram))
	pos := slices.Clone(x.postOff[:len(df)])
	for i := 0; i < n; i++ {
		var ss float64
		for e := fwdOff[i]; e < fwdOff[i+1]; e++ {
			id, tf := fwdGram[e], fwdTF[e]
			x.postNode[pos[id]] = graph.NodeID(i)
			x.postTF[pos[id]] = tf
			pos[id]++
			w := float64(tf) * float64(x.idf[id])
			ss += w * w
		}
		x.norm[i] = float32(math.Sqrt(ss))
	}
	return x
}

// NumNodes is the number of nodes indexed.
func (x *NgramIndex) NumNodes() int { return x.n }

// Postings returns the nodes (ascending, each once) whose lower-case label
// contains the trigram with hash h. Do not modify the result.
func (x *NgramIndex) Postings(h uint32) []graph.NodeID {
	id, ok := x.gramID[h&TrigramMask]
	if !ok {
		return nil
	}
	return x.postNode[x.postOff[id]:x.postOff[id+1]]
}

// DistinctTrigrams is the number of distinct trigrams in node n's label.
func (x *NgramIndex) DistinctTrigrams(n graph.NodeID) int { return int(x.distinct[n]) }

// LowerLabel is node n's label in lower case.
func (x *NgramIndex) LowerLabel(n graph.NodeID) string {
	return x.lower[x.lowerOff[n]:x.lowerOff[n+1]]
}

// lowerLabels is every node's label in lower case (strings.ToLower), in
// one string, and where each starts (n+1 offsets).
func lowerLabels(g *graph.Graph) (string, []uint32) {
	n := g.NumNodes()
	off := make([]uint32, n+1)
	var buf []byte
	for i := 0; i < n; i++ {
		buf = appendLower(buf, g.Label(graph.NodeID(i)))
		off[i+1] = uint32(len(buf))
	}
	return string(buf), off
}

// appendLower appends strings.ToLower(s) to dst, without a string of its
// own when s is ASCII.
func appendLower(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return append(dst, strings.ToLower(s)...)
		}
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		dst = append(dst, c)
	}
	return dst
}

// qgram is one query trigram: the trigram, its dense id (-1 when no label
// has it) and its TF-IDF weight. A query vector is in trigram order.
type qgram struct {
	h  uint32
	id int32
	w  float32
}

// queryVector builds the TF-IDF vector of the trigrams of words into dst
// and returns it with its L2 norm. A gram no label has gets the largest
// IDF: it is as rare as a gram can be, and counting it keeps a typo'd or
// foreign query from looking like a perfect match.
func (x *NgramIndex) queryVector(dst []qgram, words []string) ([]qgram, float32) {
	var hs []uint32
	for _, w := range words {
		hs = AppendTrigrams(hs, w)
	}
	slices.Sort(hs)
	dst = dst[:0]
	var ss float64
	for j := 0; j < len(hs); {
		k := j
		for k < len(hs) && hs[k] == hs[j] {
			k++
		}
		q := qgram{h: hs[j], id: -1, w: float32(k-j) * x.maxIDF}
		if id, ok := x.gramID[hs[j]]; ok {
			q = qgram{h: hs[j], id: int32(id), w: float32(k-j) * x.idf[id]}
		}
		dst = append(dst, q)
		ss += float64(q.w) * float64(q.w)
		j = k
	}
	return dst, float32(math.Sqrt(ss))
}

// accumulate adds the dot product of q with every node's TF-IDF vector
// into acc, recording first touches in touched, then turns the sums into
// cosines in [0, 1].
func (x *NgramIndex) accumulate(q []qgram, qnorm float32, acc []float32, touched []graph.NodeID) []graph.NodeID {
	if qnorm <= 0 {
		return touched
	}
	start := len(touched)
	for _, g := range q {
		if g.id < 0 {
			continue
		}
		gw := g.w * x.idf[g.id]
		lo, hi := x.postOff[g.id], x.postOff[g.id+1]
		for p := lo; p < hi; p++ {
			nd := x.postNode[p]
			if acc[nd] == 0 {
				touched = append(touched, nd)
			}
			acc[nd] += gw * float32(x.postTF[p])
		}
	}
	for _, nd := range touched[start:] {
		d := qnorm * x.norm[nd]
		if d > 0 {
			acc[nd] = finite.Clamp(acc[nd]/d, 0, 1)
		} else {
			acc[nd] = 0
		}
	}
	return touched
}

// Cosine is the TF-IDF cosine similarity between the trigrams of text
// (lower-cased) and node n's label, in [0, 1].
func (x *NgramIndex) Cosine(text string, n graph.NodeID) float32 {
	q, qn := x.queryVector(nil, []string{strings.ToLower(text)})
	var buf []uint32
	return x.cosineVec(q, qn, n, &buf)
}

// cosineVec computes the cosine of a prepared query vector with one node
// by re-deriving the node's trigrams from its label; buf is reused scratch.
func (x *NgramIndex) cosineVec(q []qgram, qnorm float32, n graph.NodeID, bufp *[]uint32) float32 {
	if qnorm <= 0 || x.norm[n] <= 0 {
		return 0
	}
	buf := AppendTrigrams((*bufp)[:0], x.LowerLabel(n))
	*bufp = buf
	slices.Sort(buf)
	// Both in trigram order: walked side by side, no trigram of the label
	// is looked up (the map lookup of each was most of seed finding's
	// semantic re-rank). A query gram no label has (id −1) matches none.
	var dot float32
	qi := 0
	for j := 0; j < len(buf) && qi < len(q); {
		k := j
		for k < len(buf) && buf[k] == buf[j] {
			k++
		}
		for qi < len(q) && q[qi].h < buf[j] {
			qi++
		}
		if qi < len(q) && q[qi].h == buf[j] && q[qi].id >= 0 {
			dot += q[qi].w * x.idf[q[qi].id] * float32(k-j)
		}
		j = k
	}
	return finite.Clamp(dot/(qnorm*x.norm[n]), 0, 1)
}

// TokenIndex maps each identifier part of a label (SplitIdentifier, purely
// numeric parts left out) to the nodes whose label has it. It answers
// "which labels contain the word login" without touching the trigram
// postings, which is what synonym expansion needs: a synonym either is one
// of a name's words or it is not, and a query can expand into a dozen of
// them.
type TokenIndex struct {
	post   map[string][]graph.NodeID
	nparts []uint8
}

// BuildTokenIndex indexes the identifier parts of every label of g.
func BuildTokenIndex(g *graph.Graph) *TokenIndex {
	n := g.NumNodes()
	t := &TokenIndex{post: map[string][]graph.NodeID{}, nparts: make([]uint8, n)}
	for i := 0; i < n; i++ {
		parts := SplitIdentifier(g.Label(graph.NodeID(i)))
		k := 0
		for _, p := range parts {
			if isNumeric(p) {
				continue
			}
			k++
			t.post[p] = append(t.post[p], graph.NodeID(i))
		}
		t.nparts[i] = uint8(min(k, math.MaxUint8))
	}
	return t
}

func isNumeric(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// Nodes returns the nodes (ascending) whose label has the lower-case word
// w as an identifier part. Do not modify the result.
func (t *TokenIndex) Nodes(w string) []graph.NodeID { return t.post[w] }

// Has reports whether node n's label has the word w as a part.
func (t *TokenIndex) Has(n graph.NodeID, w string) bool {
	_, ok := slices.BinarySearch(t.post[w], n)
	return ok
}

// NumParts is the number of (non-numeric) identifier parts of n's label.
func (t *TokenIndex) NumParts(n graph.NodeID) int { return int(t.nparts[n]) }
