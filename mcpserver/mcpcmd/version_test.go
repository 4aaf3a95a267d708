package mcpcmd

import (
	"runtime/debug"
	"testing"
)

func TestBuildVersion(t *testing.T) {
	info := func(v string, settings ...debug.BuildSetting) func() (*debug.BuildInfo, bool) {
		return func() (*debug.BuildInfo, bool) {
			return &debug.BuildInfo{Main: debug.Module{Path: modulePath, Version: v}, Settings: settings}, true
		}
	}
	for _, c := range []struct {
		set  string
		read func() (*debug.BuildInfo, bool)
		want string
	}{
		{"v9.9.9", info("v0.1.0"), "v9.9.9"}, // -ldflags -X wins
		{devVersion, info("v0.1.0"), "v0.1.0"},
		{"", info("v0.2.1-0.20260101000000-abcdef123456"), "v0.2.1-0.20260101000000-abcdef123456"},
		{devVersion, info("(devel)"), "(devel)"},
		{devVersion, info("(devel)", debug.BuildSetting{Key: "vcs.revision", Value: "0123456789abcdef0123"}, debug.BuildSetting{Key: "vcs.modified", Value: "true"}), "(devel) 0123456789ab+dirty"},
		{devVersion, func() (*debug.BuildInfo, bool) { return nil, false }, "(devel)"},
		// embedded in another module's binary (m1nd serve): the mcpserver it requires
		{devVersion, func() (*debug.BuildInfo, bool) {
			return &debug.BuildInfo{Main: debug.Module{Path: "github.com/m1nd-go/m1nd/tools", Version: "v0.3.0"},
				Deps: []*debug.Module{{Path: modulePath, Version: "v0.2.0"}}}, true
		}, "v0.2.0"},
		{devVersion, func() (*debug.BuildInfo, bool) {
			return &debug.BuildInfo{Main: debug.Module{Path: "github.com/m1nd-go/m1nd/tools", Version: "(devel)"},
				Deps: []*debug.Module{{Path: modulePath, Version: "v0.2.0", Replace: &debug.Module{Path: "../mcpserver"}}}}, true
		}, "(devel)"},
	} {
		if got := buildVersion(c.set, c.read); got != c.want {
			t.Errorf("buildVersion(%q) = %q, want %q", c.set, got, c.want)
		}
	}
}
