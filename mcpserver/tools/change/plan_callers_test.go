package change

import (
	"slices"
	"strings"
	"testing"

	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// ginFiles is gin's shape in small: node.getValue in tree.go, called from
// gin.go through a local variable taken from a struct field (root :=
// t[i].root; root.getValue(…)), from context.go on a typed parameter —
// calls the graph has edges for — and from dyn.go through an interface
// the extractor cannot bind, found by name.
var ginFiles = map[string]string{
	"go.mod":     "module example.com/gin\n\ngo 1.22\n",
	"tree.go":    "package gin\n\ntype node struct{ path string }\n\n// getValue returns the handler of a path.\nfunc (n *node) getValue(path string) string { return n.path + path }\n\ntype methodTree struct {\n\tmethod string\n\troot   *node\n}\n\ntype methodTrees []methodTree\n",
	"engine.go":  "package gin\n\n// Engine is the framework's instance.\ntype Engine struct{ trees methodTrees }\n",
	"gin.go":     "package gin\n\nfunc (engine *Engine) handleHTTPRequest(method, path string) string {\n\tt := engine.trees\n\tfor i, tl := 0, len(t); i < tl; i++ {\n\t\tif t[i].method != method {\n\t\t\tcontinue\n\t\t}\n\t\troot := t[i].root\n\t\treturn root.getValue(path)\n\t}\n\treturn \"\"\n}\n",
	"context.go": "package gin\n\n// Context carries a request.\ntype Context struct{ n *node }\n\nfunc (c *Context) lookup(n *node) string { return n.getValue(\"/\") }\n",
	"render.go":  "package gin\n\n// Render writes a body.\nfunc Render(s string) string { return s }\n",
	"dyn.go":     "package gin\n\ntype getter interface{ getValue(string) string }\n\nfunc dyn(v any) string {\n\tg := v.(getter)\n\treturn g.getValue(\"/\")\n}\n",
}

func gapsByFile(out map[string]any) map[string]map[string]any {
	gaps := map[string]map[string]any{}
	for _, g := range out["gaps"].([]any) {
		m := g.(map[string]any)
		gaps[m["file_path"].(string)] = m
	}
	return gaps
}

// A plan that renames node.getValue must change its callers: gin.go and
// context.go (by the graph's call edges) and dyn.go (no call edge: found
// by name, and said so).
func TestValidatePlanMissesCallersOfARenamedSymbol(t *testing.T) {
	t.Parallel()
	d, _ := tooltest.FixtureRepo(t, ginFiles)
	out := tooltest.MustCall(t, d, "validate_plan", map[string]any{"agent_id": "t", "actions": []any{
		map[string]any{"action_type": "modify", "file_path": "tree.go", "description": "rename node.getValue to node.find"},
	}})
	gaps := gapsByFile(out)
	gin, ok := gaps["gin.go"]
	if !ok {
		t.Fatalf("gin.go, the caller of getValue, is not a gap: %v", out["gaps"])
	}
	if gin["severity"] != "critical" || gin["source"] != "caller" || !strings.Contains(gin["reason"].(string), "calls node.getValue (handleHTTPRequest") {
		t.Errorf("gin.go gap %v", gin)
	}
	dyn, ok := gaps["dyn.go"]
	if !ok || dyn["severity"] != "critical" || dyn["source"] != "name_match" || !strings.Contains(dyn["reason"].(string), "dyn.go:7 (in dyn)") || !strings.Contains(dyn["reason"].(string), "found by name") {
		t.Errorf("dyn.go gap %v", dyn)
	}
	ctx, ok := gaps["context.go"]
	if !ok || ctx["severity"] != "critical" || ctx["source"] != "caller" || !strings.Contains(ctx["reason"].(string), "calls node.getValue (lookup") {
		t.Errorf("context.go gap %v", ctx)
	}
	if g, ok := gaps["render.go"]; ok && g["severity"] != "info" {
		t.Errorf("render.go does not use getValue: %v", g)
	}
	if syms := tooltest.ToStrings(out["changed_symbols"]); !slices.Equal(syms, []string{"node.getValue (tree.go)"}) {
		t.Errorf("changed_symbols %v", syms)
	}
	if out["proof_state"] != "proving" || !strings.Contains(out["next_step_hint"].(string), ".go") {
		t.Errorf("guidance %v %v", out["proof_state"], out["next_step_hint"])
	}

	// The node id names the symbol too; with its callers in the plan
	// nothing is missing.
	out = tooltest.MustCall(t, d, "validate_plan", map[string]any{"agent_id": "t", "actions": []any{
		map[string]any{"action_type": "rename", "file_path": "file::tree.go::node::getValue"},
		map[string]any{"action_type": "modify", "file_path": "gin.go"},
		map[string]any{"action_type": "modify", "file_path": "context.go"},
		map[string]any{"action_type": "modify", "file_path": "dyn.go"},
	}})
	for f, g := range gapsByFile(out) {
		if g["source"] == "caller" || g["source"] == "name_match" {
			t.Errorf("%s is in the plan or no caller: %v", f, g)
		}
	}
	if syms := tooltest.ToStrings(out["changed_symbols"]); !slices.Equal(syms, []string{"node.getValue (tree.go)"}) {
		t.Errorf("changed_symbols from the node id: %v", syms)
	}

	// A plan that changes something else in tree.go is not about callers.
	out = tooltest.MustCall(t, d, "validate_plan", map[string]any{"agent_id": "t", "actions": []any{
		map[string]any{"action_type": "modify", "file_path": "tree.go", "description": "document the radix tree"},
	}})
	if g, ok := gapsByFile(out)["gin.go"]; ok && (g["source"] == "name_match" || g["severity"] == "critical") {
		t.Errorf("no symbol named, yet gin.go is %v", g)
	}
}
