package seek

import (
	"hash/maphash"
	"runtime"
	"slices"
	"sync"
	"weak"

	"github.com/m1nd-go/m1nd/core/graph"
)

// A search is two parts. The lexical part — the query's terms and their
// weights, its expansions, the BM25F postings summed per node, the stack
// trace and symbol evidence — reads only what an Index holds and what its
// graph's structure says (labels, paths, provenance), which never change
// for an Index: a new graph (an ingest, a patch) gets a new Index. The
// rerank (fuse, names, priors, feedback, the cut) reads learned edge
// weights, which every activate moves (activate-speed9.md: 288–397 edges
// a call), so it is redone each time. lexCache keeps the lexical part per
// question: the state the scratch holds when the rerank starts, so a hit
// restores it and the rerank runs on exactly what a fresh search would
// give it (issue 29: activate asks seek for its seeds on every call, and
// an agent repeats its questions).
type lexCache struct {
	mu    sync.Mutex
	m     map[lexKey]*lexEntry
	ring  []lexKey // insertion order, oldest first, for eviction
	bytes int      // what the entries hold
	hits  int64    // (tests)
	// asked holds the hashes of the last lexAskedMax questions searched
	// fresh: a question is kept when it is asked again, not the first
	// time. Most of an agent's questions are new, and keeping one copied
	// its state (≈ 157 KB on go-std) only to evict it unread: 60 % of an
	// activate's allocation when no question repeated.
	asked     map[uint64]struct{}
	askedRing []uint64
}

// lexAskedMax bounds lexCache.asked: a question asked again after
// that many others is kept at its third asking.
const lexAskedMax = 1024

var lexAskedSeed = maphash.MakeSeed()

// askedBefore reports whether k was searched fresh before (as far as
// asked remembers), and remembers it.
func (c *lexCache) askedBefore(k lexKey) bool {
	var h maphash.Hash
	h.SetSeed(lexAskedSeed)
	h.WriteString(k.text)
	key := h.Sum64() ^ uint64(k.maxTerms)
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.asked[key]; ok {
		return true // (a hash shared by two questions keeps one early: harmless)
	}
	if c.asked == nil {
		c.asked = make(map[uint64]struct{}, lexAskedMax)
	}
	if len(c.askedRing) == lexAskedMax {
		delete(c.asked, c.askedRing[0])
		c.askedRing = append(c.askedRing[:0], c.askedRing[1:]...)
	}
	c.asked[key] = struct{}{}
	c.askedRing = append(c.askedRing, key)
	return false
}

// lexCaches holds each live Index's lexCache, beside the Index rather
// than in it (build.go is another change's), and drops it when the Index
// is collected: a weak key does not keep an old graph's index alive.
var lexCaches struct {
	mu sync.Mutex
	m  map[weak.Pointer[Index]]*lexCache
}

// lexCache returns x's cache, made on first use.
func (x *Index) lexCache() *lexCache {
	wp := weak.Make(x)
	lexCaches.mu.Lock()
	defer lexCaches.mu.Unlock()
	c := lexCaches.m[wp]
	if c == nil {
		if lexCaches.m == nil {
			lexCaches.m = map[weak.Pointer[Index]]*lexCache{}
		}
		c = &lexCache{}
		lexCaches.m[wp] = c
		runtime.AddCleanup(x, dropLexCache, wp)
	}
	return c
}

func dropLexCache(wp weak.Pointer[Index]) {
	lexCaches.mu.Lock()
	defer lexCaches.mu.Unlock()
	delete(lexCaches.m, wp)
}

type lexKey struct {
	text     string
	maxTerms int
}

// lexEntry is a search's state after its lexical part: the parsed query,
// its terms, and per touched node (in touch order, which the rerank's
// ties and float sums follow) its lexical score, and for the few with
// stack-trace evidence that evidence and the frame pointing at them.
type lexEntry struct {
	q     Query
	terms []usedTerm
	nodes []graph.NodeID
	lex   []float32
	trace []traceRec
	size  int
}

type traceRec struct {
	at     int32 // index in nodes
	trace  float32
	frame  int32
	frameW float32
}

const (
	// lexCacheBytes bounds what the cache holds per Index (8 bytes a
	// touched node: a go-std question touches 1–40 K nodes).
	lexCacheBytes = 4 << 20
	// lexCacheQueryMax keeps long questions (pasted bug reports) out:
	// they rarely recur, and their scratch state is the largest.
	lexCacheQueryMax = 1024
	// lexCacheEntryMax keeps a question that touches most of the graph
	// from evicting everything else.
	lexCacheEntryMax = lexCacheBytes / 4
)

// get returns the entry for the question, or nil.
func (c *lexCache) get(k lexKey) *lexEntry {
	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.m[k]
	if e != nil {
		c.hits++
	}
	return e
}

// put remembers e, evicting the oldest entries to stay within
// lexCacheBytes. Entries are never changed once put: readers use them
// without the lock.
func (c *lexCache) put(k lexKey, e *lexEntry) {
	if e.size > lexCacheEntryMax {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[lexKey]*lexEntry{}
	}
	if _, ok := c.m[k]; ok {
		return
	}
	for len(c.ring) > 0 && c.bytes+e.size > lexCacheBytes {
		old := c.ring[0]
		c.ring = c.ring[1:]
		c.bytes -= c.m[old].size
		delete(c.m, old)
	}
	c.m[k] = e
	c.ring = append(c.ring, k)
	c.bytes += e.size
}

// keep records the scratch state after the lexical part (see lexEntry).
func keep(q Query, terms []usedTerm, s *scratch) *lexEntry {
	// The search that keeps q hands q out too: the entry's own copy.
	q.Frames, q.Symbols = slices.Clone(q.Frames), slices.Clone(q.Symbols)
	e := &lexEntry{
		q: q, terms: terms,
		nodes: append([]graph.NodeID(nil), s.touched...),
		lex:   make([]float32, len(s.touched)),
	}
	for i, n := range s.touched {
		e.lex[i] = s.at[n].lex
		if s.at[n].trace != 0 || s.at[n].frame != 0 || s.at[n].frameW != 0 {
			e.trace = append(e.trace, traceRec{int32(i), s.at[n].trace, s.at[n].frame, s.at[n].frameW})
		}
	}
	e.size = 8*len(e.nodes) + 16*len(e.trace) + len(q.Text) + 64*len(terms)
	return e
}

// restore puts e's state into a fresh scratch, as the lexical part would
// have left it (base = lex + trace, the rest zero).
func (e *lexEntry) restore(s *scratch) {
	for i, n := range e.nodes {
		s.touch(n)
		s.at[n].lex = e.lex[i]
	}
	for _, t := range e.trace {
		n := e.nodes[t.at]
		s.at[n].trace, s.at[n].frame, s.at[n].frameW = t.trace, t.frame, t.frameW
	}
	for _, n := range e.nodes {
		s.at[n].base = s.at[n].lex + s.at[n].trace
	}
}

// lexical runs the lexical part of a search into s and returns the query
// and the terms used. With text set (SearchText) the query is parsed from
// it, and a question asked of the index before with the same maxTerms is
// taken from the cache; without (a Query built by hand) it is q, fresh.
func (x *Index) lexical(text string, q Query, maxTerms int, s *scratch) (Query, []usedTerm) {
	if text == "" {
		return q, x.lexicalFresh(q, maxTerms, s)
	}
	k := lexKey{text, maxTerms}
	if e := x.lexCache().get(k); e != nil {
		e.restore(s)
		q := e.q
		// What a Result hands out is the caller's to change.
		q.Frames, q.Symbols = slices.Clone(q.Frames), slices.Clone(q.Symbols)
		return q, e.terms
	}
	q = ParseQuery(text)
	terms := x.lexicalFresh(q, maxTerms, s)
	if c := x.lexCache(); len(text) <= lexCacheQueryMax && c.askedBefore(k) {
		c.put(k, keep(q, terms, s))
	}
	return q, terms
}

// LexicalHits is how many searches took their lexical part from the
// cache (tests and measurements).
func (x *Index) LexicalHits() int64 {
	c := x.lexCache()
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.hits
}
