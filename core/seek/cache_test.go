package seek

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/testcorpus"
)

// cacheQueries are questions of each shape the lexical part handles:
// words, a sentence, a path, a stack trace, a code symbol, and words
// nothing matches.
var cacheQueries = []string{
	"validate credentials",
	"where is the password hashed",
	"something is off in web/router.go",
	testcorpus.PythonTrace,
	testcorpus.GoTrace,
	"hash_password salted",
	"zzqx nothing",
}

// fresh is a search that cannot use the cache: a Query built from the
// text by hand goes through the lexical part every time.
func fresh(x *Index, text string, p Params) Result { return x.Search(ParseQuery(text), p) }

// A question asked again takes its lexical part from the cache and gets
// the answer a fresh search gets, before and after learning moved edge
// weights the rerank reads — with graph fusion on and off, and with
// filters that act after the lexical part.
func TestCachedSearchEqualsFreshAcrossLearning(t *testing.T) {
	x, g := buildFixture(t, nil)
	params := []Params{
		{TopK: 30, GraphRerank: true},
		{TopK: 30},
		{TopK: 5, GraphRerank: true, Types: []graph.NodeType{graph.Function}},
		{TopK: 30, GraphRerank: true, MaxTerms: 2},
	}
	check := func(stage string) {
		t.Helper()
		for _, q := range cacheQueries {
			for _, p := range params {
				want := fresh(x, q, p)
				for i := 0; i < 2; i++ { // the first may fill the cache
					if d := cmp.Diff(want, x.SearchText(q, p)); d != "" {
						t.Fatalf("%s: %.30q %+v, call %d: cached differs from fresh (-fresh +cached):\n%s", stage, q, p, i, d)
					}
				}
			}
		}
	}
	check("before learning")
	hits := x.LexicalHits()
	if hits == 0 {
		t.Fatalf("no search took its lexical part from the cache")
	}

	// Learn: strengthen every edge of the top hit's neighbourhood, as a
	// burst of activates does; the rerank must see it.
	p := Params{TopK: 30, GraphRerank: true}
	before := x.SearchText("validate credentials", p)
	top := before.Hits[0].Node
	for _, e := range touchingEdges(g, top) {
		if _, err := g.UpdateWeight(e, func(w float32) float32 { return min(w*3, graph.WeightCap) }); err != nil {
			t.Fatal(err)
		}
	}
	after := x.SearchText("validate credentials", p)
	if cmp.Equal(before, after) {
		t.Fatalf("learning moved nothing in the answer: the test cannot tell a stale cache")
	}
	check("after learning")
	if x.LexicalHits() <= hits {
		t.Errorf("after learning no search used the cache")
	}
}

// touchingEdges are n's out- and in-edges.
func touchingEdges(g *graph.Graph, n graph.NodeID) []graph.EdgeIdx {
	var es []graph.EdgeIdx
	lo, hi := g.OutRange(n)
	for e := lo; e < hi; e++ {
		es = append(es, e)
	}
	ilo, ihi := g.InRange(n)
	for k := ilo; k < ihi; k++ {
		es = append(es, g.InEdge(k))
	}
	return es
}

// A Result's frames are the caller's: changing them does not change the
// next answer to the same question.
func TestCachedFramesAreTheCallers(t *testing.T) {
	x, _ := buildFixture(t, nil)
	p := Params{TopK: 10, GraphRerank: true}
	want := fresh(x, testcorpus.PythonTrace, p)
	r := x.SearchText(testcorpus.PythonTrace, p)
	r = x.SearchText(testcorpus.PythonTrace, p)
	if len(r.Frames) == 0 {
		t.Fatal("fixture: no frames")
	}
	r.Frames[0].Path = "changed"
	if d := cmp.Diff(want, x.SearchText(testcorpus.PythonTrace, p)); d != "" {
		t.Errorf("a caller's change reached the cache:\n%s", d)
	}
}

// The cache stays within its bytes, oldest questions out first, and a
// question too long to keep is searched fresh each time.
func TestLexicalCacheBounds(t *testing.T) {
	var c lexCache
	e := func(n int) *lexEntry { return &lexEntry{size: n} }
	c.put(lexKey{"a", 1}, e(lexCacheBytes/2))
	c.put(lexKey{"b", 1}, e(lexCacheBytes/4))
	c.put(lexKey{"c", 1}, e(lexCacheBytes/4))
	c.put(lexKey{"d", 1}, e(lexCacheBytes/4)) // a goes
	if c.get(lexKey{"a", 1}) != nil || c.get(lexKey{"d", 1}) == nil || c.get(lexKey{"b", 1}) == nil {
		t.Errorf("eviction: want a out, b and d in")
	}
	if c.bytes > lexCacheBytes {
		t.Errorf("cache holds %d bytes, bound %d", c.bytes, lexCacheBytes)
	}
	c.put(lexKey{"huge", 1}, e(lexCacheEntryMax+1))
	if c.get(lexKey{"huge", 1}) != nil {
		t.Errorf("an entry over lexCacheEntryMax was kept")
	}

	x, _ := buildFixture(t, nil)
	long := "validate credentials " + string(make([]byte, lexCacheQueryMax))
	h := x.LexicalHits()
	x.SearchText(long, Params{})
	x.SearchText(long, Params{})
	if x.LexicalHits() != h {
		t.Errorf("a question over %d bytes was cached", lexCacheQueryMax)
	}
}

// A question is kept when it is asked again, not the first time: an
// agent's questions are mostly new, and keeping each cost a copy of its
// search state. The third asking takes the kept one.
func TestLexicalCacheKeepsAskedAgain(t *testing.T) {
	x, _ := buildFixture(t, nil)
	p := Params{TopK: 10, GraphRerank: true}
	c := x.lexCache()
	for _, q := range cacheQueries {
		x.SearchText(q, p)
	}
	c.mu.Lock()
	kept := len(c.m)
	c.mu.Unlock()
	if kept != 0 {
		t.Errorf("%d questions asked once were kept", kept)
	}
	h := x.LexicalHits()
	x.SearchText(cacheQueries[0], p)
	if x.LexicalHits() != h {
		t.Error("the second asking was served from the cache")
	}
	x.SearchText(cacheQueries[0], p)
	if x.LexicalHits() != h+1 {
		t.Error("the third asking was not served from the cache")
	}
}
