package documents

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

func TestModuleScopes(t *testing.T) {
	lines := []string{"API", ".. module:: kit", ".. function:: f()", "   .. currentmodule:: kit.errors", ".. class:: E", ".. py:currentmodule:: None", ".. class:: F", ".. automodule:: kit.dev", ".. autoclass:: R"}
	want := []string{"", "kit", "kit", "kit.errors", "kit.errors", "", "", "kit.dev", "kit.dev"}
	if diff := cmp.Diff(want, moduleScopes(lines)); diff != "" {
		t.Errorf("scopes (-want +got):\n%s", diff)
	}
}

// pyjwt's api.rst shape: `.. module:: jwt` then `.. function:: decode(…)`
// where jwt.decode is an alias of a bound method and several defs are
// named decode. Read in its module the quote is compared (it leaves out
// a parameter), and an object directive whose module lacks the name is
// missing; outside a scope, or for a name the module gives, nothing.
func TestDocumentDriftReadsDirectivesInTheirModule(t *testing.T) {
	t.Parallel()
	dir := srcCommitted(t, map[string]string{
		"src/kit/__init__.py": "from .api import (\n    Kit,\n    decode,\n)\n",
		"src/kit/api.py": "class Kit:\n    def decode(self, token, key=\"\", algorithms=None, complete=False, **kwargs):\n        return token\n\n\n" +
			"_kit = Kit()\ndecode = _kit.decode\n",
		"src/kit/codec.py":  "def decode(data, strict=True):\n    return data\n",
		"src/kit/errors.py": "class KitError(Exception):\n    pass\n",
		"docs/api.rst": "API\n===\n\n.. module:: kit\n\n.. function:: decode(token, key=\"\", algorithms=None, verify=True)\n\n   Decode.\n\n" +
			".. function:: helper(a)\n\n.. currentmodule:: kit.errors\n\n.. autoclass:: KitError\n\n.. autoexception:: GoneError\n\n" +
			".. currentmodule:: None\n\n.. class:: Free\n",
	})
	commitAt(t, dir, "2024-01-01T00:00:00Z", "docs")
	out := tooltest.MustCall(t, driftServer(t, dir), "document_drift", map[string]any{"agent_id": "t", "lower_confidence": true})
	want := []string{
		"6 code_change_unreflected | the page's signature leaves out `complete`, which the def takes (src/kit/api.py: def Kit.decode(token, key, algorithms, complete, **), through decode = _kit.decode); git: no version of the def fits the page (src/kit/api.py, 1 read)",
		"16 missing_target | the page names kit.errors.GoneError, but kit.errors (src/kit/errors.py) does not define or import GoneError (renamed, moved or removed?) (the directive is filed under .. module:: kit.errors)",
		"10 missing_target | the page names kit.helper, but kit (src/kit/__init__.py) does not define or import helper (renamed, moved or removed?) (the directive is filed under .. module:: kit)",
	}
	if diff := cmp.Diff(want, findingLines(out)); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
}
