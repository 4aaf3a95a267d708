package resolve

import (
	"fmt"
	"strings"
	"testing"

	"github.com/m1nd-go/m1nd/ingest/extract"
)

// TestOwnerSegment: addFile's owner of a definition is the segment
// strings.Split(rest, "::") puts second to last, also where names hold
// single colons next to the separators (cleanName turns "::" inside a
// name into ":").
func TestOwnerSegment(t *testing.T) {
	for _, c := range []struct{ rest, want string }{
		{"F", ""},
		{"T::M", "T"},
		{"A::B::C", "B"},
		{"::M", ""},
		{"T::", "T"},
		{"a:::b", "a"},
		{"a::::b", ""},
		{"x:::y:::z", ":y"},
		{"", ""},
	} {
		if got := ownerSegment(c.rest); got != c.want {
			t.Errorf("ownerSegment(%q) = %q, want %q", c.rest, got, c.want)
		}
	}
}

// FuzzOwnerSegment: ownerSegment agrees with strings.Split on any ID.
func FuzzOwnerSegment(f *testing.F) {
	for _, s := range []string{"T::M", "a:::b", "::", "x::y::z::"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, rest string) {
		want := ""
		if segs := strings.Split(rest, "::"); len(segs) > 1 {
			want = segs[len(segs)-2]
		}
		if got := ownerSegment(rest); got != want {
			t.Errorf("ownerSegment(%q) = %q, strings.Split says %q", rest, got, want)
		}
	})
}

// TestNewAllocationsPerDefinition: New sizes its candidates once, builds
// a file's label map only for base-type edges and looks later results up
// without building their keys, so indexing one more definition costs a
// few allocations (its byLabel and byOwner lists), not a share of regrown
// arrays, a split ID, two map entries and three keys.
func TestNewAllocationsPerDefinition(t *testing.T) {
	results := func(files int) []*extract.Result {
		var rs []*extract.Result
		for i := range files {
			r := file(fmt.Sprintf("vendor/golang.org/x/net/p%d/a.go", i), "go",
				fmt.Sprintf("func F%d", i), fmt.Sprintf("struct T%d", i),
				fmt.Sprintf("func T%d::M", i), fmt.Sprintf("func T%d::N", i))
			// F returns (T, error): its second result is keyed F#1.
			f := r.Nodes[1].ID
			r.Returns = map[string]extract.TypeRef{f: {Name: r.Nodes[2].Label}, extract.ResultKey(f, 1): {Name: "error"}}
			rs = append(rs, r)
		}
		return rs
	}
	small, large := results(100), results(300)
	a := testing.AllocsPerRun(5, func() { New(small, nil) })
	b := testing.AllocsPerRun(5, func() { New(large, nil) })
	perDef := (b - a) / (4 * 200)
	// Before: 6.8 a definition (IDs past the 32 bytes a concatenation
	// finds on the stack); now 2.8.
	if perDef > 3.5 {
		t.Errorf("New: %.2f allocations a definition (%.0f for 400, %.0f for 1,200), want at most 3.5", perDef, a, b)
	}
	ix := New(large, nil)
	if n := len(ix.byLabel["M"]); n != 300 {
		t.Errorf("definitions labelled M: %d, want 300", n)
	}
	if n := len(ix.byOwner[[2]string{"T7", "N"}]); n != 1 {
		t.Errorf("T7's N: %d, want 1", n)
	}
	if len(ix.laterRets) != 300 {
		t.Errorf("later results: %d, want 300 (F's error)", len(ix.laterRets))
	}
}
