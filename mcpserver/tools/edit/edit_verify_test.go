package edit

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/m1nd-go/m1nd/mcpserver/edit"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// needPython skips a test that runs python3 in -short mode or where
// there is none.
func needPython(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("runs python")
	}
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("no python3")
	}
}

// needGo skips a test that runs the go command (what it runs, as the skip
// says) in -short mode or where there is none.
func needGo(t *testing.T, what string) {
	t.Helper()
	if testing.Short() {
		t.Skip(what)
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go toolchain")
	}
}

// verifyBroken applies a batch that must be refused BROKEN and restored:
// want among the reasons (layer, the report key the failure shows), the
// tree under dir byte for byte as before. It returns the report and its
// reasons.
func verifyBroken(t *testing.T, d *tools.Dispatcher, dir, want, layer string, pairs ...string) (map[string]any, string) {
	t.Helper()
	before := tree(t, dir)
	out, v, rep := verifyBatch(t, d, pairs...)
	reasons := strings.Join(tooltest.ToStrings(rep["reasons"]), "\n")
	if v != edit.Broken || out["status"] != "restored" || !strings.Contains(reasons, want) {
		t.Fatalf("verdict %s, status %v, reasons:\n%s\n%s: %v", v, out["status"], reasons, layer, rep[layer])
	}
	if diff := cmp.Diff(before, tree(t, dir)); diff != "" {
		t.Fatalf("not restored byte for byte (-before +after):\n%s", diff)
	}
	return rep, reasons
}

func verifyBatch(t *testing.T, d *tools.Dispatcher, pairs ...string) (map[string]any, string, map[string]any) {
	t.Helper()
	var es []any
	for i := 0; i+1 < len(pairs); i += 2 {
		es = append(es, map[string]any{"file_path": pairs[i], "new_content": pairs[i+1]})
	}
	out := tooltest.MustCall(t, d, "apply_batch", map[string]any{"agent_id": "t", "verify": true, "edits": es, "detail": "full"})
	v, rep := verdictOf(t, out)
	return out, v, rep
}

// removedUses returns "file:line:severity" for each removed name in use.
func removedUses(rep map[string]any) []string {
	var out []string
	for _, f := range rep["removed_names_used"].([]any) {
		m := f.(map[string]any)
		out = append(out, m["file"].(string)+":"+jsonInt(m["line"])+":"+m["severity"].(string))
	}
	return out
}

func jsonInt(v any) string {
	f, _ := v.(float64)
	return fmt.Sprint(int(f))
}

func toJSONString(v any) string {
	data, _ := json.Marshal(v)
	return string(data)
}

func checksOf(rep map[string]any, layer string) []map[string]any {
	var out []map[string]any
	for _, c := range rep[layer].([]any) {
		out = append(out, c.(map[string]any))
	}
	return out
}

var pyRenameFiles = map[string]string{
	"src/pk/__init__.py": "from .app import App\n",
	"src/pk/helpers.py":  "def _split_path(p):\n    \"\"\"Split a dotted path.\"\"\"\n    return p.split('.')\n\n\ndef other():\n    return 1\n",
	"src/pk/app.py":      "from .helpers import other\nfrom .helpers import _split_path\n\n\nclass App:\n    def parts(self):\n        return _split_path('a.b') + [other()]\n",
	"src/pk/wrappers.py": "import os\n\nfrom .helpers import _split_path\n\n\ndef blueprints(name):\n    return _split_path(name)\n",
	"tests/test_app.py":  "import unittest\n\nfrom pk.app import App\n\n\nclass AppTest(unittest.TestCase):\n    def test_parts(self):\n        self.assertEqual(App().parts(), ['a', 'b', 1])\n",
}

// The flask case in small: helpers.py renames a function that
// app.py and wrappers.py (not in the batch) still import. Compiling
// helpers.py passes; importing its importers does not, and the graph
// knows them: BROKEN, the importers named with their lines, every file
// restored. The same rename with its users in the batch is SAFE.
func TestVerifyRenameBreaksPythonImporters(t *testing.T) {
	t.Parallel()
	needPython(t)
	d, dir := tooltest.FixtureRepo(t, pyRenameFiles)
	renamed := strings.Replace(pyRenameFiles["src/pk/helpers.py"], "def _split_path(", "def split_path(", 1)
	nodes := d.Session.Current().Graph.NumNodes()
	rep, reasons := verifyBroken(t, d, dir, "", "layer_b_compile", "src/pk/helpers.py", renamed)
	uses := removedUses(rep)
	for _, want := range []string{"src/pk/app.py:2:broken", "src/pk/wrappers.py:3:broken"} {
		if !slices.Contains(uses, want) {
			t.Errorf("removed_names_used %v lacks %s", uses, want)
		}
	}
	if !strings.Contains(reasons, "C: src/pk/wrappers.py:3: _split_path was renamed to split_path in src/pk/helpers.py") {
		t.Errorf("reasons do not name the importer:\n%s", reasons)
	}
	// Layer B imported the importers, and says which import fails.
	imported := false
	for _, c := range checksOf(rep, "layer_b_compile") {
		if strings.Contains(c["command"].(string), "import") {
			imported = true
			if c["status"] != "failed" || c["blocking"] != true || !strings.Contains(c["output"].(string), "cannot import name '_split_path'") {
				t.Errorf("the import check: %v", c)
			}
		}
	}
	if !imported {
		t.Errorf("layer B did not import the importers: %v", rep["layer_b_compile"])
	}
	if got := d.Session.Current().Graph.NumNodes(); got != nodes {
		t.Errorf("graph: %d nodes after the restore, %d before", got, nodes)
	}

	// The rename with its users: SAFE, the test ran.
	out, v, rep := verifyBatch(t, d,
		"src/pk/helpers.py", renamed,
		"src/pk/app.py", strings.ReplaceAll(pyRenameFiles["src/pk/app.py"], "_split_path", "split_path"),
		"src/pk/wrappers.py", strings.ReplaceAll(pyRenameFiles["src/pk/wrappers.py"], "_split_path", "split_path"))
	if v != edit.Safe || len(removedUses(rep)) != 0 || out["tests_run"] != 1.0 {
		t.Fatalf("the complete rename: verdict %s, uses %v, tests %v, reasons %v, D %v", v, removedUses(rep), out["tests_run"], rep["reasons"], rep["layer_d_tests"])
	}
}

// A test module that no longer imports is "tests could not run", a
// blocking failure of layer D (it was "no tests" before), and the test
// file's use of the removed name is a warning of its own.
func TestVerifyTestsThatCannotRunAreBroken(t *testing.T) {
	t.Parallel()
	needPython(t)
	files := map[string]string{
		"pk/__init__.py":          "",
		"pk/helpers.py":           "def split_path(p):\n    return p.split('.')\n",
		"tests/test_helpers.py":   "import unittest\n\nfrom pk.helpers import split_path\n\n\nclass T(unittest.TestCase):\n    def test_split(self):\n        self.assertEqual(split_path('a.b'), ['a', 'b'])\n",
		"tests/test_needs_env.py": "import unittest\n\nimport m1nd_surely_not_installed\n\nfrom pk.helpers import split_path\n\n\nclass E(unittest.TestCase):\n    def test_e(self):\n        pass\n",
	}
	d, dir := tooltest.FixtureRepo(t, files)
	rep, _ := verifyBroken(t, d, dir, "D: tests could not run", "layer_d_tests", "pk/helpers.py", "def dotted_parts(p):\n    return p.split('.')\n")
	if uses := removedUses(rep); !slices.Contains(uses, "tests/test_helpers.py:3:warning") {
		t.Errorf("removed_names_used %v", uses)
	}
	// test_needs_env.py never imports here: that is no reason to refuse a
	// good edit.
	out, v, rep := verifyBatch(t, d, "pk/helpers.py", files["pk/helpers.py"]+"\n\ndef last(p):\n    return split_path(p)[-1]\n")
	if v != edit.Safe || out["status"] != "applied" {
		t.Fatalf("harmless edit: verdict %s, reasons %v, D %v", v, rep["reasons"], rep["layer_d_tests"])
	}
	if pre := toJSONString(rep["pre_existing_failures"]); !strings.Contains(pre, "test_needs_env") {
		t.Errorf("pre_existing_failures %s", pre)
	}
}

// A Go module where another package calls the renamed exported function:
// go build fails and the caller is named; BROKEN, restored.
func TestVerifyRenameBreaksGoCaller(t *testing.T) {
	t.Parallel()
	needGo(t, "runs go build")
	d, dir := tooltest.FixtureRepo(t, calcFiles)
	renamed := strings.ReplaceAll(calcFiles["calc/calc.go"], "Sum", "Total")
	rep, reasons := verifyBroken(t, d, dir, "B: go build ./... failed", "layer_b_compile", "calc/calc.go", renamed)
	if uses := removedUses(rep); !slices.Contains(uses, "app/app.go:6:broken") {
		t.Errorf("removed_names_used %v lacks app/app.go:6", uses)
	}
	if !strings.Contains(reasons, "Sum was renamed to Total in calc/calc.go; app/app.go still uses it") {
		t.Errorf("reasons:\n%s", reasons)
	}
}

// A test that fails before the edit is pre-existing: listed, not blamed.
func TestVerifyPreExistingFailureIsNotBlamed(t *testing.T) {
	t.Parallel()
	needGo(t, "runs go test")
	files := map[string]string{}
	for k, v := range calcFiles {
		files[k] = v
	}
	files["calc/flaky_test.go"] = "package calc\n\nimport \"testing\"\n\nfunc TestKnownBroken(t *testing.T) {\n\tif Add(1, 1) != 3 {\n\t\tt.Fatal(\"an old bug\")\n\t}\n}\n"
	d, dir := tooltest.FixtureRepo(t, files)
	next := calcFiles["calc/calc.go"] + "\n// Mul multiplies.\nfunc Mul(a, b int) int { return a * b }\n"
	out, v, rep := verifyBatch(t, d, "calc/calc.go", next)
	if v != edit.Safe || out["status"] != "applied" || out["tests_failed"] != nil {
		t.Fatalf("verdict %s, tests failed %v, reasons %v, D %v", v, out["tests_failed"], rep["reasons"], rep["layer_d_tests"])
	}
	pre := toJSONString(rep["pre_existing_failures"])
	if !strings.Contains(pre, "TestKnownBroken") || strings.Contains(pre, "TestAdd") {
		t.Errorf("pre_existing_failures %s", pre)
	}
	if readFile(t, filepath.Join(dir, "calc", "calc.go")) != next {
		t.Error("a SAFE write was not kept")
	}
	// An edit that breaks TestAdd too is RISKY for that one failure only.
	out, v, rep = verifyBatch(t, d, "calc/calc.go", strings.Replace(next, "return a + b", "return a + b + 1", 1))
	if v != edit.Risky || out["tests_failed"] != 2.0 {
		// TestAdd and TestSum fail because of the edit; TestKnownBroken
		// passes now (1+1+1 == 3), which is no failure at all.
		t.Fatalf("verdict %s, tests failed %v, reasons %v, D %v", v, out["tests_failed"], rep["reasons"], rep["layer_d_tests"])
	}
}

// TypeScript: the project's own type check (tsc --noEmit -p) sees the
// importer of a renamed export; the name check names it too.
func TestVerifyRenameBreaksTypeScriptImporter(t *testing.T) {
	if testing.Short() {
		t.Skip("runs tsc")
	}
	_, nodeErr := exec.LookPath("node")
	tscDir, _ := filepath.Abs("../../../benchmarks/deptruth/npm/node_modules/.bin")
	_, tscErr := exec.LookPath("tsc")
	if tscErr != nil {
		_, tscErr = os.Stat(filepath.Join(tscDir, "tsc"))
	}
	if nodeErr != nil || tscErr != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("CI must type-check TypeScript: node %v, tsc %v (npm ci in benchmarks/deptruth/npm installs it)", nodeErr, tscErr)
		}
		t.Skip("no node or tsc (npm ci in benchmarks/deptruth/npm installs tsc)")
	}
	t.Setenv("PATH", tscDir+string(os.PathListSeparator)+os.Getenv("PATH"))
	files := map[string]string{
		"web/tsconfig.json": `{"compilerOptions": {"strict": true, "noEmit": true, "target": "es2020", "module": "commonjs"}, "include": ["src"]}`,
		"web/src/price.ts":  "export function total(lines: number[]): number {\n  return lines.reduce((a, b) => a + b, 0)\n}\n",
		"web/src/cart.ts":   "import { total } from './price'\n\nexport function pay(lines: number[]): number {\n  return total(lines)\n}\n",
	}
	d, dir := tooltest.FixtureRepo(t, files)
	rep, _ := verifyBroken(t, d, dir, "B: tsc --noEmit", "layer_b_compile", "web/src/price.ts", strings.Replace(files["web/src/price.ts"], "function total(", "function sum(", 1))
	if uses := removedUses(rep); !slices.Contains(uses, "web/src/cart.ts:1:broken") {
		t.Errorf("removed_names_used %v", uses)
	}
}

// Where the compiler checked the user and passed, a use found by name is
// another symbol of that name (here a local variable): info, not BROKEN.
func TestVerifyGoNameShadowIsNotBroken(t *testing.T) {
	t.Parallel()
	needGo(t, "runs go build")
	files := map[string]string{
		"go.mod":        "module example.com/m\n\ngo 1.22\n",
		"calc/help.go":  "package calc\n\nfunc helper() int { return 1 }\n\n// One is one.\nfunc One() int { return helper() }\n",
		"calc/other.go": "package calc\n\n// Twice doubles.\nfunc Twice(x int) int {\n\thelper := 2\n\treturn helper * x\n}\n",
	}
	d, _ := tooltest.FixtureRepo(t, files)
	out, v, rep := verifyBatch(t, d, "calc/help.go", strings.ReplaceAll(files["calc/help.go"], "helper", "unit"))
	if v != edit.Safe || out["status"] != "applied" {
		t.Fatalf("verdict %s, reasons %v, uses %v", v, rep["reasons"], rep["removed_names_used"])
	}
	if uses := removedUses(rep); !slices.Equal(uses, []string{"calc/other.go:5:info"}) {
		t.Errorf("removed_names_used %v", uses)
	}
}
