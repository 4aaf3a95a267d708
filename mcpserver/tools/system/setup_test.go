package system_test

import (
	"github.com/m1nd-go/m1nd/mcpserver/tools/toolset"
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// The registry of this package's external tests holds every family, as
// toolset builds it (toolset imports this package).
func init() { tooltest.Register = toolset.RegisterAll }
