package structure

import (
	"testing"

	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// One library package and the examples that use it (alecthomas/kong):
// two layers, and the README, licence and key files are no units.
func TestLayersLibraryAndExamples(t *testing.T) {
	t.Parallel()
	d, _ := tooltest.FixtureRepo(t, map[string]string{
		"go.mod":                 "module example.com/kong\n\ngo 1.22\n",
		"kong.go":                "package kong\n\n// New builds.\nfunc New() int { return 1 }\n",
		"COPYING":                "MIT\n",
		"README.md":              "# kong\n",
		"_examples/a/main.go":    "package main\n\nimport \"example.com/kong\"\n\nfunc main() { kong.New() }\n",
		"_examples/b/main.go":    "package main\n\nimport \"example.com/kong\"\n\nfunc main() { kong.New() }\n",
		"_examples/b/server_key": "-----BEGIN KEY-----\n",
	})
	out := tooltest.MustCall(t, d, "layers", map[string]any{"agent_id": "t"})
	if got := out["units"]; got != float64(3) {
		t.Errorf("units = %v, want 3 (., _examples/a, _examples/b)", got)
	}
	var got []string
	for _, l := range out["layers"].([]any) {
		got = append(got, l.(map[string]any)["name"].(string))
	}
	if want := []string{". (1)", "_examples (2)"}; len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("layers = %q, want %q", got, want)
	}
}

// Every unit below one directory (google/go-cmp's cmp/): the layers are
// named by the next level, not all "cmp (n)".
func TestLayersNamedBelowASharedDirectory(t *testing.T) {
	t.Parallel()
	d, _ := tooltest.FixtureRepo(t, map[string]string{
		"go.mod":                  "module example.com/m\n\ngo 1.22\n",
		"cmp/compare.go":          "package cmp\n\nimport \"example.com/m/cmp/internal/value\"\n\n// Equal compares.\nfunc Equal() bool { return value.IsZero() }\n",
		"cmp/internal/value/v.go": "package value\n\n// IsZero reports.\nfunc IsZero() bool { return true }\n",
		"cmp/internal/flags/f.go": "package flags\n\n// Deterministic is set in tests.\nvar Deterministic bool\n",
		"cmp/cmpopts/ignore.go":   "package cmpopts\n\nimport \"example.com/m/cmp\"\n\n// Ignore ignores.\nfunc Ignore() bool { return cmp.Equal() }\n",
		"cmp/cmpopts/ignore_x.go": "package cmpopts\n\nimport \"example.com/m/cmp/internal/flags\"\n\n// X reads.\nfunc X() bool { return flags.Deterministic }\n",
	})
	out := tooltest.MustCall(t, d, "layers", map[string]any{"agent_id": "t"})
	var got []string
	for _, l := range out["layers"].([]any) {
		got = append(got, l.(map[string]any)["name"].(string))
	}
	want := []string{"cmp/internal (2)", "cmp (1)", "cmp/cmpopts (1)"}
	if len(got) != 3 || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
		t.Errorf("layers = %q, want %q", got, want)
	}
}
