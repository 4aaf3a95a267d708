package cochange

import (
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode"
)

// BM25 is a plain Okapi BM25 index (k1 1.2, b 0.75) over files: each
// file is its path and its text, split into lower-case words at
// non-letters and camelCase humps. The baseline for a task's text.
type BM25 struct {
	docs  []string
	tf    []map[string]int
	len   []int
	df    map[string]int
	avgdl float64
}

// NewBM25 indexes the files (paths relative to root), reading at most
// 1 MiB of each.
func NewBM25(root string, files []string) *BM25 {
	b := &BM25{df: map[string]int{}}
	files = slices.Sorted(slices.Values(files))
	total := 0
	for _, f := range files {
		data, _ := os.ReadFile(filepath.Join(root, f))
		if len(data) > 1<<20 {
			data = data[:1<<20]
		}
		tf := map[string]int{}
		n := 0
		for _, w := range Words(f + " " + string(data)) {
			tf[w]++
			n++
		}
		for w := range tf {
			b.df[w]++
		}
		b.docs, b.tf, b.len = append(b.docs, f), append(b.tf, tf), append(b.len, n)
		total += n
	}
	if len(files) > 0 {
		b.avgdl = float64(total) / float64(len(files))
	}
	return b
}

// Words splits s into lower-case words of at least two letters or digits,
// at non-alphanumerics and camelCase humps.
func Words(s string) []string {
	var out []string
	var cur []rune
	flush := func() {
		if len(cur) >= 2 {
			out = append(out, strings.ToLower(string(cur)))
		}
		cur = cur[:0]
	}
	var prev rune
	for _, r := range s {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			if unicode.IsUpper(r) && unicode.IsLower(prev) {
				flush()
			}
			cur = append(cur, r)
		default:
			flush()
		}
		prev = r
	}
	flush()
	return out
}

// Search returns the best k files for text, ties by path.
func (b *BM25) Search(text string, k int) []string {
	q := slices.Compact(slices.Sorted(slices.Values(Words(text))))
	n := float64(len(b.docs))
	score := make([]float64, len(b.docs))
	for _, w := range q {
		df := float64(b.df[w])
		if df == 0 {
			continue
		}
		idf := math.Log(1 + (n-df+0.5)/(df+0.5))
		for i, tf := range b.tf {
			if c := float64(tf[w]); c > 0 {
				score[i] += idf * c * 2.2 / (c + 1.2*(0.25+0.75*float64(b.len[i])/b.avgdl))
			}
		}
	}
	idx := make([]int, 0, len(b.docs))
	for i, s := range score {
		if s > 0 {
			idx = append(idx, i)
		}
	}
	slices.SortFunc(idx, func(x, y int) int {
		if score[x] != score[y] {
			if score[x] > score[y] {
				return -1
			}
			return 1
		}
		return strings.Compare(b.docs[x], b.docs[y])
	})
	out := make([]string, 0, min(k, len(idx)))
	for _, i := range idx[:min(k, len(idx))] {
		out = append(out, b.docs[i])
	}
	return out
}
