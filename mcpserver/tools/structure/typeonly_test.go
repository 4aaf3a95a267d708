package structure

import (
	"fmt"
	"maps"
	"testing"

	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// TestLayersTypeOnlyImportClosesNoCycle: the stack with util/a.py's
// upward import moved under `if TYPE_CHECKING:` (annotation only) has no
// cycle and no violation; the left-out link is counted.
func TestLayersTypeOnlyImportClosesNoCycle(t *testing.T) {
	repo := maps.Clone(stackRepo)
	repo["util/a.py"] = "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from service.x import Server\n\ndef clean(v):\n    return v\n\ndef again(s: \"Server\"):\n    return s\n"
	repo["service/x.py"] += "\nclass Server:\n    pass\n"
	d, _ := tooltest.FixtureRepo(t, repo)
	out := tooltest.MustCall(t, d, "layers", map[string]any{"agent_id": "t", "detail": "full"})
	got := layersSummary(out)
	want := []string{
		"L0: [util/a.py util/b.py]",
		"L1: [store/a.py store/b.py]",
		"L2: [service/x.py service/y.py]",
		"L3: [app/a.py app/b.py]",
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("layers:\n got %q\nwant %q\n%v", got, want, tooltest.ToJSON(out))
	}
	if out["cycles"] != float64(0) || out["type_only_links"] != float64(1) {
		t.Errorf("cycles %v, type_only_links %v; want 0 and 1", out["cycles"], out["type_only_links"])
	}
}
