package continuity

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// A stored value is the JSON given, not its Go decoding: its keys keep
// their order, its numbers their spelling and precision.
func TestBootMemoryKeepsTheJSONGiven(t *testing.T) {
	t.Parallel()
	d := tooltest.NewDispatcher(t, session.Config{})
	value := `{"zeta":12345678901234567890,"alpha":[1.50,true,null]}`
	if res := d.Call(context.Background(), "boot_memory", json.RawMessage(`{"agent_id":"jimi","action":"set","key":"k","value": `+value+`}`), nil); res.IsError {
		t.Fatalf("set: %s", res.Text())
	}
	res := d.Call(context.Background(), "boot_memory", json.RawMessage(`{"agent_id":"jimi","action":"get","key":"k"}`), nil)
	if res.IsError || !strings.Contains(res.Text(), `"value":`+value) {
		t.Errorf("get: %s, want the value %s", res.Text(), value)
	}
}
