package documents

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// An example that imports a module the project's package no longer has
// (starlette's "from starlette.app import Starlette"), or a name its
// module never binds, is a missing target on the import's line; modules
// that can bind any name (__getattr__, a star import), other packages,
// submodules, relative imports and upgrading pages are left alone.
func TestDocumentDriftChecksExampleImports(t *testing.T) {
	t.Parallel()
	dir := srcCommitted(t, map[string]string{
		"src/kit/__init__.py":            "from .applications import Kit\n",
		"src/kit/applications.py":        "class Kit:\n    pass\n",
		"src/kit/core.py":                "DEFAULT = 1\n\n\ndef connect(host):\n    return host\n",
		"src/kit/lazy.py":                "def __getattr__(name):\n    return name\n",
		"src/kit/middleware/__init__.py": "",
		"src/kit/middleware/gzip.py":     "class GZip:\n    pass\n",
		"docs/guide.md": "# Guide\n\n```python\nfrom kit.app import Kit\nfrom kit.core import connect, DEFAULT, vanish\nimport kit.core\nfrom kit.lazy import anything\n" +
			"from kit.middleware import gzip\nfrom kit.middleware.gzip import GZip\nfrom other.pkg import thing\nfrom .local import mine\nfrom kit import Kit\n```\n",
		"docs/upgrading.md": "# Upgrading\n\n```python\nfrom kit.app import Kit  # 1.x\n```\n",
	})
	commitAt(t, dir, "2024-01-01T00:00:00Z", "docs")
	d := driftServer(t, dir)
	out := tooltest.MustCall(t, d, "document_drift", map[string]any{"agent_id": "t", "lower_confidence": true})
	var got []string
	for _, doc := range out["documents"].([]any) {
		dm := doc.(map[string]any)
		for _, f := range dm["findings"].([]any) {
			m := f.(map[string]any)
			got = append(got, fmt.Sprint(dm["source_path"], ":", m["line"], " ", m["kind"], " | ", m["detail"]))
		}
	}
	want := []string{
		"docs/guide.md:4 missing_target | the example imports kit.app, which is no module of the project (moved or renamed?)",
		"docs/guide.md:5 missing_target | the example imports vanish from kit.core, whose source (src/kit/core.py) does not define it (renamed or removed?)",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
}
