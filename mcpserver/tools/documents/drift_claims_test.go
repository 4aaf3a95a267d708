package documents

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// A code change after the page is a finding only with a claim on the page
// the code contradicts: a hand-written signature that leaves out a
// parameter the def gained (starlette's "Signature: `StaticFiles(…)`"
// without html) or names one it lost, and a module-qualified name the
// module does not give (sqlite_utils.AlterError) or keeps only as the
// alias of a renamed function (structlog's merge_threadlocal_context in an
// example, a reST literal block that imports: it is Python; a plain alias
// such as Short = merge and a dunder such as kit.__init__ are left
// alone). A change with nothing
// on the page to check (helper gained a parameter) is counted and listed
// under unchecked, not as a finding; quotes with literals, complete
// quotes and names the module does give are left alone.
func TestDocumentDriftChecksClaimsOnThePage(t *testing.T) {
	t.Parallel()
	dir := srcCommitted(t, map[string]string{
		"src/kit/__init__.py": "from .files import Static\n",
		"src/kit/files.py":    "class Static:\n    def __init__(self, directory=None, packages=None, check_dir=True):\n        pass\n",
		"src/kit/errors.py":   "class AlterError(Exception):\n    pass\n",
		"src/kit/net.py":      "def connect(host, timeout=5):\n    return host\n\n\ndef helper(a):\n    return a\n",
		"src/kit/threads.py": "def merge(a):\n    \"\"\"Merge.\n\n    This function used to be called ``merge_context``.\n    \"\"\"\n    return a\n\n\n" +
			"merge_context = merge\nShort = merge\n",
		"docs/perf.rst": "Performance\n===========\n\nThe package lives in ``kit.__init__``. Configure it so::\n\n  import kit.threads\n\n  kit.threads.merge_context(1)\n\nDone.\n",
		"docs/static.md": "# Static files\n\n## Static\n\nSignature: `Static(directory=None, packages=None, check_dir=True)`\n\n" +
			"Serve with `Static(\"dir\")` or `kit.files.Static(directory)`; `kit.files.Static(directory, check)` mounts a handler with a signature like `handler(request)`.\n\n## Errors\n\nA bad table raises `kit.AlterError`; see `kit.errors.AlterError`.\n\n" +
			"## Network\n\nCall `kit.net.connect(host, timeout=5)` or `kit.net.connect(server)`; `kit.net.helper` tidies up.\n\n" +
			"## Threads\n\n```python\nimport kit.threads\n\nprocs = [kit.threads.merge_context, kit.threads.Short, kit.threads.gone]\n```\n",
	})
	commitAt(t, dir, "2024-01-01T00:00:00Z", "docs")
	edit := fileEditor(t, dir, "src/kit/files.py")
	edit("2024-03-01T00:00:00Z", "packages=None, check_dir", "packages=None, html=False, check_dir")
	edit = fileEditor(t, dir, "src/kit/net.py")
	edit("2024-04-01T00:00:00Z", "def connect(host, timeout=5)", "def connect(host, deadline=5)")
	edit("2024-05-01T00:00:00Z", "def helper(a)", "def helper(a, b)")
	d := driftServer(t, dir)
	out := tooltest.MustCall(t, d, "document_drift", map[string]any{"agent_id": "t", "lower_confidence": true})
	var got, unchecked []string
	for _, doc := range out["documents"].([]any) {
		dm := doc.(map[string]any)
		for _, f := range dm["findings"].([]any) {
			m := f.(map[string]any)
			got = append(got, fmt.Sprint(m["line"], " ", m["kind"], " | ", m["detail"]))
		}
		for _, u := range asList(dm["unchecked"]) {
			unchecked = append(unchecked, u.(map[string]any)["mention"].(string))
		}
	}
	want := []string{
		"15 code_change_unreflected | the page's signature names `timeout`, which the def does not take (src/kit/net.py: def connect(host, deadline)); git: the def fitted the page until 85a38fed4710 (2024-04-01, \"at 2024-04-01T00:00:00Z\")",
		"5 code_change_unreflected | the page's signature leaves out `html`, which the def takes (src/kit/files.py: def Static.__init__(directory, packages, html, check_dir)); git: the def fitted the page until 5dcd06311bc6 (2024-03-01, \"at 2024-03-01T00:00:00Z\")",
		"<nil> missing_target | the page names kit.AlterError, but kit (src/kit/__init__.py) does not define or import AlterError (renamed, moved or removed?)",
		"22 missing_target | the page names kit.threads.gone, but kit.threads (src/kit/threads.py) does not define or import gone (renamed, moved or removed?)",
		"22 missing_target | the page names kit.threads.merge_context, which src/kit/threads.py keeps only as an alias of merge, noting the rename: use kit.threads.merge",
		"8 missing_target | the page names kit.threads.merge_context, which src/kit/threads.py keeps only as an alias of merge, noting the rename: use kit.threads.merge",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"kit.net.helper"}, unchecked); diff != "" {
		t.Errorf("unchecked (-want +got):\n%s", diff)
	}
	if n := out["summary"].(map[string]any)["unchecked_changes"]; n != float64(1) {
		t.Errorf("summary unchecked_changes = %v, want 1", n)
	}
}

func asList(v any) []any {
	l, _ := v.([]any)
	return l
}

// The dotted names of an example statement that are code: string
// literals are data (alembic's Config("/path/to/yourapp/alembic.ini"),
// four false findings on split4's held-out) and a name ending in a file
// extension is a file.
func TestExampleDottedNamesSkipStringsAndFiles(t *testing.T) {
	tests := []struct {
		st   string
		want []string
	}{
		{`alembic_cfg = Config("/path/to/yourapp/alembic.ini")`, nil},
		{`cfg = Config('alembic.ini', ini_section="alembic.main")`, nil},
		{`cfg = Config(r"C:\alembic.ini")`, nil},
		{`run(alembic.ini)`, nil},
		{`alembic.command.upgrade(cfg, "head")`, []string{"alembic.command.upgrade"}},
		{`x = kit.threads.merge(f"{a.b}") + kit.other`, []string{"kit.threads.merge", "kit.other"}},
	}
	for _, tc := range tests {
		if diff := cmp.Diff(tc.want, exampleDottedNames(tc.st)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.st, diff)
		}
	}
}

// A dotted name the project's code reads as an entry-point group
// (`ep.group == "kit.run"`), or one its metadata declares, is a name
// looked up, not an attribute of the package (pipx's "pipx.run" group,
// split6's held-out). A name neither gives is found, and so is one the
// code spells only as a logger's name.
func TestQualifiedNamesSpelledAsStrings(t *testing.T) {
	t.Parallel()
	dir := srcCommitted(t, map[string]string{
		"pyproject.toml":      "[project]\nname = \"kit\"\n\n[project.entry-points.\"kit.plugins\"]\nx = \"kit.app:main\"\n",
		"src/kit/__init__.py": "from .app import main\n",
		"src/kit/app.py":      "import logging\n\nlog = logging.getLogger(\"kit.serving\")\n\n\ndef main(eps):\n    return [ep for ep in eps if ep.group == \"kit.run\"]\n",
		"docs/plugins.md":     "# Plugins\n\nDeclare a `kit.run` entry point group, or a `kit.plugins` one; `kit.gone` is not there, nor `kit.serving`.\n",
	})
	commitAt(t, dir, "2024-01-01T00:00:00Z", "docs")
	out := tooltest.MustCall(t, driftServer(t, dir), "document_drift", map[string]any{"agent_id": "t", "lower_confidence": true})
	want := []string{
		"<nil> missing_target | the page names kit.gone, but kit (src/kit/__init__.py) does not define or import gone (renamed, moved or removed?)",
		"<nil> missing_target | the page names kit.serving, but kit (src/kit/__init__.py) does not define or import serving (renamed, moved or removed?)",
	}
	if diff := cmp.Diff(want, findingLines(out)); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
}

// A class of test code is no owner a page names: invoke's tests and
// integration suites group tests in `class sudo:`, and the page's
// “sudo.password“ (a configuration key) read as that class's missing
// member (split7's held-out run). A project class's missing member is
// still found.
func TestMembersOfTestClassesAreNotClaims(t *testing.T) {
	t.Parallel()
	dir := srcCommitted(t, map[string]string{
		"src/kit/__init__.py":    "from .context import Context\n",
		"src/kit/context.py":     "class Context:\n    def sudo(self, command):\n        return command\n",
		"tests/context.py":       "class sudo:\n    def base_case(self):\n        pass\n",
		"integration/context.py": "class timeouts:\n    def base_case(self):\n        pass\n",
		"docs/config.rst": "Config\n======\n\nSet ``sudo.password`` or ``timeouts.command`` in the configuration; call ``Context.sudo``, " +
			"not ``Context.run_as``.\n",
	})
	commitAt(t, dir, "2024-01-01T00:00:00Z", "docs")
	out := tooltest.MustCall(t, driftServer(t, dir), "document_drift", map[string]any{"agent_id": "t", "lower_confidence": true})
	want := []string{"<nil> missing_target | Context is in the graph but has no member run_as (renamed or removed?)"}
	if diff := cmp.Diff(want, findingLines(out)); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
}

// A member is missing only on evidence: a class whose lookup is code
// (__getattr__, a proxy) may have any member, and a lowercase owner that
// only a label names (“settings.debug“) is a configuration key or a
// variable more often than a class. A member of a class nested in the
// owner (Context.add() for Context.Builder.add, as javapoet's README names
// its builders' methods) is no missing one. A CapWords class's missing
// member is still found.
func TestMembersNeedEvidenceOfTheClass(t *testing.T) {
	t.Parallel()
	dir := srcCommitted(t, map[string]string{
		"src/kit/__init__.py": "from .proxy import Proxy\nfrom .context import Context\n",
		"src/kit/proxy.py":    "class Proxy:\n    def __init__(self, wrapped):\n        self._w = wrapped\n\n    def __getattr__(self, name):\n        return getattr(self._w, name)\n",
		"src/kit/context.py":  "class Context:\n    def run(self, command):\n        return command\n\n    class Builder:\n        def add(self, part):\n            return self\n\n\nclass settings:\n    timeout = 3\n",
		"docs/config.rst": "Config\n======\n\nRead ``Proxy.upper`` through the proxy; set ``settings.debug``; call ``Context.run``, " +
			"not ``Context.run_as``; build with ``Context.add()`` (its Builder's).\n",
	})
	commitAt(t, dir, "2024-01-01T00:00:00Z", "docs")
	out := tooltest.MustCall(t, driftServer(t, dir), "document_drift", map[string]any{"agent_id": "t", "lower_confidence": true})
	want := []string{"<nil> missing_target | Context is in the graph but has no member run_as (renamed or removed?)"}
	if diff := cmp.Diff(want, findingLines(out)); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
}
