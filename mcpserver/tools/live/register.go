package live

import "github.com/m1nd-go/m1nd/mcpserver/tools"

// Register adds the live family's tools to r.
func Register(r *tools.Registry) {
	registerAutoIngest(r)
	registerDaemon(r)
}
