package documents

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// A stub def in a page's Python block quotes the def's signature: a
// keyword the def no longer takes, or a parameter it gained, is a
// finding, as for a "Signature:" line. A def with a real body is the
// reader's code, and a stub sharing no parameter with the project's def
// of that name is the reader's namesake: neither is compared.
func TestDocumentDriftChecksStubSignaturesInBlocks(t *testing.T) {
	t.Parallel()
	dir := srcCommitted(t, map[string]string{
		"src/kit/__init__.py": "",
		"src/kit/net.py":      "def connect(host, timeout=5):\n    return host\n\n\ndef helper(a):\n    return a\n\n\nclass Pool:\n    def fill(self, n):\n        return n\n\n    def __add__(self, n):\n        return n\n",
		"docs/ops.rst":        "Operators\n=========\n\n.. method:: Pool.__add__(other)\n\n   Joins two pools.\n",
		"docs/api.md": "# API\n\n```python\ndef connect(host, timeout=5): ...\n\n\nclass Pool:\n    def fill(self, n):\n        \"\"\"Fill the pool.\"\"\"\n```\n\n" +
			"## Usage\n\n```python\nfrom kit.net import connect\n\n\ndef connect(host, timeout=5):\n    return host.upper()\n\n\ndef helper(request): ...\n```\n",
	})
	commitAt(t, dir, "2024-01-01T00:00:00Z", "docs")
	edit := fileEditor(t, dir, "src/kit/net.py")
	edit("2024-04-01T00:00:00Z", "def connect(host, timeout=5)", "def connect(host, deadline=5)")
	edit("2024-05-01T00:00:00Z", "def fill(self, n)", "def fill(self, n, block)")
	d := driftServer(t, dir)
	out := tooltest.MustCall(t, d, "document_drift", map[string]any{"agent_id": "t", "lower_confidence": true})
	got := findingLines(out)
	want := []string{
		"8 code_change_unreflected | the page's signature leaves out `block`, which the def takes (src/kit/net.py: def Pool.fill(n, block)); git: the def fitted the page until badeeb38bb05 (2024-05-01, \"at 2024-05-01T00:00:00Z\")",
		"4 code_change_unreflected | the page's signature names `timeout`, which the def does not take; leaves out `deadline`, which the def takes (src/kit/net.py: def connect(host, deadline)); git: the def fitted the page until a18cc77ed52b (2024-04-01, \"at 2024-04-01T00:00:00Z\")",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
}

// A quote that stands for another object is not compared: a directive
// whose body says "Same as …" or whose one parameter is a same_as_…
// placeholder (attrs' `.. function:: mutable(same_as_define)`), and a
// bare function name — a `.. function::` directive, a top-level stub def
// — that resolves to some class's method (falcon's responder stub
// `def on_put(self, req, resp, name)` met bench code's
// ItemResource.on_put; bottle's template built-in setdefault met
// ConfigDict.setdefault). A method directive and a dotted quote still are.
func TestDocumentDriftSkipsPlaceholderAndNamesakeQuotes(t *testing.T) {
	t.Parallel()
	dir := srcCommitted(t, map[string]string{
		"src/kit/__init__.py":     "def define(maybe_cls=None, *, these=None):\n    return maybe_cls\n\n\ndef mutable(maybe_cls=None, *, these=None):\n    return maybe_cls\n\n\ndef harden(maybe_cls=None, *, these=None):\n    return maybe_cls\n\n\ndef connect(host, timeout=5):\n    return host\n",
		"src/kit/config.py":       "class ConfigDict(dict):\n    def setdefault(self, key, value):\n        return value\n\n    def load(self, path):\n        return path\n",
		"src/kit/bench/queues.py": "class ItemResource:\n    def on_put(self, req, resp, tenant_id, queue_name):\n        return req\n",
		"docs/api.rst": "API\n===\n\n.. function:: mutable(same_as_define)\n\n   Same as `kit.define`.\n\n" +
			".. function:: harden(klass)\n\n   :noindex:\n\n   Alias for `kit.define`.\n\n" +
			".. function:: setdefault(name, default)\n\n   A template built-in.\n\n" +
			".. function:: connect(host, timeout=5)\n\n   Connects.\n\n" +
			".. class:: ConfigDict\n\n   .. method:: load(file)\n\n      Loads.\n\n" +
			"Routing\n=======\n\n.. code:: python\n\n    def on_put(self, req, resp, name):\n        pass\n",
	})
	commitAt(t, dir, "2024-01-01T00:00:00Z", "docs")
	edit := fileEditor(t, dir, "src/kit/__init__.py")
	edit("2024-04-01T00:00:00Z", "def connect(host, timeout=5)", "def connect(host, deadline=5)")
	d := driftServer(t, dir)
	out := tooltest.MustCall(t, d, "document_drift", map[string]any{"agent_id": "t", "lower_confidence": true})
	want := []string{
		"18 code_change_unreflected | the page's signature names `timeout`, which the def does not take; leaves out `deadline`, which the def takes (src/kit/__init__.py: def connect(host, deadline)); git: the def fitted the page until 7fcf08ee7926 (2024-04-01, \"at 2024-04-01T00:00:00Z\")",
		"24 code_change_unreflected | the page's signature names `file`, which the def does not take; leaves out `path`, which the def takes (src/kit/config.py: def ConfigDict.load(path)); git: no version of the def fits the page (src/kit/config.py, 1 read)",
	}
	if diff := cmp.Diff(want, findingLines(out)); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
}

// Under `.. module::`, a function the module lacks is still compared
// with its namesake method: pyjwt documents PyJWT's methods as jwt's
// functions (decode = _jwt_global_obj.decode), and the quote of
// decode_complete, which jwt did not import, left out parameters the
// method took (a real finding on tune, lost without the scope). Its body
// "Identical to jwt.decode except …" does not make it a placeholder.
func TestDocumentDriftComparesScopedDirectivesWithNamesakeMethods(t *testing.T) {
	t.Parallel()
	dir := srcCommitted(t, map[string]string{
		"src/kit/__init__.py": "from .api import Codec\n\n_obj = Codec()\ndecode = _obj.decode\n",
		"src/kit/api.py":      "class Codec:\n    def decode(self, data, key):\n        return data\n\n    def decode_full(self, data, key, subject=None):\n        return data\n",
		"docs/api.rst":        "API\n===\n\n.. module:: kit\n\n.. function:: decode_full(data, key)\n\n   Identical to ``kit.decode`` except for what it returns.\n",
		"docs/tpl.rst":        "Templates\n=========\n\n.. currentmodule:: tpl\n\n.. function:: decode_full(name, default)\n\n   A template built-in.\n",
	})
	commitAt(t, dir, "2024-01-01T00:00:00Z", "docs")
	out := tooltest.MustCall(t, driftServer(t, dir), "document_drift", map[string]any{"agent_id": "t", "lower_confidence": true})
	got := findingLines(out)
	want := "6 code_change_unreflected | the page's signature leaves out `subject`, which the def takes (src/kit/api.py: def Codec.decode_full(data, key, subject)); git: no version of the def fits the page (src/kit/api.py, 1 read)"
	if !slices.Contains(got, want) {
		t.Errorf("findings %q lack %q", got, want)
	}
	// bottle's `.. currentmodule:: stpl` is no module of the project: its
	// built-in is not Codec.decode's namesake claim.
	if slices.ContainsFunc(got, func(l string) bool { return strings.Contains(l, "names `name`") }) {
		t.Errorf("findings %q compare tpl's decode_full with Codec.decode_full", got)
	}
}
