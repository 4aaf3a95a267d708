package edit

import "github.com/m1nd-go/m1nd/mcpserver/tools"

// Register adds the edit family's tools to r.
func Register(r *tools.Registry) {
	registerEdit(r)
}
