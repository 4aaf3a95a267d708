package documents

import "github.com/m1nd-go/m1nd/mcpserver/tools"

// Register adds the documents family's tools to r.
func Register(r *tools.Registry) {
	registerDocuments(r)
}
