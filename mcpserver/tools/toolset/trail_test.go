package toolset

import (
	"testing"

	"github.com/m1nd-go/m1nd/mcpserver/tools"
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

func init() {
	exampleSetup["trail_resume"] = func(t *testing.T, d *tools.Dispatcher) map[string]any {
		id := tooltest.SaveTrail(t, d, "claude", "setup", "file::backend/session.py")
		return map[string]any{"agent_id": "claude", "trail_id": id}
	}
	exampleSetup["trail_merge"] = func(t *testing.T, d *tools.Dispatcher) map[string]any {
		a := tooltest.SaveTrail(t, d, "claude", "a", "file::backend/session.py")
		b := tooltest.SaveTrail(t, d, "analyst", "b", "file::backend/auth.py")
		return map[string]any{"agent_id": "claude", "trail_ids": []string{a, b}, "label": "combined"}
	}
}
