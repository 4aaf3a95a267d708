package patterns

import (
	"cmp"
	"slices"

	"github.com/m1nd-go/m1nd/core/analysis"
	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/history"
)

// Defaults of GhostParams (docs/design.md#patterns).
const (
	DefaultGhostSupport  = 2
	DefaultGhostMaxGroup = 20
	DefaultGhostCommits  = 20_000
	// ghostSupportK discounts confidence seen in few commits, as predict
	// does: conf · n/(n+k).
	ghostSupportK = 2.0
)

// GhostParams configures Ghosts.
type GhostParams struct {
	// Since: only commits at or after this time (Unix seconds; 0: all).
	Since int64
	// MinSupport is the least number of joint commits (0: 2).
	MinSupport int
	// MaxGroup: commits of more files are left out — a sweeping rename
	// says nothing about one pair (0: 20).
	MaxGroup int
	// MaxCommits bounds the commits read, newest first (0: 20,000).
	MaxCommits int
	// Keep admits the files that may appear (code files); Focus, when
	// set, keeps the pairs with at least one file it admits (a scope).
	Keep, Focus func(graph.NodeID) bool
	// TopK bounds the ghosts returned (0: all).
	TopK int
}

// Ghost is a pair of files, A < B, that changed together with no static
// dependency between them.
type Ghost struct {
	A, B graph.NodeID
	// Support counts the commits that changed both; Confidence is the
	// larger of Support over each file's own commits (in [0, 1]).
	Support    int
	Confidence float64
	// Score ranks: Confidence discounted for little support.
	Score float64
	// Last is the newest joint commit's time.
	Last int64
}

// GhostResult is Ghosts' answer.
type GhostResult struct {
	Ghosts []Ghost
	// Total counts the ghosts found; Coupled the pairs with enough support
	// before the static dependencies were taken out; Commits the commits
	// read.
	Total, Coupled, Commits int
}

// Ghosts finds the file pairs of x that change together (at least
// MinSupport joint commits) with no static dependency either way in deps
// (a file-level dependency view of x's graph) — neither direct nor
// through one file between them — best score first, ties by support,
// then A, then B.
func Ghosts(x *history.Index, deps *analysis.DepGraph, p GhostParams) GhostResult {
	p.MinSupport = cmp.Or(p.MinSupport, DefaultGhostSupport)
	p.MaxGroup = cmp.Or(p.MaxGroup, DefaultGhostMaxGroup)
	p.MaxCommits = cmp.Or(p.MaxCommits, DefaultGhostCommits)
	type pair struct{ a, b graph.NodeID }
	joint := map[pair]*Ghost{}
	own := map[graph.NodeID]int{}
	var res GhostResult
	var files []graph.NodeID
	for i := 0; i < x.Len() && res.Commits < p.MaxCommits; i++ {
		c := x.Commit(i)
		if c.Time < p.Since {
			continue
		}
		res.Commits++
		files = files[:0]
		for _, f := range x.CommitFiles(i) {
			if p.Keep == nil || p.Keep(f) {
				files = append(files, f)
			}
		}
		if len(files) > p.MaxGroup {
			continue
		}
		for k, a := range files {
			own[a]++
			for _, b := range files[k+1:] {
				if p.Focus != nil && !p.Focus(a) && !p.Focus(b) {
					continue
				}
				g := joint[pair{a, b}]
				if g == nil {
					g = &Ghost{A: a, B: b, Last: c.Time}
					joint[pair{a, b}] = g
				}
				g.Support++
				g.Last = max(g.Last, c.Time)
			}
		}
	}
	var out []Ghost
	for _, g := range joint {
		if g.Support < p.MinSupport {
			continue
		}
		res.Coupled++
		if depends(deps, g.A, g.B) || depends(deps, g.B, g.A) {
			continue
		}
		g.Confidence = round3(float64(g.Support) / float64(max(1, min(own[g.A], own[g.B]))))
		g.Score = round3(g.Confidence * float64(g.Support) / (float64(g.Support) + ghostSupportK))
		out = append(out, *g)
	}
	slices.SortFunc(out, func(a, b Ghost) int {
		return cmp.Or(cmp.Compare(b.Score, a.Score), cmp.Compare(b.Support, a.Support), cmp.Compare(a.A, b.A), cmp.Compare(a.B, b.B))
	})
	res.Total = len(out)
	if p.TopK > 0 && len(out) > p.TopK {
		out = out[:p.TopK]
	}
	res.Ghosts = out
	return res
}

// depends reports whether file a depends on file b in deps, directly or
// through one file between them (a test of a module that uses b): such
// a pair's co-change is explained by the code.
func depends(deps *analysis.DepGraph, a, b graph.NodeID) bool {
	ua, ub := deps.Unit(a), deps.Unit(b)
	if ua == graph.NoNode || ub == graph.NoNode {
		return false
	}
	direct := deps.Dependencies(ua)
	if _, ok := slices.BinarySearch(direct, ub); ok {
		return true
	}
	for _, m := range direct {
		if _, ok := slices.BinarySearch(deps.Dependencies(m), ub); ok {
			return true
		}
	}
	return false
}
