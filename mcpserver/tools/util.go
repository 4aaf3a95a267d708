// Small helpers several tool families share.

package tools

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/m1nd-go/m1nd/core/analysis"
	"github.com/m1nd-go/m1nd/core/graph"
)

// plural is "1 class", "2 classes", "3 functions".
func Plural(n int, word string) string {
	switch {
	case n == 1:
	case strings.HasSuffix(word, "s"):
		word += "es"
	default:
		word += "s"
	}
	return fmt.Sprintf("%d %s", n, word)
}

// closestPaths suggests indexed files for a path that does not exist:
// files with the same base name first, then files whose base name is a few
// edits away, closest first (ties by path).
func closestPaths(gf *GraphFiles, p string, n int) []string {
	out := sameBase(gf, p, n)
	if len(out) >= n {
		return out
	}
	base := path.Base(p)
	type cand struct {
		p string
		d int
	}
	var cs []cand
	limit := max(2, len(base)/3)
	for _, f := range gf.Files {
		fb := path.Base(f.Path)
		if fb == base || abs(len(fb)-len(base)) > limit {
			continue
		}
		if d := EditDistance(strings.ToLower(fb), strings.ToLower(base)); d <= limit {
			cs = append(cs, cand{f.Path, d})
		}
	}
	slices.SortFunc(cs, func(a, b cand) int {
		if a.d != b.d {
			return a.d - b.d
		}
		return strings.Compare(a.p, b.p)
	})
	for _, c := range cs {
		if len(out) == n {
			break
		}
		out = append(out, c.p)
	}
	return out
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func NonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func MapsKeys[K comparable, V any](m map[K]V) func(func(K) bool) {
	return func(yield func(K) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

func Short(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}

func OrEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

func FirstN(s []string, n int) []string { return s[:min(len(s), n)] }

// shortID drops the "file::" prefix for compact phrases.
func ShortID(g *graph.Graph, id graph.NodeID) string {
	return strings.TrimPrefix(g.ExternalID(id), "file::")
}

// IsTestPath recognises test files by the usual conventions, as the
// engine's holes do (analysis.IsTestPath): one rule, so that audit and
// missing agree — audit's own list lacked __tests__/ (Jest), spec/ and
// conftest.py, and called immer's common.ts untested while a test in
// __tests__/ imports it and missing counted that test.
func IsTestPath(p string) bool { return analysis.IsTestPath(p) }

// IsDeclarationPath recognises a stub or TypeScript declaration file
// (analysis.IsDeclarationPath), which no test touches.
func IsDeclarationPath(p string) bool { return analysis.IsDeclarationPath(p) }

// Untestable recognises a file no test exercises (analysis.Untestable):
// a declaration file, a build description such as a Makefile, data.
func Untestable(p string) bool { return analysis.Untestable(p) }
