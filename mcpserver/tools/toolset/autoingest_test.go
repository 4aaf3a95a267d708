package toolset

import (
	"path/filepath"
	"testing"

	"github.com/m1nd-go/m1nd/mcpserver/tools"
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// The auto-ingest examples watch the fixture's README.md.
func init() {
	readme := func(d *tools.Dispatcher) string {
		for _, r := range d.Session.Current().Roots {
			if r.Adapter == "code" {
				return filepath.Join(r.Path, "README.md")
			}
		}
		return "README.md"
	}
	exampleSetup["auto_ingest_start"] = func(t *testing.T, d *tools.Dispatcher) map[string]any {
		return map[string]any{"roots": []string{readme(d)}, "formats": []string{"universal"}, "debounce_ms": 200}
	}
	exampleSetup["auto_ingest_tick"] = func(t *testing.T, d *tools.Dispatcher) map[string]any {
		tooltest.MustCall(t, d, "auto_ingest_start", map[string]any{"agent_id": "setup", "roots": []string{readme(d)}})
		return map[string]any{}
	}
}
