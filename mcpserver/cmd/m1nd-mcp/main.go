// Command m1nd-mcp is m1nd's MCP server over stdio (see package mcpcmd,
// which holds it so the m1nd CLI's serve runs the same code).
package main

import (
	"os"

	"github.com/m1nd-go/m1nd/mcpserver/mcpcmd"
)

func main() { os.Exit(mcpcmd.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) }
