package change

import (
	"strings"
	"testing"

	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// hubFixture: pkg/__init__.py re-exports X (b.py), Y (c.py) and Z (e.py);
// e.py reaches c.py through mid.py. a.py takes X alone, a2.py Z alone;
// a3.py imports the package as a namespace; web/index.ts is the same hub as a TypeScript barrel.
var hubFixture = map[string]string{
	"pkg/__init__.py": "from .b import X\nfrom .c import Y\nfrom .e import Z\n",
	"pkg/b.py":        "class X:\n    def run(self):\n        return 1\n",
	"pkg/c.py":        "class Y:\n    def go(self):\n        return 2\n",
	"pkg/mid.py":      "from .c import Y\n\n\nclass M:\n    def go(self):\n        return Y().go()\n",
	"pkg/e.py":        "from .mid import M\n\n\nclass Z:\n    def go(self):\n        return M().go()\n",
	"a.py":            "from pkg import X\n\n\ndef main():\n    return X().run()\n",
	"a2.py":           "from pkg import Z\n\n\ndef main():\n    return Z().go()\n",
	"a3.py":           "import pkg\n\n\ndef main():\n    return pkg.X().run()\n",
	"web/index.ts":    "export { X } from './b';\nexport { Y } from './c';\n",
	"web/b.ts":        "export class X { run() { return 1 } }\n",
	"web/c.ts":        "export class Y { go() { return 2 } }\n",
	"web/a.ts":        "import { X } from './index';\nexport function main() { return new X().run() }\n",
	// Barrels not named index: lib.ts only re-exports; main.ts (immer's
	// src/immer.ts) re-exports three names and has one value of its own.
	"web2/lib.ts":  "export { X } from './b';\nexport * from './c';\n",
	"web2/main.ts": "export { X } from './b';\nexport { Y } from './c';\nexport { W } from './w';\nexport { f } from './m';\nexport const produce = () => 1;\n",
	// m.ts (immer's plugins/mapset.ts) takes names through two barrels,
	// which the graph resolves to where they are defined: no hub.
	"web2/m.ts": "import { X } from './lib';\nimport { Y } from './main';\nexport function f() { return [new X(), new Y()] }\n",
	"web2/b.ts": "export class X { run() { return 1 } }\n",
	"web2/c.ts": "export class Y { go() { return 2 } }\n",
	"web2/w.ts": "export class W { go() { return 3 } }\n",
	"web2/a.ts": "import { X } from './lib';\nexport function main() { return new X().run() }\n",
	"web2/u.ts": "import { produce } from './main';\nexport const u = () => produce();\n",
	"web2/q.ts": "import { Y } from './lib';\nexport const q = () => new Y().go();\n",
	"web2/p.ts": "import { X } from './main';\nexport function main() { return new X().run() }\n",
	// underscore's modules/_stringTagBug.js: two imports its values use
	// (one a default import the graph does not resolve), no barrel.
	"us/bug.js":    "import { supportsDataView } from './setup.js';\nimport hasObjectTag from './tag.js';\n\nexport var hasBug = supportsDataView && hasObjectTag(1),\n    isIE11 = hasObjectTag(2);\n",
	"us/weak.js":   "import { isIE11 } from './bug.js';\nexport default isIE11;\n",
	"us/tag.js":    "import tagTester from './tester.js';\nexport default tagTester('Object');\n",
	"us/tester.js": "export default function tagTester(n) { return (x) => n }\n",
	"us/setup.js":  "export var supportsDataView = true;\n",
	// An __init__.py that is mostly its own code is no hub, whatever its
	// name: a taker of its names takes its imports.
	"own/__init__.py": "from .c import Y\n\n\nclass A:\n    pass\n\n\nclass B:\n    pass\n\n\nclass C:\n    pass\n",
	"own/c.py":        "class Y:\n    pass\n",
	"a4.py":           "from own import A\n\n\ndef main():\n    return A()\n",
	// A re-exported module variable: test_v.py takes missing, bound by
	// vars/__init__.py to u.py's variable; f.py has a member of that name.
	// (marshmallow: the graph resolved tests' `from marshmallow import
	// missing` to fields.py's Field.missing property).
	"src/vars/__init__.py": "from vars.u import missing\nfrom vars.f import Field\n",
	"src/vars/u.py":        "missing = object()\n",
	"src/vars/f.py":        "from vars.dec import deco\nfrom vars.u import missing as missing_\n\n\nclass Field:\n    def __init__(self, missing=missing_):\n        self.x = missing\n\n    @property\n    def missing(self):\n        return self.x\n\n    @deco\n    def go(self):\n        return 1\n",
	"src/vars/dec.py":      "def deco(f):\n    return f\n",
	"tests/test_v.py":      "from vars import missing\n\n\ndef test_main():\n    assert missing\n",
}

// A chain through a re-exporting hub follows only the names the importer
// takes from it (issue 27): a.py takes X from pkg, so pkg/__init__.py's
// import of c.py is no dependency of a.py's code. Before the change
// "a.py depends on pkg/c.py" was likely_true 0.89 through
// a.py → pkg/__init__.py → pkg/c.py.
func TestHypothesizeThroughReExportHub(t *testing.T) {
	t.Parallel()
	d, _ := tooltest.FixtureRepo(t, hubFixture)
	for _, tc := range []struct {
		claim, verdict, evidence string
		says                     []string
	}{
		{"a.py depends on pkg/c.py", "inconclusive", "hub_chain", []string{"re-export hub pkg/__init__.py", "X (pkg/b.py)", "also imports pkg/c.py"}},
		{"a.py does not depend on pkg/c.py", "inconclusive", "hub_chain", nil},
		{"changing pkg/c.py breaks a.py", "inconclusive", "hub_chain", nil},
		{"web/a.ts depends on web/c.ts", "inconclusive", "hub_chain", []string{"web/index.ts", "X (web/b.ts)"}},
		// The name used comes from b.py: the hub hop toward it is taken.
		{"a.py depends on pkg/b.py", "likely_true", "direct_edge", nil},
		// Z's module reaches c.py itself: the longer chain that follows Z
		// stands in for the shorter one through the hub.
		{"a2.py depends on pkg/c.py", "likely_true", "path_found", []string{"via pkg/e.py → pkg/mid.py", "not via the re-export hub pkg/__init__.py", "Z (pkg/e.py)"}},
		// A namespace import names no symbol: what a3.py reads of pkg is
		// unknown, so every hop of the hub is followed, as before.
		{"a3.py depends on pkg/c.py", "likely_true", "path_found", nil},
		// A barrel not named index is a hub by its facts (issue 27): the
		// chain a → lib → c follows nothing a takes.
		{"web2/a.ts depends on web2/c.ts", "inconclusive", "hub_chain", []string{"re-export hub web2/lib.ts", "X (web2/b.ts)"}},
		{"web2/p.ts depends on web2/w.ts", "inconclusive", "hub_chain", []string{"re-export hub web2/main.ts"}},
		{"web2/p.ts depends on web2/b.ts", "likely_true", "direct_edge", nil},
		{"web2/p.ts depends on web2/m.ts", "inconclusive", "hub_chain", []string{"re-export hub web2/main.ts"}},
		// u.ts takes main.ts's own produce: it takes the module, which runs
		// all of it (the names truth passes through it).
		{"web2/u.ts depends on web2/w.ts", "likely_true", "path_found", nil},
		{"a4.py depends on own/c.py", "likely_true", "path_found", nil},
		{"us/weak.js depends on us/tag.js", "likely_true", "path_found", nil},
		// The variable taken is u.py's: f.py, and what it imports, are no
		// dependency of test_v.py.
		{"tests/test_v.py depends on src/vars/dec.py", "inconclusive", "hub_chain", []string{"missing (src/vars/u.py)"}},
		// The hub itself is still a dependency of its importer.
		{"a.py depends on pkg/__init__.py", "likely_true", "direct_edge", nil},
	} {
		out := tooltest.MustCall(t, d, "hypothesize", map[string]any{"agent_id": "t", "claim": tc.claim})
		ev := append(evidenceOf(out["supporting_evidence"]), evidenceOf(out["contradicting_evidence"])...)
		var types, texts []string
		for _, e := range ev {
			types = append(types, e["type"].(string))
			texts = append(texts, e["description"].(string))
		}
		if out["verdict"] != tc.verdict || !strings.Contains(strings.Join(types, ","), tc.evidence) {
			t.Errorf("%q: %v %v (evidence %v), want %s with %s\n%v", tc.claim, out["verdict"], out["confidence"], types, tc.verdict, tc.evidence, texts)
			continue
		}
		for _, s := range tc.says {
			if !strings.Contains(strings.Join(texts, "\n"), s) {
				t.Errorf("%q: the evidence does not say %q:\n%v", tc.claim, s, texts)
			}
		}
	}
}

func evidenceOf(v any) []map[string]any {
	var out []map[string]any
	for _, x := range v.([]any) {
		out = append(out, x.(map[string]any))
	}
	return out
}
