package extract

import "testing"

// Legacy "// +build" lines count when no //go:build line does, all of
// them together, as go/build reads them.
func TestGoBuildLinePlusBuild(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"// +build !binary_log\n\npackage x\n", "!binary_log"},
		{"// +build linux darwin\n// +build cgo\n\npackage x\n", "(linux || darwin) && cgo"},
		{"// +build a,b !c\n\npackage x\n", "(a && b) || !c"},
		{"//go:build linux\n// +build linux darwin\n\npackage x\n", "linux"},
		{"package x\n\n// +build linux\n", ""},
	} {
		if got := goBuildLine([]byte(c.src)); got != c.want {
			t.Errorf("goBuildLine(%q) = %q, want %q", c.src, got, c.want)
		}
	}
}
