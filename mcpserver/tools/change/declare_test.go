package change

import (
	"testing"

	"github.com/m1nd-go/m1nd/core/analysis"
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// hypothesize's claim is bounded by what ParseClaim reads; the tag says
// the number, this holds them together.
func TestClaimMaxLen(t *testing.T) {
	t.Parallel()
	if p := tooltest.Params(t, Register)("hypothesize", "claim"); p.MaxLen != analysis.MaxClaimLen {
		t.Fatalf("claim maxlen %d, analysis.MaxClaimLen %d", p.MaxLen, analysis.MaxClaimLen)
	}
}
