package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/m1nd-go/m1nd/mcpserver/transport"
)

// A rename that leaves users behind, through the real binary, in Python,
// Go and TypeScript: verify answers BROKEN, names the users that still
// import the old name, and restores every file byte for byte.

var renameRepo = map[string]string{
	// Python: wrappers.py and app.py import a helper the batch renames.
	"src/pk/__init__.py": "from .app import App\n",
	"src/pk/helpers.py":  "def _split_path(p):\n    return p.split('.')\n",
	"src/pk/app.py":      "from .helpers import _split_path\n\n\nclass App:\n    def parts(self):\n        return _split_path('a.b')\n",
	"src/pk/wrappers.py": "from .helpers import _split_path\n\n\ndef names(n):\n    return _split_path(n)\n",
	// Go: cart calls price.Total.
	"go.mod":         "module example.com/shop\n\ngo 1.22\n",
	"price/price.go": "package price\n\n// Total adds the lines.\nfunc Total(lines []int) int {\n\tt := 0\n\tfor _, l := range lines {\n\t\tt += l\n\t}\n\treturn t\n}\n",
	"cart/cart.go":   "package cart\n\nimport \"example.com/shop/price\"\n\n// Pay is what the cart costs.\nfunc Pay(lines []int) int { return price.Total(lines) }\n",
	// TypeScript: cart.ts imports total from price.ts.
	"web/tsconfig.json": `{"compilerOptions": {"strict": true, "noEmit": true, "target": "es2020", "module": "commonjs"}, "include": ["src"]}`,
	"web/src/price.ts":  "export function total(lines: number[]): number {\n  return lines.reduce((a, b) => a + b, 0)\n}\n",
	"web/src/cart.ts":   "import { total } from './price'\n\nexport const pay = (lines: number[]): number => total(lines)\n",
	"scripts/run.sh":    "#!/bin/sh\necho run\n",
}

func TestVerifyRenameWithUsersLeftThroughTheBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("runs python, go build and tsc")
	}
	var env []string
	tscDir, _ := filepath.Abs("../../benchmarks/deptruth/npm/node_modules/.bin")
	_, nodeErr := exec.LookPath("node")
	_, tscErr := exec.LookPath("tsc")
	if tscErr != nil {
		if _, tscErr = os.Stat(filepath.Join(tscDir, "tsc")); tscErr == nil {
			env = append(env, "PATH="+tscDir+string(os.PathListSeparator)+os.Getenv("PATH"))
		}
	}
	repo := writeRepo(t, renameRepo)
	p := start(t, env, "--runtime-dir", t.TempDir(), "--ingest", repo)
	p.initialize(transport.Line)
	for _, c := range []struct {
		name, file, old, new, user string
		skip                       string
	}{
		{name: "python", file: "src/pk/helpers.py", old: "def _split_path(", new: "def split_path(", user: "src/pk/wrappers.py:1"},
		{name: "go", file: "price/price.go", old: "func Total(", new: "func Sum(", user: "cart/cart.go:6"},
		{name: "typescript", file: "web/src/price.ts", old: "function total(", new: "function sum(", user: "web/src/cart.ts:1"},
	} {
		t.Run(c.name, func(t *testing.T) {
			switch {
			case c.name == "python":
				if _, err := exec.LookPath("python3"); err != nil {
					t.Skip("no python3")
				}
			case c.name == "typescript" && (nodeErr != nil || tscErr != nil):
				if os.Getenv("CI") != "" {
					t.Fatalf("CI must type-check TypeScript: node %v, tsc %v (npm ci in benchmarks/deptruth/npm installs it)", nodeErr, tscErr)
				}
				t.Skip("no node or tsc")
			}
			before := snapshotTree(t, repo)
			out, isErr := p.tool(transport.Line, "apply_batch", map[string]any{"agent_id": "e2e", "verify": true,
				"edits": edits(c.file, strings.Replace(renameRepo[c.file], c.old, c.new, 1))})
			if isErr {
				t.Fatalf("apply_batch: %v", out)
			}
			v := out["verification"].(map[string]any)
			if v["verdict"] != "BROKEN" || out["status"] != "restored" {
				t.Fatalf("verdict %v, status %v, reasons %v", v["verdict"], out["status"], v["reasons"])
			}
			found := false
			for _, f := range v["removed_names_used"].([]any) {
				m := f.(map[string]any)
				if m["severity"] == "broken" && m["file"].(string)+":"+toJSON(m["line"]) == c.user {
					found = true
				}
			}
			if !found {
				t.Errorf("removed_names_used %v lacks %s", v["removed_names_used"], c.user)
			}
			if !strings.Contains(toJSON(v["reasons"]), "C: "+c.user) {
				t.Errorf("reasons %v", v["reasons"])
			}
			if d := cmp.Diff(before, snapshotTree(t, repo)); d != "" {
				t.Fatalf("not restored byte for byte:\n%s", d)
			}
		})
	}
}
