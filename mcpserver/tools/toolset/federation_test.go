package toolset

import (
	"testing"

	"github.com/m1nd-go/m1nd/mcpserver/tools"
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// federate's example names repositories that exist only on the reader's
// machine: the output-schema test federates two it writes, in a session
// of their own.
func init() {
	exampleSetup["federate"] = func(t *testing.T, d *tools.Dispatcher) map[string]any {
		lib := tooltest.WriteRepo(t, "lib", map[string]string{
			"go.mod":       "module example.com/lib\n\ngo 1.22\n",
			"util/util.go": "package util\n\nfunc Clamp(v, lo, hi int) int { return max(lo, min(v, hi)) }\n",
		})
		app := tooltest.WriteRepo(t, "app", map[string]string{
			"go.mod":  "module example.com/app\n\ngo 1.22\n\nrequire example.com/lib v0.1.0\n",
			"main.go": "package main\n\nimport \"example.com/lib/util\"\n\nfunc main() { println(util.Clamp(5, 0, 3)) }\n",
		})
		return map[string]any{"repos": []any{map[string]any{"name": "app", "path": app}, map[string]any{"name": "lib", "path": lib}}}
	}
}
