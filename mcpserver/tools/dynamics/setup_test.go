package dynamics

import (
	"github.com/m1nd-go/m1nd/mcpserver/tools"
	"github.com/m1nd-go/m1nd/mcpserver/tools/change"
	"github.com/m1nd-go/m1nd/mcpserver/tools/query"
	"github.com/m1nd-go/m1nd/mcpserver/tools/system"
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// The registry of this package's tests: system (ingest), query, change
// (impact reads the runtime overlay) and this family.
func init() {
	tooltest.Register = func(r *tools.Registry) {
		r.InFamily("system", system.Register)
		r.InFamily("query", query.Register)
		r.InFamily("change", change.Register)
		r.InFamily("dynamics", Register)
	}
}
