// Package buildinfo names the version of one of our modules as built into
// the running binary, for --version and the MCP handshake: every m1nd
// binary asks it the same way.
package buildinfo

import "runtime/debug"

// Placeholder is the version a binary's variable holds until link time
// (-ldflags "-X …=v1.2.3") sets another one.
const Placeholder = "0.1.0-dev"

// ModuleVersion returns the version of module the binary carries: set when
// it was set at link time (anything but "" and Placeholder), else what the
// go command recorded — v1.2.3 after `go install …@v1.2.3` (the main
// module's, or the required version when module is a dependency of the
// binary), a pseudo-version for a stamped checkout build, otherwise
// "(devel)", followed by the commit when one is recorded.
func ModuleVersion(set, module string) string {
	return moduleVersion(set, module, debug.ReadBuildInfo)
}

func moduleVersion(set, module string, read func() (*debug.BuildInfo, bool)) string {
	if set != "" && set != Placeholder {
		return set
	}
	bi, ok := read()
	if !ok {
		return "(devel)"
	}
	if bi.Main.Path != module {
		for _, d := range bi.Deps {
			if d.Path == module && d.Version != "" && (d.Replace == nil || d.Replace.Version != "") {
				return d.Version
			}
		}
		return "(devel)" // a workspace build, or replaced by a directory
	}
	switch bi.Main.Version {
	case "":
		return "(devel)"
	case "(devel)":
		return develWithCommit(bi.Settings)
	}
	return bi.Main.Version
}

// develWithCommit is "(devel)" followed by the recorded commit (and
// "+dirty" for a modified tree), when there is one.
func develWithCommit(settings []debug.BuildSetting) string {
	var rev, dirty string
	for _, s := range settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				dirty = "+dirty"
			}
		}
	}
	if rev == "" {
		return "(devel)"
	}
	return "(devel) " + rev[:min(len(rev), 12)] + dirty
}
