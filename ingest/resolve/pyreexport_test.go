package resolve

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/m1nd-go/m1nd/ingest/extract"
)

// TestPythonImportThroughABarrel: `from pkg import name`, where pkg's
// __init__.py (or a module of any name, api.py) imports name from a
// submodule, binds the submodule's definition — not a method of the same
// name in a class of the barrel (no import names a class member), and not
// the barrel file alone.
func TestPythonImportThroughABarrel(t *testing.T) {
	files := map[string]string{
		"pkg/__init__.py": "from .sub import name, Thing\n\nclass Local:\n    def name(self):\n        pass\n",
		"pkg/sub.py":      "def name():\n    pass\n\nclass Thing:\n    pass\n",
		"pkg/api.py":      "from .impl import api_fn\n\ndef later():\n    from .impl import hidden\n",
		"pkg/impl.py":     "def api_fn():\n    pass\n\ndef hidden():\n    pass\n",
		"pkg/other.py":    "class C:\n    def name(self):\n        pass\n    def hidden(self):\n        pass\n",
		"app.py":          "from pkg import name, Thing\nfrom pkg.api import api_fn, hidden\n\ndef main():\n    name()\n    api_fn()\n    Thing()\n",
	}
	results := extractAll(t, files)
	ix := New(results, nil)
	got := map[string]string{}
	for _, r := range results {
		if r.Path != "app.py" {
			continue
		}
		for _, e := range r.Edges {
			name, ok := strings.CutPrefix(e.Target, extract.RefPrefix)
			if !ok || strings.HasPrefix(name, "pkg") {
				continue
			}
			o := ix.Resolve(Source{ID: e.Source, File: r.Path}, name, e.Relation, e.Hint)
			got[e.Relation+" "+name] = strings.TrimPrefix(o.Target, "file::")
		}
	}
	want := map[string]string{
		"imports name":   "pkg/sub.py::name",
		"imports Thing":  "pkg/sub.py::Thing",
		"imports api_fn": "pkg/impl.py::api_fn",
		"imports hidden": "pkg/api.py", // imported inside a function: not api's name
		"calls name":     "pkg/sub.py::name",
		"calls api_fn":   "pkg/impl.py::api_fn",
		"calls Thing":    "pkg/sub.py::Thing",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("bindings (-want +got):\n%s", d)
	}
}
