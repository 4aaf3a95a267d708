package structure

import (
	"fmt"
	"testing"

	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// app/ and lib/ are two tight groups; lib/x.py only talks to app.
var misplacedRepo = map[string]string{
	"app/__init__.py": "",
	"app/a.py":        "from app.b import b\nfrom app.c import c\n\ndef a():\n    return b() + c()\n",
	"app/b.py":        "from app.c import c\n\ndef b():\n    return c()\n",
	"app/c.py":        "from lib.p import p\n\ndef c():\n    return p()\n",
	"lib/__init__.py": "",
	"lib/p.py":        "from lib.q import q\n\ndef p():\n    return q()\n",
	"lib/q.py":        "from lib.r import r\n\ndef q():\n    return r()\n",
	"lib/r.py":        "from lib.p import p\n\ndef r():\n    return 1\n\ndef again():\n    return p()\n",
	"lib/x.py":        "from app.a import a\nfrom app.b import b\nfrom app.c import c\n\ndef x():\n    return a() + b() + c()\n",
}

func TestRefactorPlanMisplacedFile(t *testing.T) {
	d, _ := tooltest.FixtureRepo(t, misplacedRepo)
	out := tooltest.MustCall(t, d, "refactor_plan", map[string]any{"agent_id": "t"})
	props := out["proposals"].([]any)
	if len(props) == 0 {
		t.Fatalf("no proposals: %s", tooltest.ToJSON(out))
	}
	top := props[0].(map[string]any)
	got := fmt.Sprintf("%v %v %v→%v cut %v→%v", top["kind"], top["files"], top["from"], top["to"], top["cut_before"], top["cut_after"])
	// Cut before: x's three imports of app and c → p cross directories;
	// after the move, c → p only.
	if want := "move [lib/x.py] lib→app cut 4→1"; got != want {
		t.Errorf("top proposal %s, want %s\n%s", got, want, tooltest.ToJSON(out))
	}
	if g, _ := top["modularity_gain"].(float64); g <= 0 {
		t.Errorf("gain %v", top["modularity_gain"])
	}
	res, isErr := tooltest.Call(t, d, "refactor_plan", map[string]any{"agent_id": "t", "scope": "nowhere/"})
	if !isErr || res["hint"] == nil {
		t.Errorf("empty scope: %v", res)
	}
}
