package seed

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/m1nd-go/m1nd/core/graph"
)

// The keys held as spans of one string answer equal and prefix lookups as
// a plain scan of the (key, node) pairs does: sorted by key then node,
// each pair once, empty compact keys and a stem equal to its label left
// out, a path's suffixes after each '/'.
func TestSortedKeysAgreeWithAScan(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	words := []string{"", "a", "ab", "abc", "Ab_c", "b", "ba", "x/y", "db", "DB", "é", "__"}
	type pair struct {
		key  string
		node graph.NodeID
	}
	for trial := range 200 {
		var b, paths keyBuilder
		var want, wantPaths []pair
		for i := range r.IntN(30) {
			node := graph.NodeID(r.IntN(8))
			s := words[r.IntN(len(words))] + words[r.IntN(len(words))]
			var unlike []byte
			if i%3 == 0 {
				unlike = []byte(compactOf(words[r.IntN(len(words))]))
			}
			c := compactOf(s)
			if _, ok := b.addCompact(s, node, unlike); ok != (c != "" && (unlike == nil || c != string(unlike))) {
				t.Fatalf("trial %d: addCompact(%q, unlike %q) = %v", trial, s, unlike, ok)
			} else if ok {
				want = append(want, pair{c, node})
			}
			p := strings.ToLower(s)
			paths.addPath(p, node)
			wantPaths = append(wantPaths, pair{p, node})
			for j := 0; j < len(p)-1; j++ {
				if p[j] == '/' {
					wantPaths = append(wantPaths, pair{p[j+1:], node})
				}
			}
		}
		for _, c := range []struct {
			keys  sortedKeys
			pairs []pair
		}{{b.build(), want}, {paths.build(), wantPaths}} {
			slices.SortFunc(c.pairs, func(x, y pair) int {
				if d := strings.Compare(x.key, y.key); d != 0 {
					return d
				}
				return int(x.node) - int(y.node)
			})
			pairs := slices.Compact(c.pairs)
			for _, q := range append(slices.Clone(words), "", "abab", "y", "x/", "zzz") {
				q = strings.ToLower(q)
				var eq, pre []graph.NodeID
				for _, p := range pairs {
					if p.key == q {
						eq = append(eq, p.node)
					}
					if strings.HasPrefix(p.key, q) {
						pre = append(pre, p.node)
					}
				}
				if got := c.keys.equalRange(q); !slices.Equal(got, eq) {
					t.Fatalf("trial %d: equalRange(%q) = %v, want %v", trial, q, got, eq)
				}
				if got := c.keys.prefixRange(q); !slices.Equal(got, pre) {
					t.Fatalf("trial %d: prefixRange(%q) = %v, want %v", trial, q, got, pre)
				}
			}
		}
	}
}

func compactOf(s string) string {
	var out []rune
	for _, r := range strings.ToLower(s) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == 'é' {
			out = append(out, r)
		}
	}
	return string(out)
}
