package query

import "github.com/m1nd-go/m1nd/mcpserver/tools"

// Register adds the query family's tools to r.
func Register(r *tools.Registry) {
	registerActivation(r)
	registerBatchView(r)
	registerGlob(r)
	registerSearch(r)
	registerSeek(r)
	registerSurgical(r)
	registerTrace(r)
	registerView(r)
}
