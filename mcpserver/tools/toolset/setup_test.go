package toolset

import (
	"github.com/m1nd-go/m1nd/mcpserver/tools"
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

func init() {
	tooltest.Register = func(r *tools.Registry) {
		for _, f := range Families {
			r.InFamily(f.Name, f.Register)
		}
	}
}
