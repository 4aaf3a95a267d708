package change

import (
	"testing"

	"github.com/m1nd-go/m1nd/core/analysis"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

// hypothesize's claim is bounded by what ParseClaim reads; the tag says
// the number, this holds them together.
func TestClaimMaxLen(t *testing.T) {
	r := tools.NewRegistry()
	Register(r)
	tool, ok := r.Lookup("hypothesize")
	if !ok {
		t.Fatal("no hypothesize")
	}
	if p, _ := tool.Param("claim"); p.MaxLen != analysis.MaxClaimLen {
		t.Fatalf("claim maxlen %d, analysis.MaxClaimLen %d", p.MaxLen, analysis.MaxClaimLen)
	}
}

// What tools/list carries for every tool of the family stays short: the
// description at most 160 bytes, each parameter's at most 80 (the long
// forms are Details and the help tags, which help and the docs show).
func TestPublishedDescriptionsAreShort(t *testing.T) {
	r := tools.NewRegistry()
	Register(r)
	for _, tool := range r.All() {
		if n := len(tool.Description); n > 160 || n == 0 {
			t.Errorf("%s: description is %d bytes (1 to 160): %q", tool.Name, n, tool.Description)
		}
		for _, p := range tool.Params {
			if n := len(p.Description); n > 80 {
				t.Errorf("%s.%s: description is %d bytes (at most 80): %q", tool.Name, p.Name, n, p.Description)
			}
		}
	}
}
