package continuity

import "github.com/m1nd-go/m1nd/mcpserver/tools"

// Register adds the continuity family's tools to r.
func Register(r *tools.Registry) {
	registerLearning(r)
	registerLocks(r)
	registerMemory(r)
	registerPerspectives(r)
	registerTrails(r)
}
