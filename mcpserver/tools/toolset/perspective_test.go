package toolset

import (
	"testing"

	"github.com/m1nd-go/m1nd/mcpserver/tools"
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

func init() {
	route := func(t *testing.T, d *tools.Dispatcher) map[string]any {
		p := tooltest.StartPersp(t, d, "claude")
		return map[string]any{"agent_id": "claude", "perspective_id": p["perspective_id"], "route_index": 1, "route_set_version": p["route_set_version"]}
	}
	for _, name := range []string{"perspective_inspect", "perspective_peek", "perspective_follow", "perspective_affinity"} {
		exampleSetup[name] = route
	}
	exampleSetup["perspective_suggest"] = func(t *testing.T, d *tools.Dispatcher) map[string]any {
		p := tooltest.StartPersp(t, d, "claude")
		return map[string]any{"agent_id": "claude", "perspective_id": p["perspective_id"], "route_set_version": p["route_set_version"]}
	}
	for _, name := range []string{"perspective_routes", "perspective_branch", "perspective_close"} {
		exampleSetup[name] = func(t *testing.T, d *tools.Dispatcher) map[string]any {
			return map[string]any{"agent_id": "claude", "perspective_id": tooltest.StartPersp(t, d, "claude")["perspective_id"]}
		}
	}
	exampleSetup["perspective_back"] = func(t *testing.T, d *tools.Dispatcher) map[string]any {
		p := tooltest.StartPersp(t, d, "claude")
		tooltest.MustCall(t, d, "perspective_follow", map[string]any{"agent_id": "claude", "perspective_id": p["perspective_id"], "route_index": 1, "route_set_version": p["route_set_version"]})
		return map[string]any{"agent_id": "claude", "perspective_id": p["perspective_id"]}
	}
	exampleSetup["perspective_compare"] = func(t *testing.T, d *tools.Dispatcher) map[string]any {
		p := tooltest.StartPersp(t, d, "claude")
		b := tooltest.MustCall(t, d, "perspective_branch", map[string]any{"agent_id": "claude", "perspective_id": p["perspective_id"]})
		return map[string]any{"agent_id": "claude", "perspective_id_a": p["perspective_id"], "perspective_id_b": b["branch_perspective_id"]}
	}
}
