package tooltest

import "github.com/m1nd-go/m1nd/mcpserver/tools"

// Register adds the tool families to a registry. Each test package sets it
// in setup_test.go — to toolset.RegisterAll, from an external test file
// where a family's own tests cannot import toolset (it imports the family).
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
