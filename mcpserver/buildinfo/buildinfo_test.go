package buildinfo

import (
	"runtime/debug"
	"testing"
)

func TestModuleVersion(t *testing.T) {
	const mod = "github.com/m1nd-go/m1nd/mcpserver"
	main := func(v string, settings ...debug.BuildSetting) func() (*debug.BuildInfo, bool) {
		return func() (*debug.BuildInfo, bool) {
			return &debug.BuildInfo{Main: debug.Module{Path: mod, Version: v}, Settings: settings}, true
		}
	}
	dep := func(deps ...*debug.Module) func() (*debug.BuildInfo, bool) {
		return func() (*debug.BuildInfo, bool) {
			return &debug.BuildInfo{Main: debug.Module{Path: "github.com/m1nd-go/m1nd/tools", Version: "v0.3.0"}, Deps: deps}, true
		}
	}
	for _, c := range []struct {
		name string
		set  string
		read func() (*debug.BuildInfo, bool)
		want string
	}{
		{"link time wins", "v9.9.9", main("v0.1.0"), "v9.9.9"},
		{"go install at a version", Placeholder, main("v0.1.0"), "v0.1.0"},
		{"pseudo-version", "", main("v0.2.1-0.20260101000000-abcdef123456"), "v0.2.1-0.20260101000000-abcdef123456"},
		{"checkout without stamp", Placeholder, main("(devel)"), "(devel)"},
		{"stamped checkout", Placeholder, main("(devel)", debug.BuildSetting{Key: "vcs.revision", Value: "0123456789abcdef0123"}, debug.BuildSetting{Key: "vcs.modified", Value: "true"}), "(devel) 0123456789ab+dirty"},
		{"no build info", Placeholder, func() (*debug.BuildInfo, bool) { return nil, false }, "(devel)"},
		{"a dependency of the binary", Placeholder, dep(&debug.Module{Path: mod, Version: "v0.2.0"}), "v0.2.0"},
		{"a dependency replaced by a directory", Placeholder, dep(&debug.Module{Path: mod, Version: "v0.2.0", Replace: &debug.Module{Path: "../mcpserver"}}), "(devel)"},
		{"not in the binary", Placeholder, dep(), "(devel)"},
	} {
		if got := moduleVersion(c.set, mod, c.read); got != c.want {
			t.Errorf("%s: moduleVersion(%q) = %q, want %q", c.name, c.set, got, c.want)
		}
	}
}
