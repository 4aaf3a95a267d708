package edit

import (
	"testing"

	"github.com/m1nd-go/m1nd/mcpserver/edit"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

// TestEditBoundsFollowTheWriter: the bounds written in the input structs'
// tags are the writer's own limits.
func TestEditBoundsFollowTheWriter(t *testing.T) {
	t.Parallel()
	r := tools.NewRegistry()
	Register(r)
	for _, c := range []struct {
		tool, param string
		got         func(tools.Param) int
		want        int
	}{
		{"apply", "new_content", func(p tools.Param) int { return p.MaxLen }, edit.MaxFileSize},
		{"edit_preview", "new_content", func(p tools.Param) int { return p.MaxLen }, edit.MaxFileSize},
		{"apply_batch", "edits", func(p tools.Param) int { return p.MaxItems }, edit.MaxBatchFiles},
	} {
		tl, ok := r.Lookup(c.tool)
		if !ok {
			t.Fatalf("%s is not registered", c.tool)
		}
		p, ok := tl.Param(c.param)
		if !ok {
			t.Fatalf("%s has no parameter %s", c.tool, c.param)
		}
		if got := c.got(p); got != c.want {
			t.Errorf("%s.%s is bounded at %d, the writer at %d", c.tool, c.param, got, c.want)
		}
	}
}
