package change

import (
	"strings"
	"testing"

	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// A topic around which nothing qualifies answers "no holes" plainly,
// rather than an empty list an agent has to interpret.
func TestMissingSaysNoHoles(t *testing.T) {
	t.Parallel()
	d, _ := tooltest.IngestedFixture(t)
	out := tooltest.MustCall(t, d, "missing", map[string]any{"agent_id": "t", "query": "config settings"})
	holes, _ := out["holes"].([]any)
	hint, _ := out["next_step_hint"].(string)
	if len(holes) != 0 || !strings.HasPrefix(hint, "No holes") {
		t.Errorf("holes %v, hint %q; want none and a hint starting \"No holes\"", holes, hint)
	}
}
