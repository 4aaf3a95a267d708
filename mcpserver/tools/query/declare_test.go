package query

import (
	"reflect"
	"testing"

	"github.com/m1nd-go/m1nd/core/seek"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// The bounds written in the input structs' tags agree with the constants
// the handlers use.
func TestTagsAgreeWithConstants(t *testing.T) {
	t.Parallel()
	param := tooltest.Params(t, Register)
	num := func(f *float64) float64 {
		if f == nil {
			return -1
		}
		return *f
	}
	checks := []struct {
		what      string
		got, want any
	}{
		{"batch_view files maxitems", param("batch_view", "files").MaxItems, batchViewMaxFiles},
		{"batch_view max_total_bytes max", num(param("batch_view", "max_total_bytes").Max), float64(batchViewMaxBytes)},
		{"seek query maxlen", param("seek", "query").MaxLen, seekMaxQueryBytes},
		{"seek top_k default", param("seek", "top_k").Default, seek.DefaultTopK},
		{"surgical_context max_source_bytes default", param("surgical_context", "max_source_bytes").Default, surgicalSourceDefault},
		{"surgical_context max_source_bytes max", num(param("surgical_context", "max_source_bytes").Max), float64(surgicalSourceMax)},
		{"surgical_context_v2 max_excerpt_bytes default", param("surgical_context_v2", "max_excerpt_bytes").Default, surgicalExcerptDefault},
		{"trace error_text maxlen", param("trace", "error_text").MaxLen, 4 * traceMaxBytes},
	}
	// surgical_context_v2 takes surgical_context's parameters, as declared
	// there, before its own.
	r := tools.NewRegistry()
	Register(r)
	one, _ := r.Lookup("surgical_context")
	two, _ := r.Lookup("surgical_context_v2")
	if !reflect.DeepEqual(one.Params, two.Params[:len(one.Params)]) {
		t.Errorf("surgical_context_v2's first parameters differ from surgical_context's:\n%+v\n%+v", two.Params[:len(one.Params)], one.Params)
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s: tag says %v, the constant %v", c.what, c.got, c.want)
		}
	}
}
