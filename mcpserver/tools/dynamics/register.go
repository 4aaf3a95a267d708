// Package dynamics is the dynamics tool family: flow_simulate (particles from entry points colliding on shared state), epidemic (how a defect spreads over dependencies) and runtime_overlay (OpenTelemetry spans painted onto the graph).
package dynamics

import "github.com/m1nd-go/m1nd/mcpserver/tools"

// Register adds the dynamics family's tools to r.
func Register(r *tools.Registry) {
	registerFlow(r)
	registerEpidemic(r)
	registerOverlay(r)
}
