package change

import (
	"slices"
	"strings"
	"testing"

	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// predict and validate_plan given what the agent knows, on the fixture's
// scripted history (session.py changed with crypto.py, auth.py and
// middleware.py; auth.py with crypto.py).
func TestPredictKnownGolden(t *testing.T) {
	t.Parallel()
	d, dir := tooltest.IngestedFixture(t)
	for _, tc := range []struct {
		golden, tool string
		args         map[string]any
	}{
		{"predict_known_set", "predict", map[string]any{"agent_id": "t", "changed_nodes": []any{"backend/session.py", "backend/auth.py"}, "top_k": 5, "detail": "full"}},
		{"predict_known_task", "predict", map[string]any{"agent_id": "t", "changed_node": "backend/session.py", "task": "charge payments with a refund", "top_k": 5}},
		{"predict_task_only", "predict", map[string]any{"agent_id": "t", "task": "hash the password", "top_k": 3}},
		{"validate_plan_task", "validate_plan", map[string]any{"agent_id": "t", "task": "charge payments with a refund", "actions": []any{
			map[string]any{"action_type": "modify", "file_path": "backend/session.py"},
		}}},
	} {
		t.Run(tc.golden, func(t *testing.T) {
			tooltest.CheckGolden(t, tc.golden, tooltest.MustCall(t, d, tc.tool, tc.args), dir)
		})
	}
}

// The task moves the files its text names up; the changed files are never
// predicted.
func TestPredictKnownAnswers(t *testing.T) {
	t.Parallel()
	d, _ := tooltest.IngestedFixture(t)
	ids := func(out map[string]any) []string {
		var s []string
		for _, p := range out["predictions"].([]any) {
			s = append(s, p.(map[string]any)["node_id"].(string))
		}
		return s
	}
	plain := ids(tooltest.MustCall(t, d, "predict", map[string]any{"agent_id": "t", "changed_node": "backend/session.py"}))
	task := ids(tooltest.MustCall(t, d, "predict", map[string]any{"agent_id": "t", "changed_node": "backend/session.py", "task": "payments refund"}))
	const pay = "file::backend/payments.py"
	if i, j := slices.Index(task, pay), slices.Index(plain, pay); i < 0 || (j >= 0 && i >= j) {
		t.Errorf("the task names payments but payments.py did not rise: without task %v, with %v", plain, task)
	}
	set := ids(tooltest.MustCall(t, d, "predict", map[string]any{"agent_id": "t", "changed_nodes": []any{"backend/session.py", "file::backend/auth.py::AuthService"}}))
	for _, f := range set {
		if f == "file::backend/session.py" || f == "file::backend/auth.py" {
			t.Errorf("a changed file is predicted: %v", set)
		}
	}
}

func TestPredictKnownTeachingErrors(t *testing.T) {
	t.Parallel()
	d, _ := tooltest.IngestedFixture(t)
	many := make([]any, 51)
	for i := range many {
		many[i] = "backend/session.py"
	}
	for _, tc := range []struct {
		name string
		args map[string]any
		want string
	}{
		{"nothing", map[string]any{"agent_id": "t"}, "no changed node and no task"},
		{"blank task", map[string]any{"agent_id": "t", "task": "  "}, "no changed node and no task"},
		{"empty entry", map[string]any{"agent_id": "t", "changed_nodes": []any{"backend/session.py", ""}}, "changed_nodes[1]"},
		{"unknown entry", map[string]any{"agent_id": "t", "changed_nodes": []any{"backend/session.py", "backend/sesion.py"}}, "sesion"},
		{"too many", map[string]any{"agent_id": "t", "changed_nodes": many}, "changed_nodes"},
		{"task too long", map[string]any{"agent_id": "t", "changed_node": "backend/session.py", "task": strings.Repeat("x", 8001)}, "task"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tooltest.Teaches(t, d, "predict", tc.args, tc.want, false)
		})
	}
}

// A file only the task's text points at is a gap of source task.
func TestValidatePlanTaskGap(t *testing.T) {
	t.Parallel()
	d, _ := tooltest.FixtureRepo(t, map[string]string{
		"core/store.py": "def put(key, value):\n    return {key: value}\n",
		"web/render.py": "def render_dashboard_template(widgets):\n    return ''.join(widgets)\n",
	})
	out := tooltest.MustCall(t, d, "validate_plan", map[string]any{"agent_id": "t", "task": "render the dashboard template with the stored widgets",
		"actions": []any{map[string]any{"action_type": "modify", "file_path": "core/store.py"}}})
	gaps := gapsByFile(out)
	g, ok := gaps["web/render.py"]
	if !ok || g["source"] != "task" || !strings.Contains(g["reason"].(string), "task's text") {
		t.Errorf("web/render.py should be a task gap: %v", out["gaps"])
	}
}
