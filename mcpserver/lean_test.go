package mcpserver

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

// TestLeanToolSendsOnlyHintsThatDiffer: tools/list leaves out the hints
// whose value is MCP's default (readOnlyHint, idempotentHint and
// destructiveHint as a client assumes them when absent); openWorldHint
// false differs from the default and is always sent.
func TestLeanToolSendsOnlyHintsThatDiffer(t *testing.T) {
	cases := []struct {
		class tools.Class
		want  map[string]bool
	}{
		{tools.Read, map[string]bool{"readOnlyHint": true, "openWorldHint": false}},
		{tools.Write, map[string]bool{"destructiveHint": false, "openWorldHint": false}},
		{tools.Exclusive, map[string]bool{"idempotentHint": true, "openWorldHint": false}},
	}
	for _, c := range cases {
		tl := &tools.Tool{Name: "probe", Title: "probe", Description: "test", Class: c.class}
		b, err := json.Marshal(leanTool{mcpTool(tl, false)})
		if err != nil {
			t.Fatal(err)
		}
		var got struct {
			Annotations map[string]bool `json:"annotations"`
			Name        string          `json:"name"`
		}
		if err := json.Unmarshal(b, &got); err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(c.want, got.Annotations); d != "" || got.Name != "probe" {
			t.Errorf("%v: annotations (-want +got):\n%s\n%s", c.class, d, b)
		}
	}
}
