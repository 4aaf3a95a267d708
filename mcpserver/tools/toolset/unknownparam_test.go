package toolset

import (
	"strings"
	"testing"

	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// TestUnknownParameterTeaches: a parameter a tool does not declare is
// refused with the name it most likely meant and the tool's parameters,
// instead of being dropped and the call answered with the default.
func TestUnknownParameterTeaches(t *testing.T) {
	t.Parallel()
	d := tooltest.NewDispatcher(t, session.Config{})
	for _, c := range []struct {
		tool string
		args map[string]any
		want string // in the message
		hint string // in the hint
	}{
		{"seek", map[string]any{"query": "x", "topk": 3}, `unknown parameter "topk" for seek`, `Did you mean "top_k"?`},
		{"seek", map[string]any{"query": "x", "topK": 3}, `unknown parameter "topK"`, `Did you mean "top_k"?`},
		{"impact", map[string]any{"node_id": "a.py", "max_hop": 2}, `unknown parameter "max_hop"`, `Did you mean "max_hops"?`},
		{"health", map[string]any{"query": "x", "node_id": "y"}, `unknown parameters "node_id", "query" for health`, "health takes: agent_id."},
		{"refactor_plan", map[string]any{"zzzzzz": 1}, `unknown parameter "zzzzzz"`, "refactor_plan takes: agent_id"},
	} {
		c.args["agent_id"] = "t"
		tooltest.Teaches(t, d, c.tool, c.args, c.want, true)
		out, _ := tooltest.Call(t, d, c.tool, c.args)
		if h, _ := out["hint"].(string); !strings.Contains(h, c.hint) {
			t.Errorf("%s(%v): hint %q does not say %q", c.tool, c.args, h, c.hint)
		}
	}
}
