// Package patterns is the patterns tool family: twins and fingerprint (structurally equivalent code), ghost_edges (files that change together with no dependency), type_trace and taint_trace (where a type or tainted data flows).
package patterns

import "github.com/m1nd-go/m1nd/mcpserver/tools"

// Register adds the patterns family's tools to r.
func Register(r *tools.Registry) {
	registerTwins(r)
	registerFingerprint(r)
	registerGhosts(r)
	registerTaint(r)
	registerTypeTrace(r)
}
