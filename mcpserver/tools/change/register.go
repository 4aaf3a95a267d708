package change

import "github.com/m1nd-go/m1nd/mcpserver/tools"

// Register adds the change family's tools to r.
func Register(r *tools.Registry) {
	registerAnalysis(r)
	registerChange(r)
	registerWhatif(r)
}
