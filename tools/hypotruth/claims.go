// Package hypotruth measures hypothesize against ground truth: claims
// "A depends on B" about files of real repositories, true and false by
// each language's own tools (tools/deptruth), asked through the real
// server; the verdicts are tallied per kind of claim.
//
// Its phases: Claims samples the claims from a truth, Ask puts them to a
// server, Tally counts the verdicts.
package hypotruth

import (
	"hash/fnv"
	"slices"

	"github.com/m1nd-go/m1nd/tools/deptruth"
)

// Kinds of claims, by what the truth says.
const (
	// Direct: B is among A's direct dependencies (true).
	Direct = "direct"
	// Transitive: A reaches B through two or three dependencies, never
	// directly (true).
	Transitive = "transitive"
	// Reverse: B depends on A directly and A does not reach B (false:
	// the dependency runs the other way).
	Reverse = "reverse"
	// Unrelated: A does not reach B at all (false).
	Unrelated = "unrelated"
)

// Claim is "A depends on B" with what the truth says about it.
type Claim struct {
	Kind string `json:"kind"`
	A    string `json:"a"`
	B    string `json:"b"`
	// True is the truth's answer (every import counts, type-only ones
	// too).
	True bool `json:"true"`
	// RuntimeTrue is the run-time truth's: A reaches B at any distance
	// through imports that run (MarkRuntime; a Python import under `if
	// TYPE_CHECKING:` does not). The claims are still sampled from the
	// all-imports truth, so the two tallies are over the same claims.
	RuntimeTrue bool `json:"runtime_true"`
	// Hops is the shortest dependency chain from A to B (0: none).
	Hops int `json:"hops"`
}

// Claims samples up to per claims of each kind from t, deterministically
// (evenly over the sorted candidates; unrelated pairs by a hash of A).
func Claims(t *deptruth.Truth, per int) []Claim {
	var direct, trans, reverse, unrelated []Claim
	for _, a := range t.Files {
		dist := reach(t, a)
		for _, b := range t.Deps[a] {
			direct = append(direct, Claim{Kind: Direct, A: a, B: b, True: true, Hops: 1})
		}
		var far []string
		for _, b := range t.Files {
			switch d := dist[b]; {
			case b == a:
			case d == 2 || d == 3:
				trans = append(trans, Claim{Kind: Transitive, A: a, B: b, True: true, Hops: d})
			case d == 0:
				far = append(far, b)
			}
		}
		for _, b := range far {
			if slices.Contains(t.Deps[b], a) {
				reverse = append(reverse, Claim{Kind: Reverse, A: a, B: b})
			}
		}
		if len(far) > 0 {
			h := fnv.New32a()
			h.Write([]byte(a))
			b := far[int(h.Sum32()%uint32(len(far)))]
			unrelated = append(unrelated, Claim{Kind: Unrelated, A: a, B: b})
		}
	}
	var out []Claim
	for _, cs := range [][]Claim{direct, trans, reverse, unrelated} {
		out = append(out, spread(cs, per)...)
	}
	return out
}

// reach maps every file a reaches to its distance (a itself: absent).
func reach(t *deptruth.Truth, a string) map[string]int {
	dist := map[string]int{}
	frontier := []string{a}
	for d := 1; len(frontier) > 0; d++ {
		var next []string
		for _, f := range frontier {
			for _, b := range t.Deps[f] {
				if _, seen := dist[b]; !seen && b != a {
					dist[b] = d
					next = append(next, b)
				}
			}
		}
		frontier = next
	}
	return dist
}

// spread keeps n items evenly spaced over cs (all when fewer).
func spread(cs []Claim, n int) []Claim {
	if len(cs) <= n {
		return cs
	}
	out := make([]Claim, 0, n)
	for i := range n {
		out = append(out, cs[i*len(cs)/n])
	}
	return out
}

// MarkRuntime sets each claim's RuntimeTrue from rt, the run-time truth
// of the same files.
func MarkRuntime(claims []Claim, rt *deptruth.Truth) {
	reached := map[string]map[string]int{}
	for i, c := range claims {
		if reached[c.A] == nil {
			reached[c.A] = reach(rt, c.A)
		}
		claims[i].RuntimeTrue = reached[c.A][c.B] > 0
	}
}
