package structure

import (
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest/withcore"
)

// The registry of this package's tests: the families its tools and
// guidance name, in toolset's order.
func init() { tooltest.Register = withcore.Family("structure", Register) }
