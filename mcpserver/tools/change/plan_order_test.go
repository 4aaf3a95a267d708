package change

import (
	"slices"
	"testing"

	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// TestPlanGapsFollowPredict: among the gaps of one severity, validate_plan
// lists the files predict ranks in predict's order for the same changed
// files and task (benchmarks/cochange: ordered by each gap's probability
// alone it found a plan's missing file less often than predict did).
func TestPlanGapsFollowPredict(t *testing.T) {
	t.Parallel()
	d, _ := tooltest.IngestedFixture(t)
	for _, tc := range []struct {
		plan []string
		task string
	}{
		{[]string{"backend/session.py"}, "charge payments with a refund"},
		{[]string{"backend/session.py", "backend/auth.py"}, ""},
		{[]string{"backend/session.py", "backend/auth.py"}, "hash the password"},
		{[]string{"backend/auth.py"}, "session middleware"},
		{[]string{"backend/crypto.py"}, "charge payments with a refund"},
	} {
		nodes, actions := []any{}, []any{}
		for _, f := range tc.plan {
			nodes = append(nodes, f)
			actions = append(actions, map[string]any{"action_type": "modify", "file_path": f})
		}
		pargs := map[string]any{"agent_id": "t", "changed_nodes": nodes, "top_k": 100}
		vargs := map[string]any{"agent_id": "t", "actions": actions}
		if tc.task != "" {
			pargs["task"], vargs["task"] = tc.task, tc.task
		}
		var order []string
		for _, p := range tooltest.MustCall(t, d, "predict", pargs)["predictions"].([]any) {
			order = append(order, p.(map[string]any)["node_id"].(string))
		}
		last := map[string]int{}
		for _, g := range tooltest.MustCall(t, d, "validate_plan", vargs)["gaps"].([]any) {
			gp := g.(map[string]any)
			id, sev := gp["node_id"].(string), gp["severity"].(string)
			r := slices.Index(order, id)
			if r < 0 || gp["source"] == "caller" || gp["source"] == "name_match" {
				continue
			}
			if prev, ok := last[sev]; ok && r < prev {
				t.Errorf("plan %v task %q: %s gap %s (predict #%d) after predict #%d; predict %v", tc.plan, tc.task, sev, id, r+1, prev+1, order)
			}
			last[sev] = r
		}
	}
}
