// Package semantic is the D2 (semantic) dimension: how a query's words
// relate to node names. Three parts, all built once per graph generation:
//
//   - NgramIndex: TF-IDF over label trigrams (24-bit FNV-1a hashes) with an
//     inverted index, so a query touches only nodes sharing a trigram;
//   - CoOccurrence: PPMI vectors from short random walks, so nodes that sit
//     in the same neighbourhood look alike even with unrelated names
//     (disabled above 50K nodes);
//   - SynonymExpander: groups of interchangeable code-vocabulary terms.
//
// Index.Query runs the two-phase pipeline: trigram (and synonym)
// candidates, 3×top_k of them, re-ranked by co-occurrence with the best
// few.
package semantic

import (
	"fmt"
	"math"
	"slices"
	"sync"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/internal/finite"
	"github.com/m1nd-go/m1nd/core/internal/freelist"
)

// Options are the semantic dimension's parameters. The zero value is not
// valid; start from DefaultOptions.
type Options struct {
	// WalksPerNode, WalkLength and Window shape the co-occurrence walks
	// (defaults 20, 10, 4).
	WalksPerNode int
	WalkLength   int
	Window       int
	// CoOccurrenceMaxNodes disables co-occurrence above this many nodes
	// (default 50,000).
	CoOccurrenceMaxNodes int
	// CoOccurrenceTopK keeps each node's strongest PPMI entries only
	// (default 8; 0 keeps all). The tail of a vector holds pairs seen once
	// or twice on the walks: it barely moves a cosine but held most of the
	// index's memory.
	CoOccurrenceTopK int
	// WalkSeed seeds the walk RNG; the same seed gives the same index.
	WalkSeed uint64

	// NgramWeight and CoOccurrenceWeight blend the two phases of Query
	// (normalised to sum to 1; defaults 0.6 / 0.4).
	NgramWeight        float32
	CoOccurrenceWeight float32
	// SynonymWeight scales a match reached through a synonym relative to a
	// direct match of the query's own words (default 0.5).
	SynonymWeight float32
	// CandidateFactor: phase 1 keeps CandidateFactor×topK candidates
	// (default 3).
	CandidateFactor int
	// Anchors is how many of the best phase-1 candidates the co-occurrence
	// re-rank compares against (default 3).
	Anchors int
	// MinScore drops results scoring below it (default 0.01).
	MinScore float32
	// MaxExpansions bounds the synonym terms one query may add (default 24).
	MaxExpansions int
	// Synonyms are the synonym groups; nil means DefaultSynonymGroups().
	Synonyms [][]string
}

// DefaultOptions returns the defaults of docs/design.md#d2-semantic.
func DefaultOptions() Options {
	return Options{
		WalksPerNode:         20,
		WalkLength:           10,
		Window:               4,
		CoOccurrenceMaxNodes: 50_000,
		CoOccurrenceTopK:     8,
		WalkSeed:             42,
		NgramWeight:          0.6,
		CoOccurrenceWeight:   0.4,
		SynonymWeight:        0.5,
		CandidateFactor:      3,
		Anchors:              3,
		MinScore:             0.01,
		MaxExpansions:        24,
	}
}

// Validate reports the first invalid parameter.
func (o Options) Validate() error {
	switch {
	case o.WalksPerNode < 0:
		return fmt.Errorf("semantic: WalksPerNode must be >= 0, got %d", o.WalksPerNode)
	case o.WalkLength < 2:
		return fmt.Errorf("semantic: WalkLength must be >= 2, got %d", o.WalkLength)
	case o.Window < 1:
		return fmt.Errorf("semantic: Window must be >= 1, got %d", o.Window)
	case o.CoOccurrenceMaxNodes < 0:
		return fmt.Errorf("semantic: CoOccurrenceMaxNodes must be >= 0, got %d", o.CoOccurrenceMaxNodes)
	case o.CoOccurrenceTopK < 0:
		return fmt.Errorf("semantic: CoOccurrenceTopK must be >= 0, got %d", o.CoOccurrenceTopK)
	case o.CandidateFactor < 1:
		return fmt.Errorf("semantic: CandidateFactor must be >= 1, got %d", o.CandidateFactor)
	case o.Anchors < 1:
		return fmt.Errorf("semantic: Anchors must be >= 1, got %d", o.Anchors)
	case o.MaxExpansions < 0:
		return fmt.Errorf("semantic: MaxExpansions must be >= 0, got %d", o.MaxExpansions)
	}
	if _, err := finite.UnitInterval("semantic: NgramWeight", o.NgramWeight); err != nil {
		return err
	}
	if !graph.IsFinite(o.CoOccurrenceWeight) || o.CoOccurrenceWeight < 0 || o.CoOccurrenceWeight > 1 {
		return fmt.Errorf("semantic: CoOccurrenceWeight must be in [0, 1], got %v", o.CoOccurrenceWeight)
	}
	if !graph.IsFinite(o.SynonymWeight) || o.SynonymWeight < 0 || o.SynonymWeight > 1 {
		return fmt.Errorf("semantic: SynonymWeight must be in [0, 1], got %v", o.SynonymWeight)
	}
	if !graph.IsFinite(o.MinScore) || o.MinScore < 0 || o.MinScore >= 1 {
		return fmt.Errorf("semantic: MinScore must be in [0, 1), got %v", o.MinScore)
	}
	return nil
}

// Index is the semantic dimension of one graph generation. Safe for
// concurrent queries; per-query scratch comes from a pool.
type Index struct {
	Ngram    *NgramIndex
	Tokens   *TokenIndex
	Cooc     *CoOccurrence
	Synonyms *SynonymExpander

	opts Options
	gen  graph.Generation
	// pool keeps per-query scratch (≈ 9 bytes a node) across collections
	// (a sync.Pool's was dropped every few activate calls on a large
	// graph, issue 29); n sizes a new one.
	pool freelist.List[*scratch]
	n    int
}

type scratch struct {
	acc      []float32
	vec      []float32 // co-occurrence: summed anchor vectors
	syn      []uint8
	touched  []graph.NodeID
	synTouch []graph.NodeID
	q        []qgram
	cand     []graph.Scored
	buf      []uint32
	// Query's lists, kept with the scratch (issue 29: a new set per
	// activate): the scored candidates, the anchors, one anchor's row,
	// the co-occurrence vector's touched entries.
	out     []graph.Scored
	anchors []graph.Scored
	nb      []graph.Scored
	vt      []graph.NodeID
}

// New builds the index for a finalized graph.
func New(g *graph.Graph, o Options) (*Index, error) {
	if err := o.Validate(); err != nil {
		return nil, err
	}
	if !g.Finalized() {
		return nil, graph.ErrNotFinalized
	}
	groups := o.Synonyms
	if groups == nil {
		groups = DefaultSynonymGroups()
	}
	syn, err := NewSynonymExpander(groups)
	if err != nil {
		return nil, err
	}
	// The two text indexes read the graph only: built on two cores, an
	// engine's build (a restart's first activate waits for it) takes
	// the longer of them rather than their sum.
	var tokens *TokenIndex
	var wg sync.WaitGroup
	wg.Go(func() { tokens = BuildTokenIndex(g) })
	ix := &Index{
		Ngram:    BuildNgramIndex(g),
		Synonyms: syn,
		opts:     o,
		gen:      g.Generation(),
	}
	wg.Wait()
	ix.Tokens = tokens
	ix.Cooc = BuildCoOccurrence(g, o)
	ix.n = g.NumNodes()
	return ix, nil
}

// Generation is the graph generation the index was built for.
func (ix *Index) Generation() graph.Generation { return ix.gen }

// Options returns the parameters the index was built with.
func (ix *Index) Options() Options { return ix.opts }

// expansions returns the synonym terms for words (and their identifier
// parts) that the query does not already contain.
func (ix *Index) expansions(words []string) []string {
	var out []string
	have := func(t string) bool { return slices.Contains(words, t) || slices.Contains(out, t) }
	try := func(t string) {
		for _, e := range ix.Synonyms.Expand(t) {
			if len(out) >= ix.opts.MaxExpansions {
				return
			}
			if !have(e) {
				out = append(out, e)
			}
		}
	}
	for _, w := range words {
		try(w)
		if parts := SplitIdentifier(w); len(parts) > 1 {
			for _, p := range parts {
				try(p)
			}
		}
	}
	return out
}

// synonymScore is the score of a node whose label has matched of the
// query's synonym expansions among its nparts words: SynonymWeight × the
// cosine between the set of matched words and the label's word set.
func (ix *Index) synonymScore(matched, nparts int) float32 {
	if matched == 0 || nparts == 0 {
		return 0
	}
	return ix.opts.SynonymWeight * finite.Clamp(float32(float64(matched)/math.Sqrt(float64(nparts))), 0, 1)
}

// lexical fills sc.acc with each touched node's lexical score — the
// trigram TF-IDF cosine with the query, or its synonym score, whichever is
// larger — and returns the touched nodes.
func (ix *Index) lexical(sc *scratch, words []string) []graph.NodeID {
	var qn float32
	sc.q, qn = ix.Ngram.queryVector(sc.q, words)
	sc.touched = ix.Ngram.accumulate(sc.q, qn, sc.acc, sc.touched[:0])
	if ix.opts.SynonymWeight <= 0 {
		return sc.touched
	}
	for _, e := range ix.expansions(words) {
		for _, nd := range ix.Tokens.Nodes(e) {
			if sc.syn[nd] == 0 {
				sc.synTouch = append(sc.synTouch, nd)
			}
			if sc.syn[nd] < math.MaxUint8 {
				sc.syn[nd]++
			}
		}
	}
	for _, nd := range sc.synTouch {
		v := ix.synonymScore(int(sc.syn[nd]), ix.Tokens.NumParts(nd))
		sc.syn[nd] = 0
		if v <= 0 {
			continue
		}
		if sc.acc[nd] == 0 {
			sc.touched = append(sc.touched, nd)
			sc.acc[nd] = v
		} else if v > sc.acc[nd] {
			sc.acc[nd] = v
		}
	}
	sc.synTouch = sc.synTouch[:0]
	return sc.touched
}

// scratch returns a kept scratch or a new one.
func (ix *Index) scratch() *scratch {
	if sc, ok := ix.pool.Get(); ok {
		return sc
	}
	return &scratch{acc: make([]float32, ix.n), syn: make([]uint8, ix.n), vec: make([]float32, ix.n)}
}

func (ix *Index) release(sc *scratch) {
	for _, nd := range sc.touched {
		sc.acc[nd] = 0
	}
	sc.touched = sc.touched[:0]
	sc.synTouch = sc.synTouch[:0]
	sc.cand = sc.cand[:0]
	ix.pool.Put(sc)
}

// Query scores nodes against text for the semantic dimension and returns
// at most topK of them, best first (ties by NodeID), each in [0, 1].
//
// Phase 1 takes CandidateFactor×topK nodes by lexical score (trigram
// TF-IDF cosine, or a down-weighted synonym match). Phase 2 compares every
// candidate's co-occurrence vector with those of the Anchors best
// candidates and blends the two signals; the anchors' strongest
// co-occurrence neighbours join the candidates, which is how a node whose
// name shares nothing with the query can still surface next to the nodes
// that match it.
func (ix *Index) Query(text string, topK int) []graph.Scored {
	words := QueryWords(text)
	if len(words) == 0 || topK <= 0 {
		return nil
	}
	sc := ix.scratch()
	defer ix.release(sc)
	touched := ix.lexical(sc, words)
	if len(touched) == 0 {
		return nil
	}
	cand := sc.cand[:0]
	for _, nd := range touched {
		cand = append(cand, graph.Scored{Node: nd, Score: sc.acc[nd]})
	}
	cand = graph.SelectTop(cand, ix.opts.CandidateFactor*topK)
	out := sc.out[:0]
	if !ix.Cooc.Enabled() || ix.opts.CoOccurrenceWeight <= 0 {
		for _, c := range cand {
			if c.Score >= ix.opts.MinScore {
				out = append(out, c)
			}
		}
		sc.cand, sc.out = cand, out
		return slices.Clone(graph.SelectTop(out, topK))
	}
	anchors := append(sc.anchors[:0], cand[:min(ix.opts.Anchors, len(cand))]...)
	sc.anchors = anchors
	// Anchors' strongest co-occurrence neighbours become candidates too.
	for _, a := range anchors {
		cols, vals := ix.Cooc.Row(a.Node)
		nb := slices.Grow(sc.nb[:0], len(cols))[:len(cols)]
		sc.nb = nb
		for i := range cols {
			nb[i] = graph.Scored{Node: cols[i], Score: vals[i]}
		}
		for _, v := range graph.SelectTop(nb, topK) {
			if sc.acc[v.Node] == 0 {
				// Mark as a candidate with no lexical score; the sentinel
				// keeps release() resetting it.
				sc.acc[v.Node] = -1
				sc.touched = append(sc.touched, v.Node)
				cand = append(cand, graph.Scored{Node: v.Node})
			}
		}
	}
	// co(c) = mean over anchors a of score(a)·cos(ppmi_a, ppmi_c). The
	// anchors' normalised vectors are summed into one dense vector first,
	// so each candidate costs one pass over its own row.
	vec := sc.vec
	vt := sc.vt[:0]
	inv := 1 / float32(len(anchors))
	for _, a := range anchors {
		vt = ix.Cooc.addScaled(a.Node, a.Score*inv, vec, vt)
	}
	wn, wc := ix.opts.NgramWeight, ix.opts.CoOccurrenceWeight
	norm := wn + wc
	for _, c := range cand {
		co := finite.Clamp(ix.Cooc.dotDense(c.Node, vec), 0, 1)
		s := finite.Clamp((wn*c.Score+wc*co)/norm, 0, 1)
		if s >= ix.opts.MinScore {
			out = append(out, graph.Scored{Node: c.Node, Score: s})
		}
	}
	for _, n := range vt {
		vec[n] = 0
	}
	sc.cand, sc.out, sc.vt = cand, out, vt
	// A copy of the top: out goes back to the pool with the scratch.
	return slices.Clone(graph.SelectTop(out, topK))
}

// ScoreNodes writes into out[i] the lexical score of nodes[i] for text:
// the trigram TF-IDF cosine, or the synonym score (SynonymWeight × how much
// of the label's words are synonyms of the query's), whichever is larger.
// It is the per-candidate form of Query's phase 1, used to re-rank seeds;
// its cost depends on len(nodes), not on the graph. out must be at least as
// long as nodes.
func (ix *Index) ScoreNodes(text string, nodes []graph.NodeID, out []float32) {
	words := QueryWords(text)
	for i := range nodes {
		out[i] = 0
	}
	if len(words) == 0 {
		return
	}
	sc := ix.scratch()
	defer ix.release(sc)
	var qn float32
	sc.q, qn = ix.Ngram.queryVector(sc.q, words)
	var exp []string
	if ix.opts.SynonymWeight > 0 {
		exp = ix.expansions(words)
	}
	for i, nd := range nodes {
		if int(nd) >= ix.Ngram.n {
			continue
		}
		out[i] = ix.Ngram.cosineVec(sc.q, qn, nd, &sc.buf)
		matched := 0
		for _, e := range exp {
			if ix.Tokens.Has(nd, e) {
				matched++
			}
		}
		out[i] = max(out[i], ix.synonymScore(min(matched, math.MaxUint8), ix.Tokens.NumParts(nd)))
	}
}
