package patterns

import (
	"github.com/m1nd-go/m1nd/mcpserver/tools"
	"github.com/m1nd-go/m1nd/mcpserver/tools/change"
	"github.com/m1nd-go/m1nd/mcpserver/tools/query"
	"github.com/m1nd-go/m1nd/mcpserver/tools/system"
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// The registry of this package's tests: the families its tools and their
// guidance name, and this one.
func init() {
	tooltest.Register = func(r *tools.Registry) {
		r.InFamily("system", system.Register)
		r.InFamily("query", query.Register)
		r.InFamily("change", change.Register)
		r.InFamily("patterns", Register)
	}
}
