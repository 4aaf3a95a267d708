// Package withcore registers, for a family's own tests, the families that
// family's tools and guidance name (system, query, change) and the family
// itself. It lives apart from tooltest because query's and change's
// in-package tests import tooltest, which therefore cannot import them.
package withcore

import (
	"github.com/m1nd-go/m1nd/mcpserver/tools"
	"github.com/m1nd-go/m1nd/mcpserver/tools/change"
	"github.com/m1nd-go/m1nd/mcpserver/tools/query"
	"github.com/m1nd-go/m1nd/mcpserver/tools/system"
)

// Family returns a registration of system, query and change, then the
// family name through add, in toolset's order; a family's setup_test.go
// sets tooltest.Register to it.
func Family(name string, add func(*tools.Registry)) func(*tools.Registry) {
	return func(r *tools.Registry) {
		r.InFamily("system", system.Register)
		r.InFamily("query", query.Register)
		r.InFamily("change", change.Register)
		r.InFamily(name, add)
	}
}
