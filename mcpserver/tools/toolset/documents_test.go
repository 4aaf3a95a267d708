package toolset

import (
	"path/filepath"
	"testing"

	"github.com/m1nd-go/m1nd/mcpserver/tools"
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// The document tools' examples name documents of the fixture: its
// README.md, merged through the universal lane.
func init() {
	merge := func(t *testing.T, d *tools.Dispatcher) {
		b := d.Session.Current()
		for _, r := range b.Roots {
			if r.Adapter == "code" {
				tooltest.MustCall(t, d, "ingest", map[string]any{"agent_id": "setup", "path": filepath.Join(r.Path, "README.md"), "adapter": "universal", "mode": "merge"})
				return
			}
		}
	}
	for _, name := range []string{"document_resolve", "document_bindings", "document_drift"} {
		exampleSetup[name] = func(t *testing.T, d *tools.Dispatcher) map[string]any {
			merge(t, d)
			tool, _ := d.Registry.Lookup(name)
			return tool.Example
		}
	}
}
