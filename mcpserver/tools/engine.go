package tools

import (
	"github.com/m1nd-go/m1nd/core/engine"
	"github.com/m1nd-go/m1nd/mcpserver/session"
)

var DimensionNames = []string{"structural", "semantic", "temporal", "causal"}

// queryEngine returns the engine for the current bundle.
func QueryEngine(c *Call, b *session.Bundle) (*engine.Engine, error) {
	if b.Graph.NumNodes() == 0 {
		return nil, EmptyGraphErr()
	}
	return c.Session.Engine(b)
}
