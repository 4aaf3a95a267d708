package main

import (
	"runtime/debug"

	"github.com/m1nd-go/m1nd/mcpserver/tools"
	"github.com/m1nd-go/m1nd/tools/cli"
)

// devVersion is the placeholder of cli.Version and tools.ServerVersion;
// anything else was set at link time (-ldflags "-X
// github.com/m1nd-go/m1nd/tools/cli.Version=v1.2.3") and wins.
const devVersion = "0.1.0-dev"

func init() {
	cli.Version = buildVersion(cli.Version, debug.ReadBuildInfo)
	tools.ServerVersion = depVersion(tools.ServerVersion, "github.com/m1nd-go/m1nd/mcpserver", debug.ReadBuildInfo)
}

// buildVersion is the version `m1nd version` prints: the one set at link
// time, else the main module's version the go command recorded in the
// binary — v1.2.3 for `go install github.com/m1nd-go/m1nd/tools/cmd/m1nd@v1.2.3`,
// a pseudo-version for a build in a git checkout (when VCS stamping is on),
// "(devel)" otherwise, followed by the commit when one is recorded.
func buildVersion(set string, read func() (*debug.BuildInfo, bool)) string {
	if set != "" && set != devVersion {
		return set
	}
	bi, ok := read()
	if !ok || bi.Main.Version == "" {
		return "(devel)"
	}
	if bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	var rev, dirty string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				dirty = "+dirty"
			}
		}
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if rev == "" {
		return "(devel)"
	}
	return "(devel) " + rev + dirty
}

// depVersion is the version of module path this binary was built with (the
// tools it carries are mcpserver's), or set when it was set at link time or
// the build info does not say (a workspace build: "(devel)").
func depVersion(set, path string, read func() (*debug.BuildInfo, bool)) string {
	if set != "" && set != devVersion {
		return set
	}
	if bi, ok := read(); ok {
		for _, d := range bi.Deps {
			if d.Path == path && d.Version != "" {
				if d.Replace != nil && d.Replace.Version == "" {
					return "(devel)" // replaced by a directory
				}
				return d.Version
			}
		}
	}
	return "(devel)"
}
