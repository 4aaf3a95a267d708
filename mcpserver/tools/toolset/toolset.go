// Package toolset is the one place that lists m1nd's tool families: the
// registry every transport serves is built from Families, in this order.
package toolset

import (
	"fmt"
	"slices"
	"strings"

	"github.com/m1nd-go/m1nd/mcpserver/tools"
	"github.com/m1nd-go/m1nd/mcpserver/tools/audit"
	"github.com/m1nd-go/m1nd/mcpserver/tools/change"
	"github.com/m1nd-go/m1nd/mcpserver/tools/continuity"
	"github.com/m1nd-go/m1nd/mcpserver/tools/documents"
	"github.com/m1nd-go/m1nd/mcpserver/tools/dynamics"
	"github.com/m1nd-go/m1nd/mcpserver/tools/edit"
	"github.com/m1nd-go/m1nd/mcpserver/tools/federation"
	"github.com/m1nd-go/m1nd/mcpserver/tools/immune"
	"github.com/m1nd-go/m1nd/mcpserver/tools/live"
	"github.com/m1nd-go/m1nd/mcpserver/tools/patterns"
	"github.com/m1nd-go/m1nd/mcpserver/tools/query"
	"github.com/m1nd-go/m1nd/mcpserver/tools/report"
	"github.com/m1nd-go/m1nd/mcpserver/tools/structure"
	"github.com/m1nd-go/m1nd/mcpserver/tools/system"
)

// Family is one tool family: a package under mcpserver/tools and the
// function that adds its tools to a registry.
type Family struct {
	Name     string
	Register func(*tools.Registry)
}

// Families are every tool family m1nd serves, in the order help and the
// docs present them.
var Families = []Family{
	{"system", system.Register},
	{"query", query.Register},
	{"change", change.Register},
	{"edit", edit.Register},
	{"continuity", continuity.Register},
	{"live", live.Register},
	{"audit", audit.Register},
	{"documents", documents.Register},
	{"structure", structure.Register},
	{"patterns", patterns.Register},
	{"immune", immune.Register},
	{"dynamics", dynamics.Register},
	{"report", report.Register},
	{"federation", federation.Register},
}

// Builtin returns the registry with every tool m1nd serves.
func Builtin() *tools.Registry {
	r := tools.NewRegistry()
	RegisterAll(r)
	r.PruneNext()
	return r
}

// RegisterAll adds every family's tools to r, in Families' order. A
// family's tests use it through tooltest.Register (from an external test
// file: the family's own tests cannot import toolset).
func RegisterAll(r *tools.Registry) {
	for _, f := range Families {
		r.InFamily(f.Name, f.Register)
	}
}

// Default are the families tools/list offers when no toolset is chosen:
// finding and reading code, what a change breaks, writing, and the
// learning and continuity tools. live (watchers, alerts), audit and
// documents are enabled by --toolsets or the toolsets tool.
var Default = []string{"system", "query", "change", "edit", "continuity"}

// Resolve reads a toolsets choice ("all", "default", family names; empty:
// the default set) against the families of r. system is always in: health,
// help and ingest are how an agent starts.
func Resolve(r *tools.Registry, names []string) ([]string, error) {
	known := r.Families()
	if len(names) == 0 {
		names = []string{"default"}
	}
	set := map[string]bool{"system": true}
	for _, n := range names {
		n = strings.ToLower(strings.TrimSpace(n))
		switch {
		case n == "all":
			for _, f := range known {
				set[f] = true
			}
		case n == "default":
			for _, f := range Default {
				set[f] = true
			}
		case slices.Contains(known, n):
			set[n] = true
		default:
			return nil, fmt.Errorf("unknown toolset %q: the toolsets are %s, \"default\" (%s) and \"all\"; e.g. --toolsets query,change,edit", n, strings.Join(known, ", "), strings.Join(Default, ", "))
		}
	}
	out := make([]string, 0, len(set))
	for f := range set {
		out = append(out, f)
	}
	slices.Sort(out)
	return out, nil
}
