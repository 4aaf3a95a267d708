package analysis

import (
	"strings"
	"testing"
)

// TestHypothesizeCircularRuntime: a cycle is an import-order problem at
// run time, so a type-only import (imports::type) closes none — as in
// layers. a.py imports b.py, which imports a.py only under `if
// TYPE_CHECKING:` (the starlette shape); c.py and d.py import each other
// for real. A cycle only type-only imports close is said in a note.
func TestHypothesizeCircularRuntime(t *testing.T) {
	g := build(t, []string{"a.py", "b.py", "c.py", "d.py", "e.py"}, []e{
		{"a.py", "b.py", "imports", 1},
		{"b.py", "a.py", TypeImports, 1},
		{"b.py", "a.py", "calls", 1}, // a call the type-only link stands for
		{"c.py", "d.py", "imports", 1},
		{"d.py", "c.py", "imports", 1},
		{"e.py", "a.py", "imports", 1},
	})
	p := DefaultHypothesisParams()
	p.IncludeGhostEdges = false
	for _, tc := range []struct {
		claim    string
		verdict  string
		typeNote bool
	}{
		{"a.py and b.py depend on each other", VerdictLikelyFalse, true},
		{"b.py has a circular import", VerdictLikelyFalse, true},
		{"c.py and d.py depend on each other", VerdictLikelyTrue, false},
		{"c.py has a circular import", VerdictLikelyTrue, false},
		{"e.py has a circular dependency", VerdictLikelyFalse, false},
	} {
		res := claimOn(t, g, tc.claim, p)
		note := ""
		for _, ev := range res.ContradictingEvidence {
			if ev.Type == "type_only_cycle" {
				note = ev.Description
			}
		}
		if res.Verdict != tc.verdict || (note != "") != tc.typeNote {
			t.Errorf("%q: %s (%.3f), type-only note %q; want %s, note %v\n%+v", tc.claim, res.Verdict, res.Confidence, note, tc.verdict, tc.typeNote, res)
		}
		if tc.typeNote && !strings.Contains(note, "b.py -"+TypeImports+"-> a.py") {
			t.Errorf("%q: the note names no type-only link: %q", tc.claim, note)
		}
	}
	// Impact still follows the type-only link.
	if res := claimOn(t, g, "b.py depends on a.py", p); res.Verdict != VerdictLikelyTrue {
		t.Errorf("b.py depends on a.py: %s, want %s", res.Verdict, VerdictLikelyTrue)
	}
}
