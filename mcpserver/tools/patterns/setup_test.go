package patterns

import (
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest/withcore"
)

// The registry of this package's tests: the families its tools and their
// guidance name, and this one.
func init() { tooltest.Register = withcore.Family("patterns", Register) }
