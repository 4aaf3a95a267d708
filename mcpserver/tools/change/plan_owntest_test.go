package change

import (
	"testing"

	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

func TestTestStem(t *testing.T) {
	for p, want := range map[string]string{
		"tests/test_config.py": "config", "uvicorn/config.py": "config", "cmp/compare_test.go": "compare",
		"src/Config.test.ts": "config", "src/test/java/FooTest.java": "foo", "FooTests.cs": "foo",
		"a/b.spec.js": "b", "test.py": "test", "tests/test_main.py": "main",
	} {
		if got := testStem(p); got != want {
			t.Errorf("testStem(%q) = %q, want %q", p, got, want)
		}
	}
}

// uvicorn's shape: many tests call Config, test_websocket.py most of all;
// the test of config.py is test_config.py. validate_plan's "existing test"
// suggestion names it (it named the test impact lists first).
func TestValidatePlanSuggestsTheOwnTest(t *testing.T) {
	t.Parallel()
	files := map[string]string{
		"pkg/__init__.py":         "",
		"pkg/config.py":           "class Config:\n    def load(self):\n        return 1\n",
		"pkg/server.py":           "from pkg.config import Config\n\ndef run():\n    return Config().load()\n",
		"tests/test_config.py":    "from pkg.config import Config\n\ndef test_load():\n    assert Config().load() == 1\n",
		"tests/test_websocket.py": "from pkg.config import Config\n\n" + manyTests(12),
	}
	d, _ := tooltest.FixtureRepo(t, files)
	out := tooltest.MustCall(t, d, "validate_plan", map[string]any{"agent_id": "t", "actions": []any{
		map[string]any{"action_type": "modify", "file_path": "pkg/config.py"},
	}})
	var test string
	for _, a := range out["suggested_additions"].([]any) {
		if m := a.(map[string]any); m["action_type"] == "test" {
			test = m["file_path"].(string)
			break
		}
	}
	if test != "tests/test_config.py" {
		t.Errorf("suggested test = %q, want tests/test_config.py; additions %v", test, out["suggested_additions"])
	}
}

func manyTests(n int) string {
	s := ""
	for i := range n {
		s += "def test_" + string(rune('a'+i)) + "():\n    assert Config().load() == 1\n\n"
	}
	return s
}
