package documents

import (
	"strings"
	"testing"
)

// An answer without findings says what it rests on: on tenacity the hint
// read "every bound code file changed before its document did" while the
// code had changed two years after the page (the changes were checked and
// cleared, which is what the hint must say).
func TestNoDriftHintSaysWhatItRestsOn(t *testing.T) {
	for _, tc := range []struct {
		name string
		s    driftSummary
		want string
	}{
		{"cleared", driftSummary{ClearedByLines: 2, ClearedByTypes: 7, ClearedBySurface: 1}, "the 10 bound code changes after their pages left"},
		{"unchecked", driftSummary{UncheckedChanges: 4, ClearedByLines: 1}, "4 bound code changes came after their pages"},
		{"nothing changed", driftSummary{}, "no bound code changed after its page"},
		// pyserial and Python-Markdown answered only ambiguous names, and
		// the hint said every named member exists.
		{"ambiguous only", driftSummary{AmbiguousTargets: 34, ClearedByLines: 2}, "34 names match several definitions"},
	} {
		got := noDriftHint(tc.s)
		if !strings.Contains(got, tc.want) || strings.Contains(got, "changed before its document") ||
			tc.s.AmbiguousTargets > 0 && strings.Contains(got, "every named path and member exists") {
			t.Errorf("%s: %q, want it to say %q", tc.name, got, tc.want)
		}
	}
}
