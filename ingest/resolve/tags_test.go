package resolve

import (
	"testing"

	"github.com/m1nd-go/m1nd/ingest/extract"
)

// Files chosen by custom tags: which are built together.
func TestBuiltTogether(t *testing.T) {
	tagged := func(c string) *extract.Result {
		return &extract.Result{Path: "a.go", Language: "go", BuildConstraint: c}
	}
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{"binary_log", "binary_log", true},
		{"binary_log", "!binary_log", false},
		{"binary_log", "", true},
		{"integration && linux", "!integration", false},
		{"a || b", "!a", true},
		{"a && b", "a && !b", false},
		// Built together on another port than the host's (logrus's
		// terminal checks): a tag of each, and platforms apart.
		{"!appengine && !js && !windows && !tinygo", "(darwin || freebsd || netbsd) && !tinygo", true},
		{"!appengine && !tinygo", "windows && !tinygo", true},
		{"integration && linux", "integration && windows", false},
		{"!appengine && windows", "appengine && windows", false},
	} {
		if got := builtTogether(taggedExpr(tagged(c.a)), taggedExpr(tagged(c.b))); got != c.want {
			t.Errorf("builtTogether(%q, %q) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
	for c, want := range map[string]bool{"": false, "linux && go1.21": false, "unix || cgo": false, "binary_log": true, "!windows && integration": true} {
		if got := taggedExpr(tagged(c)) != nil; got != want {
			t.Errorf("taggedExpr(%q) != nil: %v, want %v", c, got, want)
		}
	}
}
