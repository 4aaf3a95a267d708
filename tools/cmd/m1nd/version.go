package main

import (
	"github.com/m1nd-go/m1nd/mcpserver/buildinfo"
	"github.com/m1nd-go/m1nd/mcpserver/tools/system"
	"github.com/m1nd-go/m1nd/tools/cli"
)

// The tools module's version is the CLI's; the tools it serves are
// mcpserver's, at the version this binary was built with.
func init() {
	cli.Version = buildinfo.ModuleVersion(cli.Version, "github.com/m1nd-go/m1nd/tools")
	system.ServerVersion = buildinfo.ModuleVersion(system.ServerVersion, "github.com/m1nd-go/m1nd/mcpserver")
}
