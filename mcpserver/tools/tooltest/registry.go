package tooltest

import (
	"testing"

	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

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

// Params returns a lookup of the parameters the tools of register declare,
// as a family's tests use it to hold tags to the constants they write; the
// lookup fails the test when the tool or the parameter is missing.
func Params(t testing.TB, register func(*tools.Registry)) func(tool, name string) tools.Param {
	r := tools.NewRegistry()
	register(r)
	return func(tool, name string) tools.Param {
		t.Helper()
		tl, ok := r.Lookup(tool)
		if !ok {
			t.Fatalf("no tool %s", tool)
		}
		p, ok := tl.Param(name)
		if !ok {
			t.Fatalf("%s has no parameter %s", tool, name)
		}
		return p
	}
}
