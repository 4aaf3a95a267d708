package mcpserver

import (
	"strings"
	"testing"

	"github.com/m1nd-go/m1nd/mcpserver/session"
)

// --ingest-max-nodes and --ingest-timeout-s replace the configuration's
// budgets; a value that is not a whole number, negative or absurd is
// refused with the flag named.
func TestIngestBudgetFlags(t *testing.T) {
	for _, c := range []struct {
		name             string
		nodes, timeout   string
		wantNodes, wantS int
		wantErr          string
	}{
		{"unset keeps the config", "", "", 700000, 600, ""},
		{"both", "2000000", "1800", 2000000, 1800, ""},
		{"zero is the default", "0", "", 0, 600, ""},
		{"not a number", "2M", "", 0, 0, `--ingest-max-nodes "2M" is not a whole number`},
		{"negative", "", "-1", 0, 0, "--ingest-timeout-s must be 0"},
		{"absurd", "1000000000", "", 0, 0, "--ingest-max-nodes must be 0"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var o Options
			for flag, v := range map[string]string{"--ingest-max-nodes": c.nodes, "--ingest-timeout-s": c.timeout} {
				if v == "" {
					continue
				}
				if known, ok := o.SetFlag(flag, func() (string, bool) { return v, true }); !known || !ok {
					t.Fatalf("%s not taken", flag)
				}
			}
			cfg := session.Config{IngestMaxNodes: 700000, IngestTimeoutS: 600}
			err := o.ingestBudgets(&cfg)
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("err = %v, want %q", err, c.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if cfg.IngestMaxNodes != c.wantNodes || cfg.IngestTimeoutS != c.wantS {
				t.Errorf("budgets %d nodes, %d s; want %d, %d", cfg.IngestMaxNodes, cfg.IngestTimeoutS, c.wantNodes, c.wantS)
			}
		})
	}
}
