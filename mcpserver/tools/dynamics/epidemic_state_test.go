package dynamics

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

func memoryOf(out map[string]any) map[string]any { return out["memory"].(map[string]any) }

func predicted(out map[string]any) []string {
	var ids []string
	for _, p := range out["predictions"].([]any) {
		ids = append(ids, p.(map[string]any)["node_id"].(string))
	}
	return ids
}

// Epidemic's memory survives a restart: the seeds of earlier calls are
// known infected, recovered nodes stay immune, and the next call compares
// itself with the agent's last one.
func TestEpidemicStateSurvivesRestart(t *testing.T) {
	d, cfg := tooltest.PersistedFixture(t)
	first := tooltest.MustCall(t, d, "epidemic", map[string]any{"agent_id": "a", "infected_nodes": []string{"backend/session.py"}, "direction": "backward"})
	if m := memoryOf(first); m["persisted"] != true || m["since_last_run"] != nil || m["known_infected_total"] != 0.0 {
		t.Fatalf("first call's memory %v", m)
	}
	second := tooltest.MustCall(t, d, "epidemic", map[string]any{"agent_id": "a", "infected_nodes": []string{"backend/auth.py"}, "direction": "backward"})
	m := memoryOf(second)
	if fmt.Sprint(m["known_infected"]) != "[file::backend/session.py]" {
		t.Errorf("known_infected %v, want the first call's seed", m["known_infected"])
	}
	since := m["since_last_run"].(map[string]any)
	if since["same_setup"] != false || fmt.Sprint(since["seeds"]) != "[file::backend/session.py]" {
		t.Errorf("since_last_run %v", since)
	}
	if _, err := os.Stat(filepath.Join(cfg.RuntimeDir, epidemicStateFile)); err != nil {
		t.Fatalf("state file: %v", err)
	}

	d.Session.Close()
	d2 := tooltest.NewDispatcher(t, cfg) // a restart on the same runtime directory
	third := tooltest.MustCall(t, d2, "epidemic", map[string]any{"agent_id": "a", "infected_nodes": []string{"backend/auth.py"},
		"direction": "backward", "include_known": true, "recovered_nodes": []string{"backend/middleware.py"}})
	if got := tooltest.ToStrings(third["infected_nodes"]); !slices.Equal(got, []string{"file::backend/auth.py", "file::backend/session.py"}) {
		t.Errorf("seeds with include_known after restart: %v, want auth.py and the remembered session.py", got)
	}
	if slices.Contains(predicted(third), "file::backend/middleware.py") {
		t.Errorf("recovered middleware.py predicted: %v", predicted(third))
	}
	m = memoryOf(third)
	if m["recovered"] != 1.0 || m["since_last_run"].(map[string]any)["seeds"] == nil {
		t.Errorf("memory after restart %v", m)
	}
	// Recovered is remembered: a plain call still leaves middleware.py out.
	fourth := tooltest.MustCall(t, d2, "epidemic", map[string]any{"agent_id": "b", "infected_nodes": []string{"backend/session.py"}, "direction": "backward"})
	if slices.Contains(predicted(fourth), "file::backend/middleware.py") || memoryOf(fourth)["since_last_run"] != nil {
		t.Errorf("agent b: predictions %v, memory %v", predicted(fourth), memoryOf(fourth))
	}
}

// A setup that burnt out starts at its calibrated rate the next time,
// with the same answer.
func TestEpidemicCalibrationReused(t *testing.T) {
	d, _ := tooltest.PersistedFixture(t)
	args := map[string]any{"agent_id": "a", "infected_nodes": []string{"backend/session.py"}, "promotion_threshold": 0.01}
	first := tooltest.MustCall(t, d, "epidemic", args)
	if first["summary"].(map[string]any)["calibrated"] != true {
		t.Skipf("the fixture does not burn out at threshold 0.01: %v", first["summary"])
	}
	second := tooltest.MustCall(t, d, "epidemic", args)
	if memoryOf(second)["calibration_reused"] != true {
		t.Errorf("second call's memory %v, want calibration_reused", memoryOf(second))
	}
	if a, b := tooltest.ToJSON(first["predictions"]), tooltest.ToJSON(second["predictions"]); a != b {
		t.Errorf("predictions differ:\n%s\n%s", a, b)
	}
	if s1, s2 := first["summary"].(map[string]any), second["summary"].(map[string]any); s1["infection_rate"] != s2["infection_rate"] || s2["calibrated"] != true {
		t.Errorf("summaries %v / %v", s1, s2)
	}
}
