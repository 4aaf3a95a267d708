package system

import "github.com/m1nd-go/m1nd/mcpserver/tools"

// Register adds the system family's tools to r.
func Register(r *tools.Registry) {
	registerSystem(r)
	registerIngest(r)
	registerToolsets(r)
}
