package code

import (
	"fmt"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/m1nd-go/m1nd/ingest/resolve"
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

// TestOutcomesPacked checks that the resolve cache keeps outcomes packed
// (a status and a target each, variants aside, in exact-size arrays) and
// gives back what the resolver found, File and Node aside (a later run
// looks targets up by ID).
func TestOutcomesPacked(t *testing.T) {
	rs := []resolve.Result{
		{Status: resolve.Unresolved, File: -1, Node: -1},
		{Status: resolve.Resolved, Target: "file::a.go::F", File: 3, Node: 7},
		{Status: resolve.Ambiguous, Target: "file::b_linux.go::G", File: 4, Node: 1, Also: []string{"file::b_windows.go::G"}},
	}
	o := packOutcomes(rs)
	if cap(o.status) != len(rs) || cap(o.target) != len(rs) || len(o.also) != 1 {
		t.Fatalf("packed: %d/%d statuses, %d/%d targets, %d variants; want exact-size arrays and one variant", len(o.status), cap(o.status), len(o.target), cap(o.target), len(o.also))
	}
	want := slices.Clone(rs)
	for j := range want {
		want[j].File, want[j].Node = -1, -1
	}
	if got := o.unpack(); !cmp.Equal(got, want) {
		t.Errorf("unpacked:\n%+v\nwant\n%+v", got, want)
	}
	if got := (outcomes{}).unpack(); got != nil {
		t.Errorf("no outcomes unpack to %v, want nil", got)
	}
}
