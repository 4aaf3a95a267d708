package system_test

import (
	"strings"
	"testing"

	"github.com/m1nd-go/m1nd/mcpserver/internal/fixture"
	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
	"github.com/m1nd-go/m1nd/mcpserver/tools/system"
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// TestIngestBudgets: a tiny node budget, the call's or the server's, cuts
// the fixture's ingest and the answer says so and names the knob; the
// call's budget overrides the server's; the default does not cut.
func TestIngestBudgets(t *testing.T) {
	dir := fixture.Write(t)
	for _, c := range []struct {
		name        string
		server      int            // session.Config.IngestMaxNodes
		args        map[string]any // the call's budgets
		wantPartial bool
		wantHint    []string
	}{
		{"default", 0, nil, false, nil},
		{"tiny call budget", 0, map[string]any{"max_nodes": 1}, true, []string{"(max_nodes, 1 nodes)", "max_nodes raised", "--ingest-max-nodes", `mode "merge"`}},
		{"tiny server budget", 1, nil, true, []string{"(max_nodes, 1 nodes)", "max_nodes raised"}},
		{"call raises the server's", 1, map[string]any{"max_nodes": 100000, "timeout_s": 600}, false, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg := tooltest.TestConfig()
			cfg.IngestMaxNodes = c.server
			d := tooltest.NewDispatcher(t, cfg)
			args := map[string]any{"agent_id": "t", "path": dir}
			for k, v := range c.args {
				args[k] = v
			}
			out := tooltest.MustCall(t, d, "ingest", args)
			st, _ := out["stats"].(map[string]any)
			partial, _ := st["partial"].(bool)
			if partial != c.wantPartial {
				t.Fatalf("stats.partial = %v, want %v (stats %v)", partial, c.wantPartial, st)
			}
			hint, _ := out["next_step_hint"].(string)
			if c.wantPartial && st["budget_exhausted"] != "max_nodes" {
				t.Errorf("budget_exhausted = %v, want max_nodes", st["budget_exhausted"])
			}
			for _, w := range c.wantHint {
				if !strings.Contains(hint, w) {
					t.Errorf("hint %q lacks %q", hint, w)
				}
			}
		})
	}
}

// TestIngestBudgetRefused: a negative or absurd budget is refused with a
// teaching error, and the graph served stays as it was.
func TestIngestBudgetRefused(t *testing.T) {
	d, dir := tooltest.IngestedFixture(t)
	before := tooltest.MustCall(t, d, "health", map[string]any{"agent_id": "t"})
	for _, c := range []struct {
		param string
		value any
	}{
		{"max_nodes", -1},
		{"max_nodes", session.MaxIngestNodes + 1},
		{"max_nodes", "lots"},
		{"timeout_s", -5},
		{"timeout_s", 1801},
	} {
		tooltest.Teaches(t, d, "ingest", map[string]any{"agent_id": "t", "path": dir, "mode": "replace", c.param: c.value}, c.param, false)
	}
	after := tooltest.MustCall(t, d, "health", map[string]any{"agent_id": "t"})
	for _, k := range []string{"node_count", "edge_count", "graph_generation"} {
		if before[k] != after[k] {
			t.Errorf("health %s %v → %v: a refused ingest changed the graph", k, before[k], after[k])
		}
	}
}

// TestIngestBudgetBounds: the declared bounds are the server's, and a
// timeout at its most fits in the call's own budget.
func TestIngestBudgetBounds(t *testing.T) {
	param := tooltest.Params(t, system.Register)
	if p := param("ingest", "max_nodes"); p.Max == nil || int(*p.Max) != session.MaxIngestNodes || p.Min == nil || *p.Min != 0 {
		t.Errorf("max_nodes bounds %v..%v, want 0..%d", p.Min, p.Max, session.MaxIngestNodes)
	}
	if p := param("ingest", "timeout_s"); p.Max == nil || int(*p.Max) != int(session.MaxIngestTimeout.Seconds()) || p.Min == nil || *p.Min != 0 {
		t.Errorf("timeout_s bounds %v..%v, want 0..%v", p.Min, p.Max, session.MaxIngestTimeout.Seconds())
	}
	if tools.IngestBudget < session.MaxIngestTimeout {
		t.Errorf("an ingest call ends at %v, before its longest budget %v", tools.IngestBudget, session.MaxIngestTimeout)
	}
}
