package edit

import (
	"testing"

	"github.com/m1nd-go/m1nd/mcpserver/edit"
)

// TestFirstFailureSkipsProgress: the brief's first failure shows the
// compiler's message, not the toolchain's download lines before it.
func TestFirstFailureSkipsProgress(t *testing.T) {
	for _, tc := range []struct {
		name, out, want string
	}{
		{"go modules downloaded first",
			"go: downloading github.com/spf13/cast v1.10.0\ngo: downloading github.com/spf13/afero v1.15.0\n# github.com/spf13/viper\n./util.go:78:20: not enough arguments in call to insensitiviseMap",
			"go build ./... failed (exit 1): # github.com/spf13/viper\n./util.go:78:20: not enough arguments in call to insensitiviseMap"},
		{"cargo compiles dependencies first",
			"   Compiling serde v1.0.0\n    Updating crates.io index\nerror[E0308]: mismatched types\n --> src/lib.rs:3:5",
			"go build ./... failed (exit 1): error[E0308]: mismatched types\n --> src/lib.rs:3:5"},
		{"nothing to drop",
			"./a.go:1:1: expected 'package'",
			"go build ./... failed (exit 1): ./a.go:1:1: expected 'package'"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := edit.Check{Command: "go build ./...", Status: "failed", ExitCode: 1, Output: tc.out}
			if got := checkText(c); got != tc.want {
				t.Errorf("checkText:\n got %q\nwant %q", got, tc.want)
			}
		})
	}
}
