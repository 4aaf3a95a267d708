package toolset

import (
	"testing"

	"github.com/m1nd-go/m1nd/mcpserver/tools"
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

func init() {
	for _, name := range []string{"lock_watch", "lock_diff", "lock_rebase", "lock_release"} {
		exampleSetup[name] = func(t *testing.T, d *tools.Dispatcher) map[string]any {
			id := tooltest.CreateLock(t, d, "claude", map[string]any{"scope": "node", "root_nodes": []string{"file::backend/session.py"}})
			args := map[string]any{"agent_id": "claude", "lock_id": id}
			if name == "lock_watch" {
				args["strategy"] = "on_ingest"
			}
			return args
		}
	}
}
