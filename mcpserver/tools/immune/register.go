// Package immune is the immune tool family: immune memory and risk signals: antibody_create, antibody_list and antibody_scan (stored bug patterns matched against the graph), tremor (accelerating change), trust (defect history per module) and heuristics_surface (why a node ranks as risky).
package immune

import "github.com/m1nd-go/m1nd/mcpserver/tools"

// Register adds the immune family's tools to r.
func Register(r *tools.Registry) {
	registerTrust(r)
	registerTremor(r)
	registerAntibodies(r)
	registerHeuristics(r)
}
