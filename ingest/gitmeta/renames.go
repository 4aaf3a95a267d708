package gitmeta

import (
	"bytes"
	"io"
	"path"
	"slices"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// A file moved by a commit keeps its history: walking newest first, a
// rename old → new makes every older commit that touched old count as a
// change of new (what `git log --follow` shows for one file). Without
// this, a repository that moved its sources (src/ → packages/x/src/)
// would start every file's history at the move, and co-change, change
// frequency and timelines would forget everything before it.

// blobEntry is a file a commit added or deleted.
type blobEntry struct {
	path string
	hash plumbing.Hash
}

// Rename detection bounds: blobs larger than maxRenameBlob are paired only
// when identical; a commit with more than maxRenamePairs added × deleted
// files compares contents only between files of the same name, and not
// at all for a name more than maxSameName added files share (a tree of
// index.ts or __init__.py files moved and edited is paired by identical
// contents only, instead of every file against every other).
const (
	maxRenameBlob  = 1 << 20
	maxRenamePairs = 64
	maxSameName    = 8
	// minSimilarity is git's default rename threshold (-M50%).
	minSimilarity = 0.5
)

// renames pairs a commit's deleted files with its added ones, as git's
// rename detection does: identical contents first, then files of the
// same base name (or any, in small commits) whose lines are at least half
// the same. It returns old → new paths.
func (r *reader) renames(deleted, added []blobEntry) map[string]string {
	if len(deleted) == 0 || len(added) == 0 {
		return nil
	}
	out := map[string]string{}
	usedNew := map[string]bool{}
	// Identical contents, preferring the same base name.
	byHash := map[plumbing.Hash][]blobEntry{}
	for _, a := range added {
		byHash[a.hash] = append(byHash[a.hash], a)
	}
	for _, d := range deleted {
		cands := byHash[d.hash]
		best := -1
		for i, a := range cands {
			if usedNew[a.path] {
				continue
			}
			if best < 0 || (path.Base(a.path) == path.Base(d.path) && path.Base(cands[best].path) != path.Base(d.path)) {
				best = i
			}
		}
		if best >= 0 {
			out[d.path] = cands[best].path
			usedNew[cands[best].path] = true
		}
	}
	// Similar contents.
	all := len(deleted)*len(added) <= maxRenamePairs
	type pair struct {
		d, a blobEntry
		sim  float64
	}
	var pairs []pair
	lines := map[plumbing.Hash]*lineSet{}
	byName := map[string]int{}
	if !all {
		for _, a := range added {
			byName[path.Base(a.path)]++
		}
	}
	for _, d := range deleted {
		if r.ctx.Err() != nil {
			return out // called off: the caller checks
		}
		if _, done := out[d.path]; done || (!all && byName[path.Base(d.path)] > maxSameName) {
			continue
		}
		for _, a := range added {
			if usedNew[a.path] || (!all && path.Base(a.path) != path.Base(d.path)) {
				continue
			}
			if s := r.similarity(d.hash, a.hash, lines); s >= minSimilarity {
				pairs = append(pairs, pair{d, a, s})
			}
		}
	}
	// Best pairs first, ties by paths: deterministic.
	slices.SortFunc(pairs, func(x, y pair) int {
		if x.sim != y.sim {
			if x.sim > y.sim {
				return -1
			}
			return 1
		}
		if c := strings.Compare(x.d.path, y.d.path); c != 0 {
			return c
		}
		return strings.Compare(x.a.path, y.a.path)
	})
	for _, p := range pairs {
		if _, done := out[p.d.path]; done || usedNew[p.a.path] {
			continue
		}
		out[p.d.path] = p.a.path
		usedNew[p.a.path] = true
	}
	r.pairMissing(deleted, added, out, usedNew)
	return out
}

// pairMissing pairs by path (pairByPath) the files left unpaired whose
// contents could not be compared because a blob is missing (a partial
// clone), as the git command reader does there.
func (r *reader) pairMissing(deleted, added []blobEntry, out map[string]string, usedNew map[string]bool) {
	var dl, al []string
	hashes := map[string]plumbing.Hash{}
	for _, d := range deleted {
		if _, done := out[d.path]; !done {
			dl, hashes[d.path] = append(dl, d.path), d.hash
		}
	}
	for _, a := range added {
		if !usedNew[a.path] {
			al, hashes[a.path] = append(al, a.path), a.hash
		}
	}
	if len(dl) == 0 || len(al) == 0 {
		return
	}
	for d, a := range pairByPath(dl, al) {
		if r.s.HasEncodedObject(hashes[d]) != nil || r.s.HasEncodedObject(hashes[a]) != nil {
			out[d] = a
		}
	}
}

// similarity is the share of lines two blobs have in common (as a
// multiset, over the longer of the two); 0 when either is unreadable,
// too large or binary.
func (r *reader) similarity(a, b plumbing.Hash, memo map[plumbing.Hash]*lineSet) float64 {
	la, lb := r.lines(a, memo), r.lines(b, memo)
	if la == nil || lb == nil || max(la.n, lb.n) == 0 {
		return 0
	}
	common := 0
	for l, n := range la.count {
		common += min(n, lb.count[l])
	}
	return float64(common) / float64(max(la.n, lb.n))
}

// lineSet is a blob's non-blank lines, trimmed, with their count.
type lineSet struct {
	count map[string]int
	n     int
}

// lines reads a blob's lines once (nil when it cannot be compared).
func (r *reader) lines(h plumbing.Hash, memo map[plumbing.Hash]*lineSet) *lineSet {
	if ls, ok := memo[h]; ok {
		return ls
	}
	memo[h] = nil
	b, err := object.GetBlob(r.s, h)
	if err != nil || b.Size > maxRenameBlob {
		return nil
	}
	rd, err := b.Reader()
	if err != nil {
		return nil
	}
	data, err := io.ReadAll(rd)
	_ = rd.Close()
	if err != nil || bytes.IndexByte(data, 0) >= 0 {
		return nil
	}
	ls := &lineSet{count: map[string]int{}}
	for _, l := range strings.Split(string(data), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			ls.count[l]++
			ls.n++
		}
	}
	memo[h] = ls
	return ls
}

// follow maps a commit's changed paths to the names they have at HEAD,
// then records the commit's renames for the older commits still to come.
func follow(alias map[string]string, changed []string, renames map[string]string) []string {
	resolve := func(p string) string {
		for range 64 { // rename chains are short; a cycle must not hang
			q, ok := alias[p]
			if !ok {
				return p
			}
			p = q
		}
		return p
	}
	for old, nw := range renames {
		alias[old] = resolve(nw)
	}
	if len(alias) == 0 {
		return changed
	}
	out := make([]string, len(changed))
	for i, p := range changed {
		out[i] = resolve(p)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// maxPathPairs bounds the path comparisons pairByPath makes for one
// commit (a tree of thousands of same-named files moved at once).
const maxPathPairs = 1 << 16

// pairByPath pairs a commit's deleted files with its added ones without
// reading a blob: a deleted file goes to the added file of the same base
// name that shares the longest path tail with it, when each is the
// other's only best. Where blobs are missing (a partial clone), this
// follows the moves git's identical-content pairing misses because the
// file was also edited (docs/design.md#git-history; figures in
// benchmarks/results/renames.md). Files renamed to another base name
// stay unpaired: that takes the contents.
func pairByPath(deleted, added []string) map[string]string {
	byBase := map[string][]string{}
	for _, a := range added {
		byBase[path.Base(a)] = append(byBase[path.Base(a)], a)
	}
	type best struct {
		to    string
		score int
		tie   bool
	}
	bd, ba := map[string]best{}, map[string]best{}
	better := func(m map[string]best, k, to string, s int) {
		switch b, ok := m[k]; {
		case !ok || s > b.score:
			m[k] = best{to, s, false}
		case s == b.score:
			b.tie = true
			m[k] = b
		}
	}
	work := 0
	for _, d := range deleted {
		cands := byBase[path.Base(d)]
		if work += len(cands); work > maxPathPairs {
			return nil
		}
		for _, a := range cands {
			s := commonTail(d, a)
			better(bd, d, a, s)
			better(ba, a, d, s)
		}
	}
	out := map[string]string{}
	for d, b := range bd {
		if rb := ba[b.to]; !b.tie && !rb.tie && rb.to == d {
			out[d] = b.to
		}
	}
	return out
}

// commonTail counts the trailing path elements two paths share.
func commonTail(a, b string) int {
	x, y := strings.Split(a, "/"), strings.Split(b, "/")
	n := 0
	for n < len(x) && n < len(y) && x[len(x)-1-n] == y[len(y)-1-n] {
		n++
	}
	return n
}
