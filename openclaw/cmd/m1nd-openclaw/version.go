package main

import "github.com/m1nd-go/m1nd/mcpserver/buildinfo"

// The openclaw module's version as built into this binary.
func init() { version = buildinfo.ModuleVersion(version, "github.com/m1nd-go/m1nd/openclaw") }
