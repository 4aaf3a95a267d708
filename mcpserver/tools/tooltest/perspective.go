package tooltest

import (
	"testing"

	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

func StartPersp(t testing.TB, d *tools.Dispatcher, agent string) map[string]any {
	t.Helper()
	return MustCall(t, d, "perspective_start", map[string]any{"agent_id": agent, "query": "session expiry and login", "anchor_node": "file::backend/session.py"})
}
