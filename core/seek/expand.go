package seek

import (
	"cmp"
	"math"
	"slices"
	"strings"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/semantic"
)

// Short queries are expanded: "code that validates user credentials" is
// also a search for login/auth code, and "configuration" for "config".
// Long queries (bug reports) carry enough vocabulary of their own, and
// expanding them would only add noise and cost.
const (
	// expandMaxTerms is the most distinct terms a query may have to be
	// expanded.
	expandMaxTerms = 12
	// synonymWeight and prefixWeight scale an expansion's own IDF weight;
	// an expansion never outweighs the term it came from.
	synonymWeight  = 0.35
	prefixWeight   = 0.5
	compoundWeight = 0.5
	// minPrefix is the shortest vocabulary term taken as an abbreviation
	// of a longer query term ("auth" for "authentication").
	minPrefix = 4
	// A compound word split in two ("filesystem" is "file" + "system")
	// has at least minCompound letters, each half at least minPart and
	// occurring in at least minPartDF nodes: shorter words and rarer
	// halves are fragments, not words ("safari" is not "saf" + "ari",
	// "appear" not "app" + "ear").
	minCompound = 7
	minPart     = 3
	minPartDF   = 4
)

// domainGroups are the synonym groups of core/semantic that name domain
// ideas; the groups about kinds of code (test, function, class, module)
// would pull in every test or every function.
var synonymsOf = func() map[string][]string {
	skip := map[string]bool{"test": true, "function": true, "class": true, "module": true}
	out := map[string][]string{}
	for _, grp := range semantic.DefaultSynonymGroups() {
		if skip[grp[0]] {
			continue
		}
		var terms []string
		for _, w := range grp {
			for _, t := range Terms(w) {
				if !slices.Contains(terms, t) {
					terms = append(terms, t)
				}
			}
		}
		for _, t := range terms {
			for _, o := range terms {
				if o != t {
					out[t] = append(out[t], o)
				}
			}
		}
	}
	return out
}()

// expand returns weighted synonyms and abbreviations of a short query's
// terms that the index knows and the query does not already have, each
// tagged with the term it came from.
func (x *Index) expand(q Query, orig []usedTerm) []usedTerm {
	if len(q.Terms) > expandMaxTerms {
		return nil
	}
	have := map[uint32]bool{}
	for _, t := range orig {
		have[t.id] = true
	}
	best := map[uint32]usedTerm{}
	consider := func(term string, scale, cap float32, from string) {
		id, ok := x.vocab.lookup(term)
		if !ok || have[id] {
			return
		}
		df := int(x.off[id+1] - x.off[id])
		if df == 0 {
			return
		}
		w := min(scale*x.idf(df), cap)
		if !(w > 0) || !graph.IsFinite(w) {
			return
		}
		if b, ok := best[id]; !ok || w > b.w {
			best[id] = usedTerm{id: id, text: term, w: w, df: df, from: from}
		}
	}
	for _, t := range orig {
		for _, s := range synonymsOf[t.text] {
			consider(s, synonymWeight, t.w, t.text)
		}
		// The longest vocabulary term that abbreviates t.
		for k := len(t.text) - 1; k >= minPrefix && len(t.text) >= minPrefix+3; k-- {
			if _, ok := x.vocab.lookup(t.text[:k]); ok {
				consider(t.text[:k], prefixWeight, t.w, t.text)
				break
			}
		}
		for _, part := range x.compoundParts(t.text) {
			consider(part, compoundWeight, t.w, t.text)
		}
	}
	out := make([]usedTerm, 0, len(best))
	for _, t := range best {
		out = append(out, t)
	}
	slices.SortFunc(out, func(a, b usedTerm) int {
		if c := cmp.Compare(b.w, a.w); c != 0 {
			return c
		}
		return strings.Compare(a.text, b.text)
	})
	return out
}

// compoundParts splits a query word written as one ("filesystem",
// "timestamp", "username") into the two terms code spells it with
// (FileSystemLoader indexes "file" and "system", never "filesystem"):
// the split whose halves are both indexed, neither a stopword, the most
// even one first; nil when there is none.
func (x *Index) compoundParts(word string) []string {
	var best []string
	bestShort := 0
	if len(word) < minCompound {
		return nil
	}
	for i := minPart; i <= len(word)-minPart; i++ {
		a, b := word[:i], word[i:]
		if isStopword([]byte(a)) || isStopword([]byte(b)) {
			continue
		}
		ta, tb := Terms(a), Terms(b)
		if len(ta) != 1 || len(tb) != 1 {
			continue
		}
		if !x.commonTerm(ta[0]) || !x.commonTerm(tb[0]) {
			continue
		}
		if short := min(len(a), len(b)); short > bestShort {
			best, bestShort = []string{ta[0], tb[0]}, short
		}
	}
	return best
}

// commonTerm reports whether term is indexed in minPartDF nodes or more.
func (x *Index) commonTerm(term string) bool {
	id, ok := x.vocab.lookup(term)
	return ok && x.off[id+1]-x.off[id] >= minPartDF
}

// idf is BM25's inverse document frequency over the index's nodes.
func (x *Index) idf(df int) float32 {
	n := float64(x.n)
	return float32(math.Log(1 + (n-float64(df)+0.5)/(float64(df)+0.5)))
}
