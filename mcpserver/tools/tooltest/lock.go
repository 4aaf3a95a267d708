package tooltest

import (
	"testing"

	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

func CreateLock(t testing.TB, d *tools.Dispatcher, agent string, args map[string]any) string {
	t.Helper()
	a := map[string]any{"agent_id": agent}
	for k, v := range args {
		a[k] = v
	}
	return MustCall(t, d, "lock_create", a)["lock_id"].(string)
}
