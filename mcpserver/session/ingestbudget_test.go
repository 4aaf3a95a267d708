package session

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The ingest budgets come from the config file or the environment; a
// negative or absurd value is refused with the setting named and an
// example.
func TestIngestBudgetConfig(t *testing.T) {
	for _, c := range []struct {
		name              string
		file              string
		env               map[string]string
		wantNodes, wantS  int
		wantErr, wantEgIn string
	}{
		{"defaults", "", nil, 0, 0, "", ""},
		{"file", `{"ingest_max_nodes": 2000000, "ingest_timeout_s": 900}`, nil, 2000000, 900, "", ""},
		{"environment over file", `{"ingest_max_nodes": 2000000}`, map[string]string{"M1ND_INGEST_MAX_NODES": "3000000", "M1ND_INGEST_TIMEOUT_S": "1800"}, 3000000, 1800, "", ""},
		{"negative nodes", "", map[string]string{"M1ND_INGEST_MAX_NODES": "-1"}, 0, 0, "ingest_max_nodes", "2000000"},
		{"absurd nodes", `{"ingest_max_nodes": 1000000000}`, nil, 0, 0, "ingest_max_nodes", "2000000"},
		{"timeout past the call's own", "", map[string]string{"M1ND_INGEST_TIMEOUT_S": "1801"}, 0, 0, "ingest_timeout_s", "several roots"},
		{"not a number", "", map[string]string{"M1ND_INGEST_TIMEOUT_S": "1h"}, 0, 0, "M1ND_INGEST_TIMEOUT_S", "0 or unset"},
	} {
		t.Run(c.name, func(t *testing.T) {
			file := ""
			if c.file != "" {
				file = filepath.Join(t.TempDir(), "m1nd.json")
				if err := os.WriteFile(file, []byte(c.file), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			cfg, err := LoadConfig(file, func(k string) string { return c.env[k] })
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) || !strings.Contains(err.Error(), c.wantEgIn) {
					t.Fatalf("err = %v, want one naming %s with %s", err, c.wantErr, c.wantEgIn)
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
