package localize

import "testing"

// A run with a tuned server setting records it; an unset one is absent.
func TestMachineFactsRecordsServerTuning(t *testing.T) {
	for _, tc := range []struct {
		name, value string
	}{{"M1ND_ACTIVATE_MAX_FIRED", "2500"}, {"M1ND_XLR_PULSE_BUDGET", ""}} {
		t.Setenv(tc.name, tc.value)
		if got := MachineFacts()[tc.name]; got != tc.value {
			t.Errorf("%s: recorded %q, want %q", tc.name, got, tc.value)
		}
	}
}
