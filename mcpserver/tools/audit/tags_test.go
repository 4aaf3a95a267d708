package audit

import (
	"slices"
	"strings"
	"testing"

	"github.com/m1nd-go/m1nd/ingest/scan"
	"github.com/m1nd-go/m1nd/mcpserver/extref"
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// TestScanTagsNameEveryPattern: the lists written in the input structs'
// tags are the lists of the packages that define them — the scan
// patterns (scan_all's enum, scan's help) and the reference kinds
// (external_references' default and enum, which audit passes too).
func TestScanTagsNameEveryPattern(t *testing.T) {
	t.Parallel()
	param := tooltest.Params(t, Register)
	if p := param("scan_all", "patterns"); !slices.Equal(p.Enum, scan.Patterns()) {
		t.Errorf("scan_all patterns enum %v, scan.Patterns() %v", p.Enum, scan.Patterns())
	}
	if p := param("scan", "pattern"); !strings.Contains(p.Help, "("+strings.Join(scan.Patterns(), ", ")+")") {
		t.Errorf("scan pattern help %q does not list scan.Patterns() %v", p.Help, scan.Patterns())
	}
	p := param("external_references", "kinds")
	if def, _ := p.Default.([]string); !slices.Equal(def, extref.Kinds) || !slices.Equal(p.Enum, extref.Kinds) {
		t.Errorf("external_references kinds default %v, enum %v; extref.Kinds %v", p.Default, p.Enum, extref.Kinds)
	}
}
