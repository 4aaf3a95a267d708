package tools

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Param answers as a scan of AllParams (agent_id first) and copies
// nothing: every call's argument check looks each argument up.
func TestParamLooksInPlace(t *testing.T) {
	tool := &Tool{Name: "probe", Params: []Param{
		{Name: "query", Type: "string", Required: true},
		{Name: "top_k", Type: "integer"},
		{Name: "agent_id", Type: "integer"}, // a shadowed redeclaration: agent_id's own wins
	}}
	for _, name := range []string{"agent_id", "query", "top_k", "missing", ""} {
		var want Param
		found := false
		for _, p := range tool.AllParams() {
			if p.Name == name {
				want, found = p, true
				break
			}
		}
		got, ok := tool.Param(name)
		if ok != found || !cmp.Equal(got, want) {
			t.Errorf("Param(%q) = %+v, %v; want %+v, %v", name, got, ok, want, found)
		}
	}
	if n := testing.AllocsPerRun(100, func() {
		tool.Param("query")
		tool.Param("agent_id")
	}); n != 0 {
		t.Errorf("Param allocates %.0f times a lookup pair, want 0", n)
	}
}
