package structure

import (
	"fmt"
	"strings"
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

// Three Go commands share internal/cli. A command's directory is package
// main: no library file can join it and none of its files can move to a
// library, so no proposal names cmd/… (merging internal/cli into one
// command would break the other two).
func TestRefactorPlanKeepsGoCommands(t *testing.T) {
	cmd := "package main\n\nimport \"ex/internal/cli\"\n\nfunc main() {\n\tcli.Run()\n\tcli.Flag()\n\tcli.Usage()\n}\n"
	d, _ := tooltest.FixtureRepo(t, map[string]string{
		"go.mod":              "module ex\n\ngo 1.22\n",
		"cmd/a/main.go":       cmd,
		"cmd/b/main.go":       cmd,
		"cmd/c/main.go":       cmd,
		"internal/cli/cli.go": "package cli\n\nimport \"ex/lib\"\n\nfunc Run() { lib.P() }\n\nfunc Flag() {}\n\nfunc Usage() {}\n",
		"lib/p.go":            "package lib\n\nfunc P() { Q() }\n",
		"lib/q.go":            "package lib\n\nfunc Q() { R() }\n",
		"lib/r.go":            "package lib\n\nfunc R() { again() }\n\nfunc again() { P() }\n",
	})
	out := tooltest.MustCall(t, d, "refactor_plan", map[string]any{"agent_id": "t", "min_community_size": 2})
	for _, p := range out["proposals"].([]any) {
		pr := p.(map[string]any)
		if from, to := pr["from"].(string), pr["to"].(string); strings.HasPrefix(from, "cmd/") || strings.HasPrefix(to, "cmd/") {
			t.Errorf("proposal %v %v %s→%s changes a command's package", pr["kind"], pr["files"], from, to)
		}
	}
}
