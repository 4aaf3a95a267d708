package session

import (
	"strings"
	"testing"

	"github.com/m1nd-go/m1nd/core/engine"
	"github.com/m1nd-go/m1nd/core/xlr"
)

// The activation budgets come from the environment (or the config file),
// reach the engine options, and bad values are refused with the variable
// named.
func TestActivationBudgets(t *testing.T) {
	def := engine.DefaultOptions()
	for _, tc := range []struct {
		name              string
		env               map[string]string
		wantFired, wantPB int
		wantErr           string
	}{
		{"defaults", nil, def.Activation.MaxFired, xlr.DefaultPulseBudget, ""},
		{"both set", map[string]string{"M1ND_ACTIVATE_MAX_FIRED": "2500", "M1ND_XLR_PULSE_BUDGET": "10000"}, 2500, 10000, ""},
		{"zero keeps the default", map[string]string{"M1ND_ACTIVATE_MAX_FIRED": "0"}, def.Activation.MaxFired, xlr.DefaultPulseBudget, ""},
		{"not a number", map[string]string{"M1ND_XLR_PULSE_BUDGET": "lots"}, 0, 0, "M1ND_XLR_PULSE_BUDGET"},
		{"negative", map[string]string{"M1ND_ACTIVATE_MAX_FIRED": "-1"}, 0, 0, "activate_max_fired"},
		{"one pulse", map[string]string{"M1ND_XLR_PULSE_BUDGET": "1"}, 0, 0, "xlr_pulse_budget"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg, err := LoadConfig("", func(k string) string { return tc.env[k] })
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want one naming %s", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			opts := engine.DefaultOptions()
			if err := (&State{cfg: cfg}).applyBudgets(&opts); err != nil {
				t.Fatal(err)
			}
			pb := xlr.DefaultPulseBudget
			if opts.XLR != nil {
				pb = opts.XLR.Params().PulseBudget
			}
			if opts.Activation.MaxFired != tc.wantFired || pb != tc.wantPB {
				t.Errorf("MaxFired %d, PulseBudget %d; want %d, %d", opts.Activation.MaxFired, pb, tc.wantFired, tc.wantPB)
			}
		})
	}
}
