package resolve

import (
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
