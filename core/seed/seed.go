// Package seed turns a query into seed nodes: the nodes whose names, tags
// or paths match the query, each with a relevance in (0, 1] that becomes
// its starting activation.
//
// Every query word (and, for identifiers such as "getUserName",
// "session_pool.py", "os.path.join" or "src/auth/login.py", every part of
// it) is matched against a pre-built index by a cascade of rules:
//
//	exact label (case- and separator-insensitive)  1.0
//	prefix (either way, e.g. "auth" ↔ "authentication")  0.9
//	tag (equal, or a prefix either way)             0.85
//	substring, or a word of the label that begins the query word  0.8
//	fuzzy trigram similarity s >= 0.3               0.7 × s
//
// A node keeps the best rule that matched. Multi-word queries combine word
// scores as BestWeight·max + (1−BestWeight)·mean. FindSemantic re-ranks
// the candidates with the semantic index (0.6 cascade / 0.4 semantic).
// Results are capped at 200 and ordered by relevance, then NodeID.
package seed

import (
	"math"
	"runtime"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/internal/finite"
	"github.com/m1nd-go/m1nd/core/internal/freelist"
	"github.com/m1nd-go/m1nd/core/semantic"
)

// Match names the cascade rule that gave a seed its relevance.
type Match uint8

// Cascade rules, weakest first.
const (
	MatchNone Match = iota
	MatchFuzzy
	MatchSubstring
	MatchTag
	MatchPrefix
	MatchExact
	// MatchSemantic marks a seed found by the semantic index alone, when no
	// rule of the cascade matched anything (FindSemantic's fallback).
	MatchSemantic
	// MatchLexical marks a seed a caller's own ranker supplied (seek's
	// code-aware index, for activate).
	MatchLexical
)

func (m Match) String() string {
	switch m {
	case MatchFuzzy:
		return "fuzzy"
	case MatchSubstring:
		return "substring"
	case MatchTag:
		return "tag"
	case MatchPrefix:
		return "prefix"
	case MatchExact:
		return "exact"
	case MatchSemantic:
		return "semantic"
	case MatchLexical:
		return "lexical"
	}
	return "none"
}

// Seed is one node a query starts from.
type Seed struct {
	Node graph.NodeID
	// Relevance is in (0, 1]; it is the seed's initial activation.
	Relevance float32
	// Match is the strongest rule that matched one of the query's words.
	Match Match
}

// Scored converts seeds to the graph.Scored form the engines consume.
func Scored(seeds []Seed) []graph.Scored {
	out := make([]graph.Scored, len(seeds))
	for i, s := range seeds {
		out[i] = graph.Scored{Node: s.Node, Score: s.Relevance}
	}
	return out
}

// sortedKeys is a list of (key, node) pairs sorted by key then node, for
// equal-key and prefix range lookups by binary search. The keys are
// slices of one string: go-std's finder held 453 K key strings, objects
// every collection of a server marked again.
type sortedKeys struct {
	text  string
	spans []keySpan
	nodes []graph.NodeID
}

// keySpan is a key's place in sortedKeys.text (or keyBuilder.buf).
type keySpan struct{ from, to uint32 }

func (s *sortedKeys) key(i int) string { sp := s.spans[i]; return s.text[sp.from:sp.to] }

// search is the first index whose key is not below k.
func (s *sortedKeys) search(k string) int {
	return sortSearch(len(s.spans), func(i int) bool { return s.key(i) >= k })
}

func (s *sortedKeys) equalRange(k string) []graph.NodeID {
	lo := s.search(k)
	hi := lo
	for hi < len(s.spans) && s.key(hi) == k {
		hi++
	}
	return s.nodes[lo:hi]
}

func (s *sortedKeys) prefixRange(p string) []graph.NodeID {
	lo := s.search(p)
	hi := lo + sortSearch(len(s.spans)-lo, func(i int) bool { return !strings.HasPrefix(s.key(lo+i), p) })
	return s.nodes[lo:hi]
}

// keyBuilder collects the keys of a sortedKeys in one buffer.
type keyBuilder struct {
	buf  []byte
	refs []keyRef
}

type keyRef struct {
	keySpan
	node graph.NodeID
}

// addCompact adds semantic.Compact(s) for node unless it is empty or
// equals unlike (when not nil); it returns the key's span.
func (b *keyBuilder) addCompact(s string, node graph.NodeID, unlike []byte) (keySpan, bool) {
	from := len(b.buf)
	b.buf = semantic.AppendCompact(b.buf, s)
	k := b.buf[from:]
	if len(k) == 0 || (unlike != nil && string(k) == string(unlike)) {
		b.buf = b.buf[:from]
		return keySpan{}, false
	}
	sp := keySpan{uint32(from), uint32(len(b.buf))}
	b.refs = append(b.refs, keyRef{sp, node})
	return sp, true
}

// addPath adds the path p for node, and each of its suffixes after a '/'
// (held once: they are slices of it).
func (b *keyBuilder) addPath(p string, node graph.NodeID) {
	from := uint32(len(b.buf))
	b.buf = append(b.buf, p...)
	to := uint32(len(b.buf))
	b.refs = append(b.refs, keyRef{keySpan{from, to}, node})
	for j := 0; j < len(p)-1; j++ {
		if p[j] == '/' {
			b.refs = append(b.refs, keyRef{keySpan{from + uint32(j) + 1, to}, node})
		}
	}
}

func (b *keyBuilder) build() sortedKeys {
	text := string(b.buf)
	key := func(r keyRef) string { return text[r.from:r.to] }
	refs := sortRefs(b.refs, func(x, y keyRef) int {
		if c := strings.Compare(key(x), key(y)); c != 0 {
			return c
		}
		return int(x.node) - int(y.node)
	})
	refs = slices.CompactFunc(refs, func(x, y keyRef) bool { return x.node == y.node && key(x) == key(y) })
	s := sortedKeys{text: text, spans: make([]keySpan, len(refs)), nodes: make([]graph.NodeID, len(refs))}
	for i, r := range refs {
		s.spans[i], s.nodes[i] = r.keySpan, r.node
	}
	return s
}

// parallelSortMin is the least number of keys sortRefs sorts in two
// halves at once.
const parallelSortMin = 1 << 14

// sortRefs sorts refs by cmp, a total order (equal only for equal
// values, so any sort gives the same order): many of them in two halves
// on two goroutines, then merged into a new slice. The label keys' sort
// was 40 % of an engine's build on go-std, on one core.
func sortRefs(refs []keyRef, cmp func(x, y keyRef) int) []keyRef {
	if len(refs) < parallelSortMin {
		slices.SortFunc(refs, cmp)
		return refs
	}
	a, b := refs[:len(refs)/2], refs[len(refs)/2:]
	var wg sync.WaitGroup
	wg.Go(func() { slices.SortFunc(b, cmp) })
	slices.SortFunc(a, cmp)
	wg.Wait()
	out := make([]keyRef, 0, len(refs))
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		if cmp(b[j], a[i]) < 0 {
			out = append(out, b[j])
			j++
		} else {
			out = append(out, a[i])
			i++
		}
	}
	return append(append(out, a[i:]...), b[j:]...)
}

// sortSearch is sort.Search without the import: the first i in [0, n)
// for which f is true, or n.
func sortSearch(n int, f func(int) bool) int {
	lo, hi := 0, n
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if !f(m) {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// Finder finds seeds in one graph generation. Building it indexes every
// label, stem, tag and file path once; queries then touch only matching
// nodes. Safe for concurrent use.
type Finder struct {
	g    *graph.Graph
	gen  graph.Generation
	ng   *semantic.NgramIndex
	tok  *semantic.TokenIndex
	sem  *semantic.Index
	opts Options
	stop map[string]bool

	labels sortedKeys // Compact(label)
	stems  sortedKeys // Compact(label without file extension), when different
	tags   sortedKeys // Compact(tag)
	paths  sortedKeys // lower-case source path of file-like nodes and its '/' suffixes

	// pool keeps cascade scratches (four per-node accumulators and a
	// per-node counter), one a processor (a Find holds one), in a free
	// list that survives collections: a sync.Pool's were dropped every few
	// activate calls in a server that collects that often (issue 29).
	pool freelist.List[*scratch]
	n    int
	// answers are FindSemantic's recent answers by question (cache.go).
	answers answers
}

// NewFinder indexes a finalized graph. sem may be nil: FindSemantic then
// behaves like Find, and the finder builds its own trigram index; when sem
// is given its trigram index is shared.
func NewFinder(g *graph.Graph, sem *semantic.Index, o Options) (*Finder, error) {
	if err := o.Validate(); err != nil {
		return nil, err
	}
	if !g.Finalized() {
		return nil, graph.ErrNotFinalized
	}
	f := &Finder{g: g, gen: g.Generation(), sem: sem, opts: o, stop: map[string]bool{}}
	if sem != nil && sem.Generation() == g.Generation() && sem.Ngram.NumNodes() == g.NumNodes() {
		f.ng, f.tok = sem.Ngram, sem.Tokens
	} else {
		f.ng, f.tok = semantic.BuildNgramIndex(g), semantic.BuildTokenIndex(g)
		f.sem = nil
	}
	sw := o.Stopwords
	if sw == nil {
		sw = DefaultStopwords()
	}
	for _, w := range sw {
		f.stop[strings.ToLower(w)] = true
	}
	n := g.NumNodes()
	var labels, stems, tags, paths keyBuilder
	labels.refs = make([]keyRef, 0, n)
	for i := 0; i < n; i++ {
		id := graph.NodeID(i)
		lower := f.ng.LowerLabel(id)
		var c []byte
		if sp, ok := labels.addCompact(lower, id, nil); ok {
			c = labels.buf[sp.from:sp.to]
		}
		if st := semantic.StripExtension(lower); st != lower {
			stems.addCompact(st, id, c)
		}
		for _, t := range g.TagStrs(id) {
			tags.addCompact(g.Strings().String(t), id, nil)
		}
		switch g.Type(id) {
		case graph.File, graph.Directory, graph.Module:
			if p := g.SourcePath(id); p != "" {
				paths.addPath(strings.ToLower(strings.ReplaceAll(p, "\\", "/")), id)
			}
		}
	}
	var others sync.WaitGroup
	others.Go(func() { f.stems, f.tags, f.paths = stems.build(), tags.build(), paths.build() })
	f.labels = labels.build()
	others.Wait()
	f.n = n
	f.pool.SetKeep(runtime.GOMAXPROCS(0))
	return f, nil
}

// Generation is the graph generation the finder indexes.
func (f *Finder) Generation() graph.Generation { return f.gen }

// Options returns the finder's parameters.
func (f *Finder) Options() Options { return f.opts }

// accum is a sparse view over a dense per-node array of cells, and the
// list of touched nodes for cheap reset. A node's value, sum and rule sit
// in one cell: a query's words touch thousands of nodes, each read and
// written together.
type accum struct {
	at      []cell
	touched []graph.NodeID
}

// cell is one node's value, a second sum value and the match rule.
type cell struct {
	v, sum float32
	k      Match
}

func newAccum(n int) accum {
	return accum{at: make([]cell, n)}
}

func (a *accum) touch(n graph.NodeID) {
	if a.at[n].k == MatchNone {
		a.touched = append(a.touched, n)
	}
}

// setMax records score s by rule m for node n when it beats what n has.
func (a *accum) setMax(n graph.NodeID, s float32, m Match) {
	if s <= 0 {
		return
	}
	a.touch(n)
	if s > a.at[n].v || (s == a.at[n].v && m > a.at[n].k) {
		a.at[n].v, a.at[n].k = s, m
	}
}

func (a *accum) reset() {
	for _, n := range a.touched {
		a.at[n] = cell{}
	}
	a.touched = a.touched[:0]
}

type scratch struct {
	term, part, word, q accum
	shared              []uint16
	sharedTouched       []graph.NodeID
	grams               []uint32
	cand                []graph.Scored
}

// evalTerm runs the cascade for one lower-case term into a. The rules run
// strongest first; once enough nodes matched, the weaker substring and
// fuzzy rules are skipped, because none of their matches could outrank
// the ones already found for this term. That is what keeps a common word
// on a large graph (a prefix of 15,000 labels) from also walking the
// trigram postings of a third of the graph.
func (f *Finder) evalTerm(t string, enough int, sc *scratch, a *accum) {
	o := &f.opts
	ct := semantic.Compact(t)
	if ct != "" {
		clen := utf8.RuneCountInString(ct)
		for _, n := range f.labels.equalRange(ct) {
			a.setMax(n, o.Exact, MatchExact)
		}
		for _, n := range f.stems.equalRange(ct) {
			a.setMax(n, o.Exact, MatchExact)
		}
		if clen >= 2 {
			for _, n := range f.labels.prefixRange(ct) {
				a.setMax(n, o.Prefix, MatchPrefix)
			}
			for _, n := range f.stems.prefixRange(ct) {
				a.setMax(n, o.Prefix, MatchPrefix)
			}
		}
		for _, n := range f.tags.equalRange(ct) {
			a.setMax(n, o.Tag, MatchTag)
		}
		if clen >= o.MinStemLen {
			for _, n := range f.tags.prefixRange(ct) {
				a.setMax(n, o.Tag, MatchTag)
			}
		}
		// The other way round: a label stem or tag that is a prefix of the
		// term ("auth.py" and tag "auth" for "authentication").
		runes := 0
		for i := range ct {
			if runes >= o.MinStemLen && i < len(ct) {
				p := ct[:i]
				for _, n := range f.labels.equalRange(p) {
					a.setMax(n, o.Prefix, MatchPrefix)
				}
				for _, n := range f.stems.equalRange(p) {
					a.setMax(n, o.Prefix, MatchPrefix)
				}
				for _, n := range f.tags.equalRange(p) {
					a.setMax(n, o.Tag, MatchTag)
				}
			}
			runes++
		}
	}
	if strings.ContainsRune(t, '/') {
		for _, n := range f.paths.equalRange(strings.Trim(t, "/")) {
			a.setMax(n, o.Exact, MatchExact)
		}
	}
	if len(a.touched) < enough && ct != "" {
		// A word of the label that the term starts with counts as a
		// substring match: "HTTPBasicAuthHandler" has the word "auth" of
		// "authentication" although neither string contains the other.
		runes := 0
		for i := range ct {
			if runes >= o.MinStemLen {
				for _, n := range f.tok.Nodes(ct[:i]) {
					a.setMax(n, o.Substring, MatchSubstring)
				}
			}
			runes++
		}
		if runes >= o.MinStemLen {
			for _, n := range f.tok.Nodes(ct) {
				a.setMax(n, o.Substring, MatchSubstring)
			}
		}
	}
	if len(a.touched) < enough && utf8.RuneCountInString(t) >= 3 {
		f.substringAndFuzzy(t, enough, sc, a)
	}
}

// minFuzzyGrams is the fewest distinct trigrams a term and a label need
// for a fuzzy match.
const minFuzzyGrams = 3

// substringAndFuzzy finds labels containing t (candidates: the postings of
// t's rarest trigram, confirmed with strings.Contains) and labels whose
// trigram set is similar to t's (cosine of the sets, counted through the
// postings of every trigram of t).
func (f *Finder) substringAndFuzzy(t string, enough int, sc *scratch, a *accum) {
	o := &f.opts
	sc.grams = semantic.AppendTrigrams(sc.grams[:0], t)
	slices.Sort(sc.grams)
	grams := slices.Compact(sc.grams)
	var rarest []graph.NodeID
	for i, h := range grams {
		if p := f.ng.Postings(h); i == 0 || len(p) < len(rarest) {
			rarest = p
		}
	}
	if len(grams) > 0 {
		for _, n := range rarest {
			if strings.Contains(f.ng.LowerLabel(n), t) {
				a.setMax(n, o.Substring, MatchSubstring)
			}
		}
	}
	if len(a.touched) >= enough || len(grams) < minFuzzyGrams {
		return
	}
	for _, h := range grams {
		for _, n := range f.ng.Postings(h) {
			if sc.shared[n] == 0 {
				sc.sharedTouched = append(sc.sharedTouched, n)
			}
			sc.shared[n]++
		}
	}
	// Similarity over fewer than minFuzzyGrams trigrams on either side is
	// noise, not a typo: "new" would be 50 % similar to "newton".
	tg := float64(len(grams))
	for _, n := range sc.sharedTouched {
		dn := f.ng.DistinctTrigrams(n)
		sim := float32(float64(sc.shared[n]) / math.Sqrt(tg*float64(max(dn, 1))))
		sc.shared[n] = 0
		if sim >= o.FuzzyThreshold && dn >= minFuzzyGrams {
			a.setMax(n, o.FuzzyScale*finite.Clamp(sim, 0, 1), MatchFuzzy)
		}
	}
	sc.sharedTouched = sc.sharedTouched[:0]
}

// words returns the query's words without stopwords (all of them when
// every word is a stopword) and without one-letter words when longer
// ones exist, at most semantic.MaxQueryWords of them.
func (f *Finder) words(query string) []string {
	all := semantic.Words(query)
	var out []string
	for _, w := range all {
		if !f.stop[w] && utf8.RuneCountInString(w) > 1 && len(out) < semantic.MaxQueryWords {
			out = append(out, w)
		}
	}
	if len(out) == 0 {
		return all[:min(len(all), semantic.MaxQueryWords)]
	}
	return out
}

// basic scores every candidate by the cascade and returns those at or
// above MinRelevance, best first, at most limit of them.
func (f *Finder) basic(query string, limit int, sc *scratch) []graph.Scored {
	words := f.words(query)
	if len(words) == 0 {
		return nil
	}
	q := &sc.q
	for _, w := range words {
		f.evalTerm(w, limit, sc, &sc.term)
		for _, n := range sc.term.touched {
			sc.word.setMax(n, sc.term.at[n].v, sc.term.at[n].k)
		}
		sc.term.reset()
		if parts := semantic.SplitIdentifier(w); len(parts) > 1 {
			// An identifier also matches part by part: the mean over its
			// parts, so "getUserName" finds get_user_name.
			for _, p := range parts {
				f.evalTerm(p, limit, sc, &sc.term)
				for _, n := range sc.term.touched {
					sc.part.touch(n)
					sc.part.at[n].sum += sc.term.at[n].v
					if sc.term.at[n].v > sc.part.at[n].v {
						sc.part.at[n].v, sc.part.at[n].k = sc.term.at[n].v, sc.term.at[n].k
					}
				}
				sc.term.reset()
			}
			inv := 1 / float32(len(parts))
			for _, n := range sc.part.touched {
				sc.word.setMax(n, sc.part.at[n].sum*inv, sc.part.at[n].k)
			}
			sc.part.reset()
		}
		for _, n := range sc.word.touched {
			v := sc.word.at[n].v
			q.touch(n)
			q.at[n].sum += v
			if v > q.at[n].v || (v == q.at[n].v && sc.word.at[n].k > q.at[n].k) {
				q.at[n].v, q.at[n].k = v, sc.word.at[n].k
			}
		}
		sc.word.reset()
	}
	bw := f.opts.BestWeight
	inv := 1 / float32(len(words))
	cand := sc.cand[:0]
	for _, n := range q.touched {
		r := finite.Clamp(bw*q.at[n].v+(1-bw)*q.at[n].sum*inv, 0, 1)
		if r >= f.opts.MinRelevance && r > 0 {
			cand = append(cand, graph.Scored{Node: n, Score: r})
		}
	}
	sc.cand = cand
	return graph.SelectTop(cand, limit)
}

func (f *Finder) limit(maxSeeds int) int {
	if maxSeeds <= 0 || maxSeeds > f.opts.MaxSeeds {
		maxSeeds = f.opts.MaxSeeds
	}
	return min(maxSeeds, MaxSeeds)
}

// Find returns the seeds for query by the cascade alone: at most
// min(maxSeeds, Options.MaxSeeds, 200) of them (maxSeeds <= 0 means the
// option), by relevance descending then NodeID.
func (f *Finder) Find(query string, maxSeeds int) []Seed {
	sc := f.scratch()
	defer f.release(sc)
	top := f.basic(query, f.limit(maxSeeds), sc)
	out := make([]Seed, len(top))
	for i, s := range top {
		out[i] = Seed{Node: s.Node, Relevance: s.Score, Match: sc.q.at[s.Node].k}
	}
	return out
}

// FindSemantic is Find followed by the semantic re-rank: the cascade's
// best 3×limit candidates get relevance BasicWeight·cascade +
// SemanticWeight·semantic (normalised by the weights' sum), and the best
// limit of them are returned. When the cascade matches nothing, the
// semantic index's own best nodes (for instance labels that only contain a
// synonym of the query, "login_handler" for "authentication") become the
// seeds, with MatchSemantic. Without a semantic index it is Find.
func (f *Finder) FindSemantic(query string, maxSeeds int) []Seed {
	if seeds, ok := f.answers.get(query, maxSeeds); ok {
		return seeds
	}
	seeds := f.findSemantic(query, maxSeeds)
	f.answers.put(query, maxSeeds, seeds)
	return seeds
}

func (f *Finder) findSemantic(query string, maxSeeds int) []Seed {
	if f.sem == nil || f.opts.SemanticWeight <= 0 {
		return f.Find(query, maxSeeds)
	}
	limit := f.limit(maxSeeds)
	sc := f.scratch()
	defer f.release(sc)
	cand := f.basic(query, 3*limit, sc)
	if len(cand) == 0 {
		var out []Seed
		for _, s := range f.sem.Query(query, limit) {
			if s.Score >= f.opts.MinRelevance {
				out = append(out, Seed{Node: s.Node, Relevance: s.Score, Match: MatchSemantic})
			}
		}
		return out
	}
	nodes := make([]graph.NodeID, len(cand))
	for i, c := range cand {
		nodes[i] = c.Node
	}
	sem := make([]float32, len(cand))
	f.sem.ScoreNodes(query, nodes, sem)
	bw, sw := f.opts.BasicWeight, f.opts.SemanticWeight
	for i := range cand {
		cand[i].Score = finite.Clamp((bw*cand[i].Score+sw*sem[i])/(bw+sw), 0, 1)
	}
	top := graph.SelectTop(cand, limit)
	out := make([]Seed, 0, len(top))
	for _, s := range top {
		if s.Score > 0 {
			out = append(out, Seed{Node: s.Node, Relevance: s.Score, Match: sc.q.at[s.Node].k})
		}
	}
	return out
}

// scratch returns a returned scratch, or a new one.
func (f *Finder) scratch() *scratch {
	if sc, ok := f.pool.Get(); ok {
		return sc
	}
	n := f.n
	return &scratch{
		term: newAccum(n), part: newAccum(n), word: newAccum(n), q: newAccum(n),
		shared: make([]uint16, n),
	}
}

func (f *Finder) release(sc *scratch) {
	sc.term.reset()
	sc.part.reset()
	sc.word.reset()
	sc.q.reset()
	sc.cand = sc.cand[:0]
	f.pool.Put(sc)
}
