package seek

import (
	"slices"
	"testing"
)

// nameIDs looks the vocabulary up from the tokenizer's bytes: its IDs are
// those of stemTerms' strings, and it makes no string per term (a name is
// looked up for every candidate file of every query).
func TestNameIDsMakesNoTermStrings(t *testing.T) {
	x, _ := namesFixture(t, DefaultOptions())
	id := func(s string) uint32 {
		if i, ok := x.vocab.lookup(s); ok {
			return i
		}
		return ^uint32(0)
	}
	for _, tc := range []struct {
		name string
		// 2-3 a call (the name's bytes, the returned slices); 9-28 when
		// each term was a string and each call grew its own buffers. The
		// slack is for the race detector, which drops pooled tokenizers.
		maxAllocs float64
	}{
		{"config_loader", 7},
		{"HTTPServerConfigLoaderValidators", 8},
		{"validators", 5},
		{"as-promise", 5},
		{"unicode4-1-0", 7},
	} {
		ps, cs, dropped := stemTerms(tc.name)
		var want []uint32
		repeated := false
		for _, s := range ps {
			if i := id(s); slices.Contains(want, i) {
				repeated = true
			} else {
				want = append(want, i)
			}
		}
		var wantC []uint32
		for _, s := range cs {
			wantC = append(wantC, id(s))
		}
		p, c, r, d := x.nameIDs(tc.name)
		if !slices.Equal(p, want) || !slices.Equal(c, wantC) || r != repeated || d != dropped {
			t.Errorf("nameIDs(%q) = %v %v %v %v, want %v %v %v %v", tc.name, p, c, r, d, want, wantC, repeated, dropped)
		}
		got := testing.AllocsPerRun(50, func() { x.nameIDs(tc.name) })
		if got > tc.maxAllocs {
			t.Errorf("nameIDs(%q): %.0f allocations a call, want at most %.0f (a string per term?)", tc.name, got, tc.maxAllocs)
		}
	}
}
