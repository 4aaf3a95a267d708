package change

import (
	"strings"
	"testing"

	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// predict and missing list only what is in scope (a federated repository
// is a path prefix too), from evidence that still spans the whole graph;
// a scope that escapes the roots is refused.
func TestPredictAndMissingKeepToScope(t *testing.T) {
	t.Parallel()
	d, _ := tooltest.IngestedFixture(t)
	for _, tc := range []struct {
		tool, list, field string
		args              map[string]any
	}{
		{"predict", "predictions", "node_id", map[string]any{"changed_node": "backend/session.py", "top_k": 20}},
		// 0.1: config.py and crypto.py (untested, reached only faintly)
		// are not siblings that count; at 0 they outnumber the tested two.
		{"missing", "holes", "node_id", map[string]any{"query": "request handling", "top_k": 20, "min_sibling_activation": 0.1}},
	} {
		for _, scope := range []string{"tests/", "backend/", "**/test_*.py"} {
			args := map[string]any{"agent_id": "t", "scope": scope}
			for k, v := range tc.args {
				args[k] = v
			}
			out := tooltest.MustCall(t, d, tc.tool, args)
			items, _ := out[tc.list].([]any)
			for _, it := range items {
				id, _ := it.(map[string]any)[tc.field].(string)
				path := strings.TrimPrefix(id, "file::")
				if i := strings.Index(path, "::"); i >= 0 {
					path = path[:i]
				}
				inScope := strings.HasPrefix(path, strings.TrimSuffix(scope, "**/test_*.py"))
				if scope == "**/test_*.py" {
					inScope = strings.Contains(path, "/test_") || strings.HasPrefix(path, "test_")
				}
				if !inScope {
					t.Errorf("%s scope %q listed %s", tc.tool, scope, id)
				}
			}
			if (tc.tool == "predict" && scope == "tests/" || tc.tool == "missing" && scope == "backend/") && len(items) == 0 {
				t.Errorf("%s scope %s listed nothing (predict: the session tests change with session.py; missing: middleware.py is untested among tested siblings): %v", tc.tool, scope, out)
			}
		}
		args := map[string]any{"agent_id": "t", "scope": "../elsewhere/"}
		for k, v := range tc.args {
			args[k] = v
		}
		if out, isErr := tooltest.Call(t, d, tc.tool, args); !isErr {
			t.Errorf("%s accepted a scope outside the roots: %v", tc.tool, out)
		}
	}
}
