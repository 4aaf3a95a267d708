package resolve

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/m1nd-go/m1nd/ingest/extract"
)

// TestPythonModuleAttributeReads: a file that imports a module whole and
// reads names from it without calling them (attrs' typing_tests:
// `attrs.exceptions.FrozenError`, `attrs.cmp_using`) uses them as `from
// attrs import exceptions, cmp_using` would — the submodule, the name's
// definition through the package's re-export — not only attrs/__init__.py.
// A call through a submodule (`attrs.setters.pipe()`) names the submodule
// too; an external module's reads bind nothing.
func TestPythonModuleAttributeReads(t *testing.T) {
	files := map[string]string{
		"src/attr/__init__.py":     "from ._cmp import cmp_using\nfrom . import exceptions, setters\n",
		"src/attr/_cmp.py":         "def cmp_using():\n    pass\n",
		"src/attr/exceptions.py":   "class FrozenError(Exception):\n    pass\n",
		"src/attr/setters.py":      "def pipe(*a):\n    pass\n",
		"src/attrs/__init__.py":    "from attr import cmp_using\n\nfrom . import exceptions, setters\n",
		"src/attrs/exceptions.py":  "from attr.exceptions import *\n",
		"src/attrs/setters.py":     "from attr.setters import *\n",
		"typing_tests/baseline.py": "import os\n\nimport attrs\n\n\ndef accessing_from_attrs() -> None:\n    attrs.exceptions.FrozenError\n    attrs.cmp_using\n    os.sep\n\n\nx = attrs.setters.pipe(1)\n",
	}
	results := extractAll(t, files)
	ix := New(results, nil)
	got := map[string]string{}
	for _, r := range results {
		if r.Path != "typing_tests/baseline.py" {
			continue
		}
		for _, e := range r.Edges {
			name, ok := strings.CutPrefix(e.Target, extract.RefPrefix)
			if !ok || name == e.Hint.Module {
				continue // the import statements' own refs
			}
			o := ix.Resolve(Source{ID: e.Source, File: r.Path}, name, e.Relation, e.Hint)
			got[e.Relation+" "+e.Hint.Module+"."+name] = strings.TrimPrefix(o.Target, "file::")
		}
	}
	want := map[string]string{
		"imports attrs.exceptions": "src/attrs/exceptions.py",
		"imports attrs.cmp_using":  "src/attr/_cmp.py::cmp_using",
		"imports attrs.setters":    "src/attrs/setters.py",
		"imports os.sep":           "",
		"calls attrs.setters.pipe": "src/attr/setters.py::pipe",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("bindings (-want +got):\n%s", d)
	}
}
