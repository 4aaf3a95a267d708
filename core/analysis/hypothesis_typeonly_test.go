package analysis

import (
	"strings"
	"testing"
)

// TestHypothesizeTypeOnlyHub is jd/tenacity's shape: stop.py imports the
// package tenacity/__init__.py under `if TYPE_CHECKING:` for the one
// class it defines (State), and __init__.py imports every module, wait.py
// among them; at run time stop.py imports _utils.py alone. A type-only
// import names symbols, not what their module imports in turn: at run
// time stop.py does not depend on wait.py, and without "at runtime" the
// claim is left open (the type checker follows the chain) rather than
// true. A direct type-only import is a type dependency, said as such.
func TestHypothesizeTypeOnlyHub(t *testing.T) {
	g := build(t, []string{"pkg/__init__.py", "pkg/stop.py", "pkg/wait.py", "pkg/_utils.py", "pkg/app.py"}, []e{
		{"pkg/stop.py", "pkg/__init__.py", TypeImports, 1},
		{"pkg/stop.py", "pkg/_utils.py", "imports", 1},
		{"pkg/__init__.py", "pkg/wait.py", "imports", 1},
		{"pkg/__init__.py", "pkg/stop.py", "imports", 1},
		{"pkg/app.py", "pkg/__init__.py", "imports", 1},
	})
	p := DefaultHypothesisParams()
	p.IncludeGhostEdges = false
	for _, tc := range []struct {
		claim, verdict, evidence, says string
	}{
		{"pkg/stop.py depends on pkg/wait.py", VerdictInconclusive, "type_only_chain", "pkg/stop.py -" + TypeImports + "-> pkg/__init__.py -imports-> pkg/wait.py"},
		{"pkg/stop.py depends on pkg/wait.py at runtime", VerdictLikelyFalse, "type_only_chain", "at run time it is no dependency"},
		{"pkg/stop.py does not depend on pkg/wait.py at runtime", VerdictLikelyTrue, "no_path", "no run-time dependency chain"},
		{"changing pkg/wait.py breaks pkg/stop.py", VerdictInconclusive, "type_only_chain", "no run-time chain"},
		{"pkg/stop.py depends on pkg/__init__.py at run time", VerdictLikelyFalse, "type_dependency", "a type dependency only"},
		{"pkg/stop.py depends on pkg/__init__.py", VerdictLikelyTrue, "type_dependency", "a type dependency only"},
		{"pkg/app.py depends on pkg/wait.py", VerdictLikelyTrue, "path_found", "via pkg/__init__.py"},
	} {
		res := claimOn(t, g, tc.claim, p)
		found := ""
		for _, ev := range append(append([]Evidence{}, res.SupportingEvidence...), res.ContradictingEvidence...) {
			if ev.Type == tc.evidence {
				found = ev.Description
			}
		}
		if res.Verdict != tc.verdict || !strings.Contains(found, tc.says) {
			t.Errorf("%q: %s (%.3f), %s %q; want %s and %s saying %q\n%+v", tc.claim, res.Verdict, res.Confidence, tc.evidence, found, tc.verdict, tc.evidence, tc.says, res)
		}
	}
}
