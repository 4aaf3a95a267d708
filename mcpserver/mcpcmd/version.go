package mcpcmd

import "runtime/debug"

// devVersion is the placeholder main.go gives version; anything else was
// set at link time (-ldflags "-X …/mcpcmd.version=v1.2.3") and wins.
const devVersion = "0.1.0-dev"

func init() { version = buildVersion(version, debug.ReadBuildInfo) }

// modulePath is the module this package belongs to: its version is the
// server's, whichever binary embeds it (m1nd-mcp, or m1nd serve).
const modulePath = "github.com/m1nd-go/m1nd/mcpserver"

// buildVersion is the version --version prints and the MCP handshake
// reports: the one set at link time, else the version of this module the
// go command recorded in the binary — v1.2.3 for
// `go install github.com/m1nd-go/m1nd/mcpserver/cmd/m1nd-mcp@v1.2.3`, the
// required mcpserver version in another module's binary, a pseudo-version
// for a build in a git checkout (when VCS stamping is on), "(devel)"
// otherwise, followed by the commit when one is recorded.
func buildVersion(set string, read func() (*debug.BuildInfo, bool)) string {
	if set != "" && set != devVersion {
		return set
	}
	bi, ok := read()
	if !ok {
		return "(devel)"
	}
	if bi.Main.Path != modulePath {
		for _, d := range bi.Deps {
			if d.Path == modulePath && d.Version != "" && (d.Replace == nil || d.Replace.Version != "") {
				return d.Version
			}
		}
		return "(devel)" // a workspace build, or replaced by a directory
	}
	if bi.Main.Version == "" {
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
