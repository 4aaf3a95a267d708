package code

import (
	"fmt"
	"maps"
	"reflect"
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
				if got := shareAny(a, packNames(b)); got != c.want || naive != c.want {
					t.Fatalf("shareAny = %v, naive %v, want %v", got, naive, c.want)
				}
			}
		})
	}
}

// A nameList holds its names in one string: each is found at its place
// and by search, no other is found, and the list holds no pointer a name.
func TestNameListPacks(t *testing.T) {
	for _, tc := range []struct {
		name   string
		in     []string
		absent []string
	}{
		{"none", nil, []string{"", "a"}},
		{"one", []string{"Errorf"}, []string{"", "Error", "Errorfx"}},
		{"empty name first", []string{"", "a", "ab", "b"}, []string{"aa", "c"}},
		{"prefixes", []string{"fmt", "fmt.Errorf", "fmt.Sprint", "fmt.Sprintf"}, []string{"fm", "fmt.", "fmt.Sprin", "fmt.Sprintfx"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := packNames(tc.in)
			if l.len() != len(tc.in) {
				t.Fatalf("len %d, want %d", l.len(), len(tc.in))
			}
			for i, x := range tc.in {
				if l.at(i) != x || !l.has(x) {
					t.Errorf("at(%d) = %q, has(%q) = %v; want %q, true", i, l.at(i), x, l.has(x), x)
				}
			}
			for _, x := range tc.absent {
				if l.has(x) {
					t.Errorf("has(%q) = true, want false", x)
				}
			}
		})
	}
	if got := sortedSet([]string{"b", "a", "b", "c", "a"}); got.len() != 3 || got.s != "abc" || cap(got.end) != 3 {
		t.Errorf("sortedSet packed %q ends %v (cap %d), want \"abc\" in 3 exact ends", got.s, got.end, cap(got.end))
	}
	if k := reflect.TypeOf(nameList{}.end).Elem().Kind(); k == reflect.String || k == reflect.Pointer {
		t.Errorf("a name ends in a %v: the collector scans it", k)
	}
}

// markMoved on packed definitions marks exactly the labels whose runs of
// definitions differ (sig, typ or number), and typeNames when a type's did.
func TestMarkMovedPacked(t *testing.T) {
	d := func(label string, sig uint64, typ bool) labelDef { return labelDef{label: label, sig: sig, typ: typ} }
	base := []labelDef{d("A", 1, true), d("B", 2, false), d("B", 3, false), d("C", 4, false)}
	for _, tc := range []struct {
		name      string
		old, cur  []labelDef
		want      []string
		typeNames bool
	}{
		{"same", base, base, nil, false},
		{"both empty", nil, nil, nil, false},
		{"a body edit: nothing moved", base, slices.Clone(base), nil, false},
		{"a sig moved in a run", base, []labelDef{d("A", 1, true), d("B", 2, false), d("B", 9, false), d("C", 4, false)}, []string{"B"}, false},
		{"a run grew", base, []labelDef{d("A", 1, true), d("B", 2, false), d("B", 3, false), d("B", 5, false), d("C", 4, false)}, []string{"B"}, false},
		{"a label came", base, []labelDef{d("A", 1, true), d("AB", 7, false), d("B", 2, false), d("B", 3, false), d("C", 4, false)}, []string{"AB"}, false},
		{"the last label went", base, base[:3], []string{"C"}, false},
		{"the first label went", base, base[1:], []string{"A"}, true},
		{"a type became a function", base, []labelDef{d("A", 1, false), d("B", 2, false), d("B", 3, false), d("C", 4, false)}, []string{"A"}, true},
		{"all new", nil, base, []string{"A", "B", "C"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := &staleness{labels: map[string]bool{}}
			s.markMoved(packDefs(tc.old), packDefs(tc.cur))
			if got := slices.Sorted(maps.Keys(s.labels)); !slices.Equal(got, tc.want) || s.typeNames != tc.typeNames {
				t.Errorf("marked %q, typeNames %v; want %q, %v", got, s.typeNames, tc.want, tc.typeNames)
			}
		})
	}
}

// TestOutcomesPacked checks that the resolve cache keeps outcomes packed
// (a status and a target index each, each distinct target once, variants
// aside, in exact-size arrays) and gives back what the resolver found,
// File and Node aside (a later run looks targets up by ID).
func TestOutcomesPacked(t *testing.T) {
	rs := []resolve.Result{
		{Status: resolve.Unresolved, File: -1, Node: -1},
		{Status: resolve.Resolved, Target: "file::a.go::F", File: 3, Node: 7},
		{Status: resolve.Ambiguous, Target: "file::b_linux.go::G", File: 4, Node: 1, Also: []string{"file::b_windows.go::G"}},
		{Status: resolve.Resolved, Target: "file::a.go::F", File: 3, Node: 7},
		{Status: resolve.Unresolved, File: -1, Node: -1},
		{Status: resolve.Resolved, Target: "file::a.go::F", File: 3, Node: 7},
	}
	o := packOutcomes(rs)
	if cap(o.status) != len(rs) || cap(o.target) != len(rs) || len(o.also) != 1 {
		t.Fatalf("packed: %d/%d statuses, %d/%d targets, %d variants; want exact-size arrays and one variant", len(o.status), cap(o.status), len(o.target), cap(o.target), len(o.also))
	}
	if want := []string{"", "file::a.go::F", "file::b_linux.go::G"}; !slices.Equal(o.targets, want) || cap(o.targets) != len(want) {
		t.Errorf("distinct targets %q (cap %d), want %q in an exact-size array", o.targets, cap(o.targets), want)
	}
	if k := reflect.TypeOf(o.target).Elem().Kind(); k == reflect.String || k == reflect.Pointer {
		t.Errorf("a target a reference is a %v: the collector scans it", k)
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
