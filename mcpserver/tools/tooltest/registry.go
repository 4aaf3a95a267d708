package tooltest

import "github.com/m1nd-go/m1nd/mcpserver/tools"

// Register adds every tool family to a registry. Each test package sets it
// (setup_test.go) to the families in toolset's order — a family's tests
// cannot import toolset, which imports the family.
var Register func(*tools.Registry)

// Builtin is the registry of every tool, as toolset.Builtin builds it.
func Builtin() *tools.Registry {
	if Register == nil {
		panic("tooltest: Register is not set; the test package's setup_test.go sets it")
	}
	r := tools.NewRegistry()
	Register(r)
	r.PruneNext()
	return r
}
