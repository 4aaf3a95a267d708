package structure

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// stackRepo is a four-layer Python package set, two modules per layer,
// with one upward import: util/a.py imports service.x.
var stackRepo = map[string]string{
	"app/__init__.py":     "",
	"app/a.py":            "from service.x import serve\n\ndef main():\n    return serve()\n",
	"app/b.py":            "from service.x import serve\nfrom service.y import handle\n\ndef run():\n    return serve() + handle()\n",
	"service/__init__.py": "",
	"service/x.py":        "from store.a import get\nfrom store.b import put\n\ndef serve():\n    return get() + put()\n",
	"service/y.py":        "from store.b import put\n\ndef handle():\n    return put()\n",
	"store/__init__.py":   "",
	"store/a.py":          "from util.a import clean\nfrom util.b import VALUE\n\ndef get():\n    return clean(VALUE)\n",
	"store/b.py":          "from util.a import clean\n\ndef put():\n    return clean(2)\n",
	"util/__init__.py":    "",
	"util/a.py":           "def clean(v):\n    return v\n\ndef again():\n    from service.x import serve\n    return serve()\n",
	"util/b.py":           "VALUE = 1\n",
	"tests/test_app.py":   "from app.a import main\n\ndef test_main():\n    assert main()\n",
}

func TestLayersFixtureOneUpwardImport(t *testing.T) {
	d, _ := tooltest.FixtureRepo(t, stackRepo)
	out := tooltest.MustCall(t, d, "layers", map[string]any{"agent_id": "t", "detail": "full"})
	got := layersSummary(out)
	want := []string{
		"L0: [util/a.py util/b.py]",
		"L1: [store/a.py store/b.py]",
		"L2: [service/x.py service/y.py]",
		"L3: [app/a.py app/b.py]",
		"High UpwardDependency util/a.py(L0) -> service/x.py(L2)",
		"High CircularDependency util/a.py(L0) -> service/x.py(L2)",
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("layers:\n got %q\nwant %q\n%v", got, want, tooltest.ToJSON(out))
	}
	t.Log(tooltest.ToJSON(out))
}

func TestLayerInspectFixture(t *testing.T) {
	d, _ := tooltest.FixtureRepo(t, stackRepo)
	out := tooltest.MustCall(t, d, "layer_inspect", map[string]any{"agent_id": "t", "level": 0})
	var units []string
	for _, u := range out["units"].([]any) {
		u := u.(map[string]any)
		units = append(units, fmt.Sprintf("%v up=%v", u["unit"], u["up"]))
	}
	slices.Sort(units)
	if want := "[util/a.py up=1 util/b.py up=<nil>]"; fmt.Sprint(units) != want {
		t.Errorf("units %v, want %s", units, want)
	}
	if got := fmt.Sprint(out["depended_on_by_levels"]); got != "[map[level:1 links:3]]" {
		t.Errorf("depended_on_by_levels %s, want the 3 links from store (level 1)", got)
	}
	if got := fmt.Sprint(out["depends_on_levels"]); got != "[map[level:2 links:1]]" {
		t.Errorf("depends_on_levels %s, want the upward import into service (level 2)", got)
	}
	if n := out["violations_total"]; n != float64(2) {
		t.Errorf("violations_total %v, want 2 (the upward import and its cycle)", n)
	}
	// LayerNotFound names the valid range and changes nothing.
	res, isErr := tooltest.Call(t, d, "layer_inspect", map[string]any{"agent_id": "t", "level": 9})
	if !isErr || !strings.Contains(fmt.Sprint(res["error"]), "LayerNotFound") || !strings.Contains(fmt.Sprint(res["error"]), "0..3") {
		t.Fatalf("level 9: %v", res)
	}
	again := tooltest.MustCall(t, d, "layers", map[string]any{"agent_id": "t"})
	if again["cached"] != true {
		t.Errorf("layers after layer_inspect: cached = %v, want true (same graph generation, same units)", again["cached"])
	}
}
