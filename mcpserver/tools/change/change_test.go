package change

import (
	"testing"

	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// The change family on the fixture (scripted history: session.py changed
// with crypto.py, auth.py and middleware.py; auth.py with crypto.py).
func TestChangeGolden(t *testing.T) {
	t.Parallel()
	d, dir := tooltest.IngestedFixture(t)
	for _, tc := range []struct {
		golden, tool string
		args         map[string]any
	}{
		// detail full is the answer predict gave before brief became the
		// default: these goldens predate it.
		{"predict_session", "predict", map[string]any{"agent_id": "t", "changed_node": "backend/session.py", "top_k": 5, "detail": "full"}},
		{"predict_entity", "predict", map[string]any{"agent_id": "t", "changed_node": "file::backend/auth.py::AuthService", "top_k": 3, "include_velocity": false, "detail": "full"}},
		{"predict_session_brief", "predict", map[string]any{"agent_id": "t", "changed_node": "backend/session.py", "top_k": 5}},
		// impact's full answers, as toolset's TestGolden pinned them before
		// brief became the default (it now pins the brief ones).
		{"impact_dependents_full", "impact", map[string]any{"agent_id": "golden", "node_id": "file::backend/session.py", "top_k": 8, "detail": "full"}},
		{"impact_dependencies_full", "impact", map[string]any{"agent_id": "golden", "node_id": "backend/payments.py", "direction": "dependencies", "top_k": 8, "detail": "full"}},
		{"impact_entity_full", "impact", map[string]any{"agent_id": "golden", "node_id": "SessionStore.lookup", "max_hops": 2, "detail": "full"}},
		{"timeline_session", "timeline", map[string]any{"agent_id": "t", "node": "file::backend/session.py", "depth": "all", "top_k": 3}},
		// The plan changes session.py but forgets middleware.py (which
		// imports it) and names a file that does not exist.
		{"validate_plan_gap", "validate_plan", map[string]any{"agent_id": "t", "actions": []any{
			map[string]any{"action_type": "modify", "file_path": "backend/session.py", "description": "expire sessions"},
			map[string]any{"action_type": "modify", "file_path": "backend/sesion.py"},
			map[string]any{"action_type": "create", "file_path": "backend/cache.py"},
		}}},
	} {
		t.Run(tc.golden, func(t *testing.T) {
			tooltest.CheckGolden(t, tc.golden, tooltest.MustCall(t, d, tc.tool, tc.args), dir)
		})
	}
}

func TestChangeAnswers(t *testing.T) {
	t.Parallel()
	d, _ := tooltest.IngestedFixture(t)
	out := tooltest.MustCall(t, d, "predict", map[string]any{"agent_id": "t", "changed_node": "backend/session.py"})
	preds := out["predictions"].([]any)
	ids := map[string]bool{}
	for _, p := range preds {
		ids[p.(map[string]any)["node_id"].(string)] = true
	}
	// Its co-change partners, its importer and its test are all predicted.
	for _, want := range []string{"file::backend/crypto.py", "file::backend/middleware.py", "file::backend/auth.py", "file::tests/test_session.py"} {
		if !ids[want] {
			t.Errorf("predict(session.py) misses %s: %v", want, ids)
		}
	}
	plan := tooltest.MustCall(t, d, "validate_plan", map[string]any{"agent_id": "t", "actions": []any{
		map[string]any{"action_type": "modify", "file_path": "backend/session.py"},
		map[string]any{"action_type": "modify", "file_path": "backend/middleware.py"},
		map[string]any{"action_type": "modify", "file_path": "backend/auth.py"},
		map[string]any{"action_type": "test", "file_path": "tests/test_session.py"},
	}})
	for _, g := range plan["gaps"].([]any) {
		if g.(map[string]any)["file_path"] == "backend/middleware.py" {
			t.Errorf("a file in the plan is reported as a gap: %v", g)
		}
	}
	if cov := plan["test_coverage"].(map[string]any); cov["tested_files"].(float64) < 1 {
		t.Errorf("session.py's test is in the plan but coverage says %v", cov)
	}
}

func TestChangeTeachingErrors(t *testing.T) {
	t.Parallel()
	d, _ := tooltest.IngestedFixture(t)
	for _, tc := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"predict", map[string]any{"agent_id": "t", "changed_node": "backend/sesion.py"}, "sesion"},
		{"predict", map[string]any{"agent_id": "t", "changed_node": "backend/session.py", "top_k": 0}, "top_k"},
		{"timeline", map[string]any{"agent_id": "t", "node": "backend/session.py", "depth": "3y"}, "depth"},
		{"timeline", map[string]any{"agent_id": "t", "node": "nowhere.py"}, "nowhere"},
		{"validate_plan", map[string]any{"agent_id": "t", "actions": []any{}}, "actions"},
		{"validate_plan", map[string]any{"agent_id": "t", "actions": []any{map[string]any{"action_type": "refactor", "file_path": "a.py"}}}, "action_type"},
		{"validate_plan", map[string]any{"agent_id": "t", "actions": []any{map[string]any{"action_type": "modify"}}}, "file_path"},
	} {
		tooltest.Teaches(t, d, tc.tool, tc.args, tc.want, true)
	}
}
