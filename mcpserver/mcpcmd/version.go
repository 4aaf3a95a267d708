package mcpcmd

import "github.com/m1nd-go/m1nd/mcpserver/buildinfo"

// The server's version is the mcpserver module's, whichever binary embeds
// this package (m1nd-mcp, or m1nd serve).
func init() { version = buildinfo.ModuleVersion(version, "github.com/m1nd-go/m1nd/mcpserver") }
