// Package toolset is the one place that lists m1nd's tool families: the
// registry every transport serves is built from Families, in this order.
package toolset

import (
	"github.com/m1nd-go/m1nd/mcpserver/tools"
	"github.com/m1nd-go/m1nd/mcpserver/tools/audit"
	"github.com/m1nd-go/m1nd/mcpserver/tools/change"
	"github.com/m1nd-go/m1nd/mcpserver/tools/continuity"
	"github.com/m1nd-go/m1nd/mcpserver/tools/documents"
	"github.com/m1nd-go/m1nd/mcpserver/tools/edit"
	"github.com/m1nd-go/m1nd/mcpserver/tools/live"
	"github.com/m1nd-go/m1nd/mcpserver/tools/query"
	"github.com/m1nd-go/m1nd/mcpserver/tools/system"
)

// Family is one tool family: a package under mcpserver/tools and the
// function that adds its tools to a registry.
type Family struct {
	Name     string
	Register func(*tools.Registry)
}

// Families are every tool family m1nd serves, in the order help and the
// docs present them.
var Families = []Family{
	{"system", system.Register},
	{"query", query.Register},
	{"change", change.Register},
	{"edit", edit.Register},
	{"continuity", continuity.Register},
	{"live", live.Register},
	{"audit", audit.Register},
	{"documents", documents.Register},
}

// Builtin returns the registry with every tool m1nd serves.
func Builtin() *tools.Registry {
	r := tools.NewRegistry()
	for _, f := range Families {
		f.Register(r)
	}
	r.PruneNext()
	return r
}
