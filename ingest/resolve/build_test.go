package resolve

import (
	"slices"
	"testing"

	"github.com/m1nd-go/m1nd/ingest/extract"
)

func TestGoBuildConstraints(t *testing.T) {
	for _, c := range []struct {
		name        string
		goos, arch  string
		wantMatches bool
	}{
		{"x.go", "linux", "amd64", true},
		{"x_linux.go", "linux", "amd64", true},
		{"x_windows.go", "linux", "amd64", false},
		{"x_windows_test.go", "linux", "amd64", false},
		{"x_arm64.go", "linux", "amd64", false},
		{"x_linux_amd64.go", "linux", "amd64", true},
		{"x_darwin_amd64.go", "linux", "amd64", false},
		{"terminal_check_bsd.go", "linux", "amd64", true}, // bsd is no GOOS: the name says nothing
		{"x_solaris.go", "illumos", "amd64", true},
	} {
		if got := goFileNameMatches(c.name, c.goos, c.arch); got != c.wantMatches {
			t.Errorf("%s on %s/%s: %v, want %v", c.name, c.goos, c.arch, got, c.wantMatches)
		}
	}
	for tag, want := range map[string]bool{"linux": true, "unix": true, "amd64": true, "go1.21": true, "windows": false, "appengine": false, "js": false} {
		if got := goTagHolds(tag, "linux", "amd64"); got != want {
			t.Errorf("tag %s on linux/amd64: %v, want %v", tag, got, want)
		}
	}
	// Constraints no platform satisfies, and files without one.
	for _, c := range []struct {
		r    extract.Result
		want bool
	}{
		{extract.Result{Path: "a.go", Language: "go"}, true},
		{extract.Result{Path: "a.go", Language: "go", BuildConstraint: "ignore"}, false},
		{extract.Result{Path: "a.go", Language: "go", BuildConstraint: "!appengine && !ignore"}, true},
		{extract.Result{Path: "a.py", Language: "python", BuildConstraint: "ignore"}, true},
	} {
		if got := builtHere(&c.r); got != c.want {
			t.Errorf("builtHere(%+v) = %v, want %v", c.r, got, c.want)
		}
	}
}

// buildPorts lists the platforms that build a file.
func TestBuildPorts(t *testing.T) {
	portSet := func(want ...string) uint64 {
		var set uint64
		for i, p := range ports {
			if slices.Contains(want, p[0]) || slices.Contains(want, p[0]+"/"+p[1]) {
				set |= 1 << i
			}
		}
		return set
	}
	for _, c := range []struct {
		r    extract.Result
		want uint64
	}{
		{extract.Result{Path: "a.go", Language: "go"}, everywhere},
		{extract.Result{Path: "a.py", Language: "python", BuildConstraint: "ignore"}, everywhere},
		{extract.Result{Path: "a_windows.go", Language: "go"}, portSet("windows")},
		{extract.Result{Path: "a_windows_test.go", Language: "go"}, portSet("windows")},
		{extract.Result{Path: "_plan9.go", Language: "go"}, portSet("plan9")},
		{extract.Result{Path: "windows.go", Language: "go"}, everywhere},
		{extract.Result{Path: "a_amd64.go", Language: "go"}, portSet("android/amd64", "darwin/amd64", "dragonfly/amd64", "freebsd/amd64", "illumos/amd64", "ios/amd64", "linux/amd64", "netbsd/amd64", "openbsd/amd64", "plan9/amd64", "solaris/amd64", "windows/amd64")},
		{extract.Result{Path: "a_linux_arm64.go", Language: "go"}, portSet("linux/arm64", "android/arm64")}, // android builds linux files
		{extract.Result{Path: "a_linux.go", Language: "go"}, portSet("linux", "android")},
		{extract.Result{Path: "a.go", Language: "go", BuildConstraint: "ignore"}, 0},
		{extract.Result{Path: "a.go", Language: "go", BuildConstraint: "darwin || freebsd"}, portSet("darwin", "ios", "freebsd")},
		{extract.Result{Path: "a.go", Language: "go", BuildConstraint: "unix && !linux"}, portSet("aix", "darwin", "dragonfly", "freebsd", "illumos", "ios", "netbsd", "openbsd", "solaris")},
	} {
		if got := buildPorts(&c.r); got != c.want {
			t.Errorf("buildPorts(%s, %q) = %b, want %b", c.r.Path, c.r.BuildConstraint, got, c.want)
		}
	}
}
