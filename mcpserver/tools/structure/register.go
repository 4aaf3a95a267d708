// Package structure is the structure tool family: layers and layer_inspect (the dependency graph in layers, with violations), metrics, diagram and refactor_plan (communities and the moves that would cut coupling).
package structure

import "github.com/m1nd-go/m1nd/mcpserver/tools"

// Register adds the structure family's tools to r.
func Register(r *tools.Registry) {
	registerLayers(r)
	registerLayerInspect(r)
	registerMetrics(r)
	registerDiagram(r)
	registerRefactorPlan(r)
}
