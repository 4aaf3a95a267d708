package audit

import (
	"strings"
	"testing"

	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// A module that tests import but that no test file is named after (flask's
// globals.py) counts as tested; one no test reaches does not.
func TestAuditTestCoverageFollowsImports(t *testing.T) {
	t.Parallel()
	got := hotspotsOf(t, "tested", map[string]string{
		"pkg/__init__.py":      "",
		"pkg/globals.py":       "def current_app():\n    return 1\n",
		"pkg/lonely.py":        "def unused():\n    return 2\n",
		"pkg/core.py":          "from pkg.globals import current_app\n\ndef run():\n    return current_app()\n",
		"tests/test_things.py": "from pkg.globals import current_app\n\ndef test_app():\n    assert current_app() == 1\n",
	})
	for _, c := range []struct {
		path   string
		tested bool
	}{
		{"pkg/globals.py", true},
		{"pkg/lonely.py", false},
	} {
		if tested, ok := got[c.path]; !ok || tested != c.tested {
			t.Errorf("%s: tested=%v (listed %v), want %v; hotspots %v", c.path, tested, ok, c.tested, got)
		}
	}
}

// Jest's __tests__/ directory holds tests (immer's map-set.js imports
// src/utils/common.ts): audit and missing read one rule.
func TestAuditTestCoverageJestDirectory(t *testing.T) {
	t.Parallel()
	got := hotspotsOf(t, "tested", map[string]string{
		"package.json":         `{"name": "p"}`,
		"pkg/common.js":        "export function each(x) {\n  return x\n}\n",
		"pkg/lonely.js":        "export function unused() {\n  return 2\n}\n",
		"pkg/core.js":          "import {each} from \"./common\"\n\nexport function run() {\n  return each(1)\n}\n",
		"__tests__/map-set.js": "import {each} from \"../pkg/common\"\n\ntest(\"each\", () => {\n  expect(each(1)).toBe(1)\n})\n",
	})
	if tested, ok := got["pkg/common.js"]; !ok || tested != true {
		t.Errorf("pkg/common.js: tested=%v (listed %v), want true; hotspots %v", tested, ok, got)
	}
	if tested := got["pkg/lonely.js"]; tested == true {
		t.Errorf("pkg/lonely.js tested; hotspots %v", got)
	}
}

// A hotspot's dependents are the other files that depend on it, each once
// (app.py's four uses of core.py count one), and a file holding no code
// (a changelog that changes with every release, a Makefile) is never a
// hotspot.
func TestAuditHotspotsCountFilesAndSkipProse(t *testing.T) {
	t.Parallel()
	deps := hotspotsOf(t, "dependents", map[string]string{
		"pkg/__init__.py":  "",
		"pkg/core.py":      "def a():\n    return 1\n\ndef b():\n    return 2\n\ndef c():\n    return 3\n",
		"pkg/app.py":       "from pkg.core import a, b, c\n\ndef x():\n    return a() + b() + c()\n\ndef y():\n    return a()\n",
		"pkg/cli.py":       "from pkg.core import a\n\ndef main():\n    return a()\n",
		"pkg/CHANGELOG.md": "# Changes\n\n- 1.0: first\n",
		"pkg/Makefile":     "all: build\n\nbuild:\n\tcc -o app app.c\n\ntest: build\n\t./app\n",
	})
	if deps["pkg/core.py"] != 2.0 {
		t.Errorf("core.py dependents = %v, want 2 (app.py, cli.py); hotspots %v", deps["pkg/core.py"], deps)
	}
	if _, ok := deps["pkg/CHANGELOG.md"]; ok {
		t.Errorf("CHANGELOG.md listed as a hotspot: %v", deps)
	}
	// A Makefile's targets are functions in the graph, yet no test runs
	// them: cJSON's was its third hotspot, "no test touches it".
	if _, ok := deps["pkg/Makefile"]; ok {
		t.Errorf("Makefile listed as a hotspot: %v", deps)
	}
}

// hotspotsOf audits pkg/ of a fixture repository (profile quick) and maps
// each hotspot's path to one of its fields.
func hotspotsOf(t *testing.T, field string, files map[string]string) map[string]any {
	t.Helper()
	d, _ := tooltest.FixtureRepo(t, files)
	out := tooltest.MustCall(t, d, "audit", map[string]any{"agent_id": "t", "path": "pkg", "profile": "quick"})
	got := map[string]any{}
	for _, h := range out["hotspots"].([]any) {
		m := h.(map[string]any)
		got[m["path"].(string)] = m[field]
	}
	return got
}

// A stub (attrs' src/attr/__init__.pyi) declares code that lives in the
// .py beside it: no test can touch it, so it is neither a hotspot nor an
// untested file, and missing does not call it a hole.
func TestAuditStubsAreNeverUntested(t *testing.T) {
	t.Parallel()
	files := map[string]string{
		"pkg/__init__.py":    "",
		"pkg/core.py":        "def run(x):\n    return x\n",
		"pkg/core.pyi":       "def run(x: int) -> int: ...\n",
		"pkg/app.py":         "from pkg.core import run\n\ndef main():\n    return run(1)\n",
		"pkg/cli.py":         "from pkg.core import run\n\ndef go():\n    return run(2)\n",
		"tests/test_core.py": "from pkg.core import run\nfrom pkg.app import main\nfrom pkg.cli import go\n\ndef test_run():\n    assert run(1) == main() == go() - 1\n",
	}
	if got := hotspotsOf(t, "tested", files); got["pkg/core.pyi"] != nil {
		t.Errorf("the stub is listed as a hotspot: %v", got)
	}
	d, _ := tooltest.FixtureRepo(t, files)
	out := tooltest.MustCall(t, d, "audit", map[string]any{"agent_id": "t", "path": "pkg", "profile": "quick"})
	if n := out["topology"].(map[string]any)["untested_code_files"]; n != 0.0 {
		t.Errorf("untested_code_files = %v, want 0 (the stub is not one)", n)
	}
	miss := tooltest.MustCall(t, d, "missing", map[string]any{"agent_id": "t", "query": "run core"})
	if s := tooltest.ToText(miss["holes"]); strings.Contains(s, "core.pyi") {
		t.Errorf("missing calls the stub a hole: %s", s)
	}
}
