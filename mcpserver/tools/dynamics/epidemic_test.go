package dynamics

import (
	"strings"
	"testing"

	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// On the fixture backend, backward from session.py: its importers catch
// it at the imports factor, test_session.py by two edges (imports 0.8 and
// references 0.4: 1 − 0.2 × 0.6 = 0.88), payments.py through
// middleware.py (0.8 × 0.8).
func TestEpidemicFixture(t *testing.T) {
	d, _ := tooltest.IngestedFixture(t)
	out := tooltest.MustCall(t, d, "epidemic", map[string]any{"agent_id": "t", "infected_nodes": []string{"backend/session.py", "nowhere.py"}, "direction": "backward"})
	got := map[string]float64{}
	for _, p := range out["predictions"].([]any) {
		m := p.(map[string]any)
		got[m["node_id"].(string)] = m["probability"].(float64)
	}
	for id, want := range map[string]float64{
		"file::tests/test_session.py": 0.88, "file::backend/auth.py": 0.8, "file::backend/middleware.py": 0.8, "file::backend/payments.py": 0.64,
	} {
		if got[id] != want {
			t.Errorf("P(%s) = %v, want %v (all: %v)", id, got[id], want, got)
		}
	}
	if un := out["unresolved"].([]any); len(un) != 1 || !strings.HasPrefix(un[0].(string), "nowhere.py") {
		t.Errorf("unresolved %v", un)
	}
	sum := out["summary"].(map[string]any)
	if sum["calibrated"] != false || sum["r0"].(float64) <= 0 {
		t.Errorf("summary %v", sum)
	}
	// Forward from session.py reaches what it imports, never its importers.
	fwd := tooltest.MustCall(t, d, "epidemic", map[string]any{"agent_id": "t", "infected_nodes": []string{"backend/session.py"}, "direction": "forward"})
	for _, p := range fwd["predictions"].([]any) {
		if id := p.(map[string]any)["node_id"]; id == "file::backend/middleware.py" || id == "file::tests/test_session.py" {
			t.Errorf("forward reached a dependent: %v", id)
		}
	}
}

func TestEpidemicTeachingErrors(t *testing.T) {
	d, _ := tooltest.IngestedFixture(t)
	for _, tc := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"agent_id": "t", "infected_nodes": []string{"nowhere.py"}}, "NoValidInfectedNodes"},
		{map[string]any{"agent_id": "t", "infected_nodes": []string{"backend"}}, "NoValidInfectedNodes"},
		{map[string]any{"agent_id": "t", "infected_nodes": []string{"backend/session.py"}, "direction": "sideways"}, "direction"},
		{map[string]any{"agent_id": "t", "infected_nodes": []string{"backend/session.py"}, "iterations": 501}, "iterations"},
		{map[string]any{"agent_id": "t"}, "infected_nodes"},
	} {
		out, isErr := tooltest.Call(t, d, "epidemic", tc.args)
		msg, _ := out["error"].(string)
		if !isErr || !strings.Contains(msg, tc.want) || out["hint"] == nil || out["example"] == nil {
			t.Errorf("epidemic(%v) = %v, want a teaching error about %s", tc.args, out, tc.want)
		}
	}
}
