package toolset

import "github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"

func init() { tooltest.Register = RegisterAll }
