package edit

import (
	"github.com/m1nd-go/m1nd/mcpserver/tools"
	"github.com/m1nd-go/m1nd/mcpserver/tools/audit"
	"github.com/m1nd-go/m1nd/mcpserver/tools/change"
	"github.com/m1nd-go/m1nd/mcpserver/tools/continuity"
	"github.com/m1nd-go/m1nd/mcpserver/tools/documents"
	"github.com/m1nd-go/m1nd/mcpserver/tools/live"
	"github.com/m1nd-go/m1nd/mcpserver/tools/query"
	"github.com/m1nd-go/m1nd/mcpserver/tools/system"
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// The registry of this package's tests holds every family, in toolset's order.
func init() {
	tooltest.Register = func(r *tools.Registry) {
		r.InFamily("system", system.Register)
		r.InFamily("query", query.Register)
		r.InFamily("change", change.Register)
		r.InFamily("edit", Register)
		r.InFamily("continuity", continuity.Register)
		r.InFamily("live", live.Register)
		r.InFamily("audit", audit.Register)
		r.InFamily("documents", documents.Register)
	}
}
