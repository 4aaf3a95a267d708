package change

import (
	"strings"
	"testing"

	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// A directory whose tests alone depend on the object ("rack-protection
// depends on sinatra": its specs drive sinatra apps) is told so; when its
// code depends too, the code's path is the evidence.
func TestHypothesizeOnlyTestsDepend(t *testing.T) {
	t.Parallel()
	d, _ := tooltest.FixtureRepo(t, map[string]string{
		"app/__init__.py":          "",
		"app/base.py":              "def serve():\n    return 1\n",
		"guard/__init__.py":        "",
		"guard/core.py":            "def check(x):\n    return bool(x)\n",
		"guard/tests/test_core.py": "from app.base import serve\nfrom guard.core import check\n\ndef test_check():\n    assert check(serve())\n",
		"plug/__init__.py":         "",
		"plug/ext.py":              "from app.base import serve\n\ndef run():\n    return serve()\n",
		"plug/tests/test_ext.py":   "from app.base import serve\nfrom plug.ext import run\n\ndef test_run():\n    assert run() == serve()\n",
	})
	for _, c := range []struct{ claim, want, not string }{
		{"guard depends on app", "test_only_chain", "direct_edge"},
		{"plug depends on app", "plug/ext.py", "test_only_chain"},
	} {
		out := tooltest.MustCall(t, d, "hypothesize", map[string]any{"agent_id": "t", "claim": c.claim})
		ev := tooltest.ToText(out["supporting_evidence"]) + tooltest.ToText(out["contradicting_evidence"])
		if !strings.Contains(ev, c.want) || strings.Contains(ev, c.not) {
			t.Errorf("%s: evidence %s, want %q and not %q", c.claim, ev, c.want, c.not)
		}
	}
}
