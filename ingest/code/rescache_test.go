package code

import (
	"fmt"
	"slices"
	"testing"
)

// shareAny agrees with a plain check on both of its ways (binary search
// for a short list, a walk of both otherwise).
func TestShareAny(t *testing.T) {
	many := func(prefix string, n int) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = fmt.Sprintf("%s%03d", prefix, i)
		}
		return out
	}
	for _, c := range []struct {
		name string
		a, b []string
		want bool
	}{
		{"both empty", nil, nil, false},
		{"one empty", nil, []string{"x"}, false},
		{"one in many, found", []string{"n050"}, many("n", 100), true},
		{"one in many, missing", []string{"m050"}, many("n", 100), false},
		{"many beside many, the last in common", append(many("a", 60), "z"), append(many("n", 100), "z"), true},
		{"many beside many, none in common", many("a", 60), many("n", 100), false},
		{"many beside many, the first in common", many("a", 60), append([]string{"a000"}, many("n", 100)...), true},
	} {
		t.Run(c.name, func(t *testing.T) {
			for _, swap := range []bool{false, true} {
				a, b := c.a, c.b
				if swap {
					a, b = b, a
				}
				naive := slices.ContainsFunc(a, func(x string) bool { return slices.Contains(b, x) })
				if got := shareAny(a, b); got != c.want || naive != c.want {
					t.Fatalf("shareAny = %v, naive %v, want %v", got, naive, c.want)
				}
			}
		})
	}
}
