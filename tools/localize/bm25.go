package localize

import (
	"math"
	"sort"
	"strings"
)

// BM25 is the baseline: plain Okapi BM25 over whole file contents. Tokens
// are lower-cased runs of letters, digits and '_' — no identifier
// splitting, stemming or stopwords — so it is what a good grep-with-ranking
// would do, and what seek has to beat.
type BM25 struct {
	K1, B float64
	paths []string
	tf    []map[string]int
	dl    []int
	df    map[string]int
	avgdl float64
}

// NewBM25 indexes files with k1 = 1.2 and b = 0.75.
func NewBM25(files []File) *BM25 {
	x := &BM25{K1: 1.2, B: 0.75, df: map[string]int{}}
	total := 0
	for _, f := range files {
		tf := map[string]int{}
		n := 0
		for _, w := range Words(string(f.Data)) {
			tf[w]++
			n++
		}
		for w := range tf {
			x.df[w]++
		}
		x.paths = append(x.paths, f.Path)
		x.tf = append(x.tf, tf)
		x.dl = append(x.dl, n)
		total += n
	}
	if len(files) > 0 {
		x.avgdl = float64(total) / float64(len(files))
	}
	return x
}

// Words splits text into lower-case word tokens.
func Words(text string) []string {
	return strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !(r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127)
	})
}

// Rank returns the paths ordered by score for query (distinct query words
// summed), best first; files scoring 0 are left out; ties by path.
func (x *BM25) Rank(query string, k int) []string {
	seen := map[string]bool{}
	var qs []string
	for _, w := range Words(query) {
		if !seen[w] && x.df[w] > 0 {
			seen[w] = true
			qs = append(qs, w)
		}
	}
	type sc struct {
		i int
		s float64
	}
	var out []sc
	n := float64(len(x.paths))
	for i, tf := range x.tf {
		var s float64
		norm := x.K1 * (1 - x.B + x.B*float64(x.dl[i])/math.Max(x.avgdl, 1))
		for _, w := range qs {
			f := float64(tf[w])
			if f == 0 {
				continue
			}
			df := float64(x.df[w])
			idf := math.Log(1 + (n-df+0.5)/(df+0.5))
			s += idf * f * (x.K1 + 1) / (f + norm)
		}
		if s > 0 {
			out = append(out, sc{i, s})
		}
	}
	sort.Slice(out, func(a, b int) bool {
		if out[a].s != out[b].s {
			return out[a].s > out[b].s
		}
		return x.paths[out[a].i] < x.paths[out[b].i]
	})
	res := make([]string, 0, min(k, len(out)))
	for j := 0; j < len(out) && j < k; j++ {
		res = append(res, x.paths[out[j].i])
	}
	return res
}
