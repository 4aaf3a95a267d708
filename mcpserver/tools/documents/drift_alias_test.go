package documents

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// A module-level alias is followed to what it names: pyjwt exposes
// `encode = _jwt_global_obj.encode`, a bound method of a module-level
// instance, and `name = other.name` re-exports another module's def.
// Before, neither resolved to one def, so pyjwt's example calls were
// never checked (split5's held-out, drift-precision4.md). An alias to an
// object whose class is unknown, or bound twice, is not followed.
func TestDocumentDriftFollowsModuleAliases(t *testing.T) {
	t.Parallel()
	dir := srcCommitted(t, map[string]string{
		"src/kit/__init__.py": "from .api import encode, decode, dump, load, vague\n",
		"src/kit/api.py": "from . import codec\nfrom .other import make\n\n\nclass Kit:\n    def encode(self, payload, key, algorithm=\"HS256\"):\n        return payload\n\n" +
			"    def decode(self, token, key, algorithms=None):\n        return token\n\n\n_obj = Kit()\nencode = _obj.encode\ndecode = _obj.decode\n" +
			"dump = codec.dump\n_maybe = make()\nvague = _maybe.vague\nload = codec.load\nload = codec.other\n",
		"src/kit/codec.py": "def dump(obj, indent=None):\n    return obj\n\n\ndef load(s):\n    return s\n\n\ndef other(s):\n    return s\n",
		"src/kit/other.py": "def make():\n    return 1\n",
		"docs/usage.rst": "Usage\n=====\n\n.. code-block:: python\n\n    import kit\n\n    kit.encode({\"a\": 1}, \"secret\", algorithms=\"HS256\")\n" +
			"    kit.decode(\"t\", \"secret\", algorithms=[\"HS256\"])\n    kit.dump({}, indent=2, sort=True)\n    kit.vague(1, x=2)\n    kit.load(\"s\", strict=True)\n",
	})
	commitAt(t, dir, "2024-01-01T00:00:00Z", "docs")
	out := tooltest.MustCall(t, driftServer(t, dir), "document_drift", map[string]any{"agent_id": "t", "lower_confidence": true})
	want := []string{
		"10 example_call_rejected | kit.dump: no parameter sort (src/kit/codec.py: def dump, through dump = codec.dump); no commit named: no version in the 1 commits read accepts the call",
		"8 example_call_rejected | kit.encode: no parameter algorithms (src/kit/api.py: def Kit.encode, through encode = _obj.encode); no commit named: no version in the 1 commits read accepts the call",
	}
	if diff := cmp.Diff(want, findingLines(out)); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
}
