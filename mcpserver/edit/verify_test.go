package edit

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

func kinds(fs []Finding) string {
	var ks []string
	for _, f := range fs {
		ks = append(ks, f.Kind+":"+f.Severity)
	}
	return strings.Join(ks, ",")
}

func TestStubs(t *testing.T) {
	t.Parallel()
	goOld := "package a\n\nfunc Sum(xs []int) int {\n\tt := 0\n\tfor _, x := range xs {\n\t\tt += x\n\t}\n\treturn t\n}\n\nfunc Name() string { return \"a\" }\n"
	pyOld := "class A:\n    def total(self, xs):\n        \"\"\"Sum.\"\"\"\n        return sum(x for x in xs)\n\n    def name(self):\n        return 'a'\n"
	cases := []struct {
		name, rel, old, next string
		existed              bool
		want                 string
	}{
		{"go body replaced by panic", "a.go", goOld, strings.Replace(goOld, "\tt := 0\n\tfor _, x := range xs {\n\t\tt += x\n\t}\n\treturn t\n", "\tpanic(\"not implemented\")\n", 1), true, "stub_replaced_logic:broken"},
		{"go body replaced by constant", "a.go", goOld, strings.Replace(goOld, "\tt := 0\n\tfor _, x := range xs {\n\t\tt += x\n\t}\n\treturn t\n", "\t// TODO\n\treturn 0\n", 1), true, "stub_replaced_logic:broken"},
		{"go real change", "a.go", goOld, strings.Replace(goOld, "t += x", "t += 2 * x", 1), true, ""},
		{"go constant stays constant", "a.go", goOld, strings.Replace(goOld, `return "a"`, `return "b"`, 1), true, ""},
		{"python pass", "a.py", pyOld, strings.Replace(pyOld, "return sum(x for x in xs)", "pass", 1), true, "stub_replaced_logic:broken"},
		{"python NotImplementedError", "a.py", pyOld, strings.Replace(pyOld, "return sum(x for x in xs)", "raise NotImplementedError('later')", 1), true, "stub_replaced_logic:broken"},
		{"python ellipsis with docstring", "a.py", pyOld, strings.Replace(pyOld, "return sum(x for x in xs)", "...", 1), true, "stub_replaced_logic:broken"},
		{"python abstract", "a.py", "", "import abc\nclass B(abc.ABC):\n    @abc.abstractmethod\n    def f(self):\n        ...\n\n    def g(self):\n        return self.f() + 1\n", false, ""},
		{"new stub file", "n.py", "", "def f():\n    pass\n\ndef g():\n    return None\n", false, "stub_file:warning"},
		{"rust todo", "l.rs", "fn f(x: i32) -> i32 {\n    x * 2\n}\n", "fn f(x: i32) -> i32 {\n    todo!()\n}\n", true, "stub_replaced_logic:broken"},
		{"js throw", "a.js", "function f(a) {\n  return a.map(x => x + 1);\n}\n", "function f(a) {\n  throw new Error('not implemented');\n}\n", true, "stub_replaced_logic:broken"},
		{"not code", "README.md", "# a\n", "# b\n", true, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := kinds(Stubs(c.rel, []byte(c.old), []byte(c.next), c.existed)); got != c.want {
				t.Errorf("Stubs = %q, want %q", got, c.want)
			}
		})
	}
}

// pairCase is a check of a file's old and next content, whose answer
// prints as want.
type pairCase struct{ name, rel, old, next, want string }

// runPairCases runs each case through check, named what in failures.
func runPairCases(t *testing.T, what string, cases []pairCase, check func(rel string, old, next []byte) string) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := check(c.rel, []byte(c.old), []byte(c.next)); got != c.want {
				t.Errorf("%s = %q, want %q", what, got, c.want)
			}
		})
	}
}

func TestAntiPatterns(t *testing.T) {
	t.Parallel()
	cases := []pairCase{
		{"unwrap new to file", "a.rs", "fn f() -> Result<i32, E> { g()?; Ok(1) }\n", "fn f() -> i32 { g().unwrap(); 1 }\n", "unwrap_added:warning,error_handling_removed:warning"},
		{"unwrap already there", "a.rs", "fn f() { g().unwrap(); }\n", "fn f() { g().unwrap(); h().unwrap(); }\n", ""},
		{"empty except", "a.py", "try:\n    f()\nexcept ValueError as e:\n    log(e)\n", "try:\n    f()\nexcept ValueError:\n    pass\n", "empty_except:warning"},
		{"bare except", "a.py", "x = 1\n", "try:\n    f()\nexcept:\n    log()\n", "bare_except:warning"},
		{"go panic", "a.go", "package a\n", "package a\n\nfunc f() { panic(\"x\") }\n", "panic_added:warning"},
		{"go panic in test ok", "a_test.go", "package a\n", "package a\n\nfunc f() { panic(\"x\") }\n", ""},
		{"go error dropped", "a.go", "package a\n\nfunc f() error {\n\tif err := g(); err != nil {\n\t\treturn err\n\t}\n\treturn nil\n}\n", "package a\n\nfunc f() error {\n\terr := g()\n\t_ = err\n\treturn nil\n}\n", "error_discarded:warning,error_handling_removed:warning"},
		{"empty catch", "a.ts", "try { f() } catch (e) { log(e) }\n", "try { f() } catch (e) {}\n", "empty_catch:warning"},
		{"skip", "tests/test_a.py", "def test_a():\n    assert f()\n", "@pytest.mark.skip\ndef test_a():\n    assert f()\n", "test_disabled:warning"},
		{"ts-ignore and todo", "a.ts", "let x = 1\n", "// @ts-ignore TODO\nlet x: number = 'a'\n", "checker_silenced:info,todo_marker:info"},
		{"nothing added", "a.py", "x = 1\ny = 2\n", "x = 1\n", ""},
	}
	runPairCases(t, "AntiPatterns", cases, func(rel string, old, next []byte) string { return kinds(AntiPatterns(rel, old, next)) })
}

const javaOverloads = "class P {\n  public C parse(O o, String[] a) { return null; }\n  public C parse(final O o, java.util.List<String> a, boolean stop) { return null; }\n  void other() {}\n}\n"

func TestRemovedSymbols(t *testing.T) {
	t.Parallel()
	names := func(ss []Symbol) string {
		var out []string
		for _, s := range ss {
			n := s.Signature()
			if s.RenamedTo != "" {
				n += "->" + s.RenamedTo
			}
			out = append(out, n)
		}
		return strings.Join(out, ",")
	}
	cases := []pairCase{
		{"python rename", "pk/helpers.py", "def _split_path(p):\n    return p.split('.')\n\n\ndef other():\n    return 1\n", "def split_path(p):\n    return p.split('.')\n\n\ndef other():\n    return 1\n", "_split_path->split_path"},
		{"python method removed, nested ignored", "a.py", "class A:\n    def keep(self):\n        def inner():\n            return 1\n        return inner()\n\n    def gone(self):\n        return 2\n", "class A:\n    def keep(self):\n        return 1\n", "A.gone"},
		{"python dunder", "a.py", "class A:\n    def __init__(self):\n        self.x = 1\n", "class A:\n    pass\n", ""},
		{"go method rename", "tree.go", "package gin\n\ntype node struct{}\n\nfunc (n *node) getValue(p string) int { return len(p) }\n", "package gin\n\ntype node struct{}\n\nfunc (n *node) lookup(p string) int { return len(p) }\n", "node.getValue->lookup"},
		{"go function kept", "calc.go", "package calc\n\nfunc Sum(xs []int) int { return 0 }\n", "package calc\n\n// Sum adds.\nfunc Sum(xs []int) int { return 1 }\n", ""},
		{"ts export rename", "src/price.ts", "export function total(a: number): number { return a }\n", "export function sum(a: number): number { return a }\n", "total->sum"},
		// Overload IDs follow the order of declaration: removing the first
		// gives its ID to the second.
		{"java first overload removed", "P.java", javaOverloads, strings.Replace(javaOverloads, "  public C parse(O o, String[] a) { return null; }\n", "", 1), "P.parse(O,String[])"},
		{"java last overload removed", "P.java", javaOverloads, strings.Replace(javaOverloads, "  public C parse(final O o, java.util.List<String> a, boolean stop) { return null; }\n", "", 1), "P.parse(O,List,boolean)"},
		{"java overload's parameter renamed", "P.java", javaOverloads, strings.Replace(javaOverloads, "String[] a)", "String[] args)", 1), ""},
		{"java one method's parameters changed", "Q.java", "class Q {\n  void f(int a) {}\n}\n", "class Q {\n  void f(long a) {}\n}\n", ""},
	}
	runPairCases(t, "RemovedSymbols", cases, func(rel string, old, next []byte) string { return names(RemovedSymbols(rel, old, next)) })
}

func TestNameUse(t *testing.T) {
	t.Parallel()
	top := Symbol{Name: "_split_path", Qualified: "_split_path"}
	sum := Symbol{Name: "Sum", Qualified: "Sum"}
	total := Symbol{Name: "total", Qualified: "total"}
	getValue := Symbol{Name: "getValue", Qualified: "node.getValue", Member: true}
	cases := []struct {
		name, user, src, written, pkg string
		sym                           Symbol
		line                          int
		sure                          bool
	}{
		{"python from import", "pk/wrappers.py", "import os\nfrom .helpers import _split_path\n", "pk/helpers.py", "", top, 2, true},
		{"python parenthesised import", "pk/app.py", "from .helpers import (\n    other,\n    _split_path,\n)\n", "pk/helpers.py", "", top, 1, true},
		{"python import from another module", "pk/app.py", "from .other import _split_path\n", "pk/helpers.py", "", top, 1, false},
		{"python qualified", "pk/app.py", "from . import helpers\n\nx = helpers._split_path('a')\n", "pk/helpers.py", "", top, 3, true},
		{"python comment only", "pk/app.py", "# _split_path was here\nx = 1\n", "pk/helpers.py", "", top, 0, false},
		{"go other package", "app/app.go", "package app\n\nimport \"m/calc\"\n\nfunc T(x []int) int { return calc.Sum(x) }\n", "calc/calc.go", "calc", sum, 5, true},
		{"go same package", "calc/more.go", "package calc\n\nfunc T(x []int) int { return Sum(x) }\n", "calc/calc.go", "calc", sum, 3, true},
		{"go method by name", "gin.go", "package gin\n\nfunc h() {\n\troot := t[i].root\n\troot.getValue(p)\n}\n", "tree.go", "gin", getValue, 5, false},
		{"ts named import", "src/cart.ts", "import { total, type Price } from './price'\n\nexport const c = total(1)\n", "src/price.ts", "", total, 1, true},
		{"ts import from elsewhere", "src/cart.ts", "import { total } from './other'\n", "src/price.ts", "", total, 1, false},
		{"not used", "src/cart.ts", "export const totals = 1\n", "src/price.ts", "", total, 0, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			line, sure, _ := NameUse(c.user, []byte(c.src), c.written, c.pkg, c.sym)
			if line != c.line || sure != c.sure {
				t.Errorf("NameUse = line %d sure %v, want %d %v", line, sure, c.line, c.sure)
			}
		})
	}
}

func TestPyModule(t *testing.T) {
	t.Parallel()
	dir := realDir(t)
	write(t, dir, map[string]string{
		"src/flask/__init__.py":    "",
		"src/flask/helpers.py":     "",
		"src/flask/sansio/app.py":  "",
		"py/pkg/__init__.py":       "",
		"py/pkg/mod.py":            "",
		"scripts/run.py":           "",
		"src/flask/my-script.py":   "",
		"src/flask/conftest.py":    "",
		"src/loose/not_in_pkg.py":  "",
		"py/pkg/sub/deeper/x.py":   "",
		"py/pkg/sub/__init__.py":   "",
		"py/pkg/sub/deeper/y.py":   "",
		"py/pkg/sub/deeper/z.txt":  "",
		"tests/test_app.py":        "",
		"py/pkg/sub/deeper/__x.py": "",
	})
	cases := map[string]string{
		"src/flask/helpers.py":     "src flask.helpers",
		"src/flask/__init__.py":    "src flask",
		"src/flask/sansio/app.py":  "src flask.sansio.app",
		"py/pkg/mod.py":            "py pkg.mod",
		"py/pkg/sub/deeper/x.py":   "py pkg.sub.deeper.x",
		"src/loose/not_in_pkg.py":  "src loose.not_in_pkg",
		"scripts/run.py":           "",
		"src/flask/my-script.py":   "",
		"src/flask/conftest.py":    "",
		"py/pkg/sub/deeper/__x.py": "py pkg.sub.deeper.__x",
	}
	for rel, want := range cases {
		entry, mod, ok := PyModule(dir, filepath.Join(dir, rel))
		got := ""
		if ok {
			e, _ := filepath.Rel(dir, entry)
			got = e + " " + mod
		}
		if got != want {
			t.Errorf("PyModule(%s) = %q, want %q", rel, got, want)
		}
	}
}

// Layer B imports the written Python modules and their importers: a name
// the edit removed fails the importer; a module that cannot import
// without the edit either (a missing dependency) is pre-existing.
func TestPyImportsWithBaseline(t *testing.T) {
	t.Parallel()
	needTool(t, "python3", "no python3")
	dir := realDir(t)
	oldHelpers := "def _split_path(p):\n    return p.split('.')\n"
	write(t, dir, map[string]string{
		"src/pk/__init__.py": "",
		"src/pk/helpers.py":  "def split_path(p):\n    return p.split('.')\n",
		"src/pk/wrappers.py": "from .helpers import _split_path\n\n\ndef w():\n    return _split_path('a.b')\n",
		"src/pk/extra.py":    "import m1nd_surely_not_installed\n",
		"src/pk/fine.py":     "from .helpers import split_path\n",
		"run.py":             "print('a script: compiled, never imported')\n",
	})
	f := func(rel string) File { return File{Abs: filepath.Join(dir, rel), Root: dir} }
	helpers := f("src/pk/helpers.py")
	base := baselineOf(t, helpers.Abs, oldHelpers)
	r := &Runner{Timeout: time.Minute}
	deps := []File{f("src/pk/wrappers.py"), f("src/pk/extra.py"), f("src/pk/fine.py"), f("run.py")}
	checks, pre := r.PyImports(context.Background(), append([]File{helpers}, deps...), deps, base)
	var imp *Check
	for i := range checks {
		if strings.Contains(checks[i].Command, "import") {
			imp = &checks[i]
		}
	}
	if imp == nil || imp.Status != "failed" || !imp.Blocking || !strings.Contains(imp.Output, "pk.wrappers") || !strings.Contains(imp.Output, "_split_path") || strings.Contains(imp.Output, "pk.extra") {
		t.Fatalf("import check %+v", checks)
	}
	if len(pre) != 1 || len(pre[0].Failures) != 1 || !strings.Contains(pre[0].Failures[0], "pk.extra") {
		t.Fatalf("pre-existing %+v", pre)
	}
	if v, _ := Verdict(Evidence{Compile: checks}); v != Broken {
		t.Errorf("verdict %s, want BROKEN", v)
	}
	// Without the edit's break, only the pre-existing failure is left.
	write(t, dir, map[string]string{"src/pk/wrappers.py": "from .helpers import split_path\n"})
	checks, pre = r.PyImports(context.Background(), append([]File{helpers}, deps...), deps, base)
	for _, c := range checks {
		if c.Status == "failed" {
			t.Errorf("a failing check left: %+v", c)
		}
	}
	if len(pre) != 1 {
		t.Errorf("pre-existing %+v", pre)
	}
	if _, err := os.Stat(filepath.Join(dir, "src", "pk", "__pycache__")); err == nil {
		t.Error("the import check wrote bytecode into the tree")
	}
}

// Layer D against the baseline: a test failing without the edit too is
// pre-existing and not counted; a test the edit breaks is; tests whose
// binary no longer builds could not run, which blocks.
func TestTestsAgainstGoBaseline(t *testing.T) {
	t.Parallel()
	needTool(t, "go", "no go toolchain")
	dir := realDir(t)
	old := "package calc\n\nfunc Add(a, b int) int { return a + b }\n"
	write(t, dir, map[string]string{
		"go.mod":            "module example.com/m\n\ngo 1.22\n",
		"calc/calc.go":      old,
		"calc/calc_test.go": "package calc\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) {\n\tif Add(2, 2) != 4 {\n\t\tt.Fatal(\"add\")\n\t}\n}\n\nfunc TestAlwaysBroken(t *testing.T) { t.Fatal(\"broken before any edit\") }\n",
	})
	calc := File{Abs: filepath.Join(dir, "calc", "calc.go"), Root: dir}
	base := baselineOf(t, calc.Abs, old)
	r := &Runner{Timeout: 2 * time.Minute}
	ctx := context.Background()

	// A harmless edit: the only failure is the old one.
	write(t, dir, map[string]string{"calc/calc.go": old + "\nfunc Mul(a, b int) int { return a * b }\n"})
	d, pre := r.TestsAgainst(ctx, []File{calc}, nil, base)
	if len(d) != 1 || d[0].Status != "passed" || d[0].TestsFailed != 0 || len(pre) != 1 || !slices.Contains(pre[0].Failures, "example.com/m/calc TestAlwaysBroken") {
		t.Fatalf("harmless edit: %+v pre %+v", d, pre)
	}
	if v, why := Verdict(Evidence{Tests: d}); v != Safe {
		t.Errorf("harmless edit: %s %v", v, why)
	}
	// An edit that breaks TestAdd: one failure counted, one pre-existing.
	write(t, dir, map[string]string{"calc/calc.go": "package calc\n\nfunc Add(a, b int) int { return a - b }\n"})
	d, pre = r.TestsAgainst(ctx, []File{calc}, nil, base)
	if len(d) != 1 || d[0].Status != "failed" || d[0].Blocking || d[0].TestsFailed != 1 || len(pre) != 1 {
		t.Fatalf("breaking edit: %+v pre %+v", d, pre)
	}
	if v, _ := Verdict(Evidence{Tests: d}); v != Risky {
		t.Errorf("breaking edit: %s", v)
	}
	// A rename the test file still uses: the tests cannot be built.
	write(t, dir, map[string]string{"calc/calc.go": "package calc\n\nfunc Plus(a, b int) int { return a + b }\n"})
	d, _ = r.TestsAgainst(ctx, []File{calc}, nil, base)
	if len(d) != 1 || d[0].Status != "failed" || !d[0].Blocking || !strings.Contains(d[0].Reason, "do not build") || !strings.Contains(d[0].Output, "undefined: Add") {
		t.Fatalf("tests that do not build: %+v", d)
	}
	if v, why := Verdict(Evidence{Tests: d}); v != Broken || !strings.Contains(strings.Join(why, " "), "could not run") {
		t.Errorf("tests that do not build: %s %v", v, why)
	}
}

// Python tests: run with the packages importable; a test module that no
// longer imports is "could not run" (blocking), one that never imported
// is pre-existing.
func TestTestsAgainstPythonBaseline(t *testing.T) {
	t.Parallel()
	needTool(t, "python3", "no python3")
	dir := realDir(t)
	old := "def double(x):\n    return 2 * x\n"
	mod, tests := pyProject(t, dir, old,
		"import unittest\n\nfrom pkg.mod import double\n\n\nclass T(unittest.TestCase):\n    def test_double(self):\n        self.assertEqual(double(2), 4)\n\n    def test_old_bug(self):\n        self.assertEqual(double(None), 0)\n",
		"import unittest\nimport m1nd_surely_not_installed\n\n\nclass E(unittest.TestCase):\n    def test_e(self):\n        pass\n")
	base := baselineOf(t, mod.Abs, old)
	r := &Runner{Timeout: 2 * time.Minute}
	ctx := context.Background()

	write(t, dir, map[string]string{"py/pkg/mod.py": old + "\n\ndef triple(x):\n    return 3 * x\n"})
	d, pre := r.TestsAgainst(ctx, []File{mod}, tests, base)
	if len(d) != 1 || d[0].Status != "passed" || len(pre) != 2 {
		t.Fatalf("harmless edit: %+v pre %+v", d, pre)
	}
	if v, why := Verdict(Evidence{Tests: d}); v != Safe {
		t.Errorf("harmless edit: %s %v", v, why)
	}
	write(t, dir, map[string]string{"py/pkg/mod.py": "def twice(x):\n    return 2 * x\n"})
	d, _ = r.TestsAgainst(ctx, []File{mod}, tests, base)
	if len(d) != 1 || d[0].Status != "failed" || !d[0].Blocking || !strings.Contains(d[0].Reason, "does not import") {
		t.Fatalf("a test module that no longer imports: %+v", d)
	}
	if v, _ := Verdict(Evidence{Tests: d}); v != Broken {
		t.Errorf("tests that could not run: %s, want BROKEN", v)
	}
	if _, err := os.Stat(filepath.Join(dir, "py", "pkg", "__pycache__")); err == nil {
		t.Error("the tests wrote bytecode into the tree")
	}
}

// baselineOf starts a baseline holding old as abs's content before the
// edit, closed when the test ends.
func baselineOf(t *testing.T, abs, old string) *Baseline {
	t.Helper()
	base, err := NewBaseline([]Old{{Abs: abs, Data: []byte(old), Existed: true}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(base.Close)
	return base
}

// pyProject writes py/pkg/mod.py (old) and two test modules, test_mod.py
// and test_env.py, under dir; it returns the module and the tests.
func pyProject(t *testing.T, dir, old, testMod, testEnv string) (File, []File) {
	t.Helper()
	write(t, dir, map[string]string{"py/pkg/__init__.py": "", "py/pkg/mod.py": old, "py/tests/test_mod.py": testMod, "py/tests/test_env.py": testEnv})
	at := func(parts ...string) File {
		return File{Abs: filepath.Join(append([]string{dir, "py"}, parts...)...), Root: dir}
	}
	return at("pkg", "mod.py"), []File{at("tests", "test_mod.py"), at("tests", "test_env.py")}
}

func TestVerdictRemovedNames(t *testing.T) {
	t.Parallel()
	broken := Finding{File: "a.py", Line: 1, Kind: "removed_name_used", Severity: "broken", Detail: "x"}
	warn := Finding{File: "t.py", Line: 1, Kind: "removed_name_used", Severity: "warning", Detail: "y"}
	if v, why := Verdict(Evidence{Removed: []Finding{broken, warn}}); v != Broken || len(why) != 2 || !strings.HasPrefix(why[0], "C: a.py:1") {
		t.Errorf("%s %v", v, why)
	}
	if v, _ := Verdict(Evidence{Removed: []Finding{warn}}); v != Risky {
		t.Errorf("warning only: %s", v)
	}
	pre := Check{Layer: "B", Language: "go", Command: "go build ./...", Status: "pre_existing", Blocking: true}
	if v, _ := Verdict(Evidence{Compile: []Check{pre}}); v != Safe {
		t.Errorf("pre-existing build failure: %s", v)
	}
}

// TestVerdictNothingRanTheCode: a Python edit whose imports and tests
// fail without it too (a missing dependency) was only syntax-checked: not
// SAFE. One import or test that ran, or a compiler's comparison, is.
func TestVerdictNothingRanTheCode(t *testing.T) {
	t.Parallel()
	syntax := Check{Layer: "B", Language: "python", Command: "python -c compile(<file>) on 1 files", Status: "passed", Blocking: true, Syntax: true}
	imports := Check{Layer: "B", Language: "python", Command: "python -c 'import …'", Status: "pre_existing", Blocking: true}
	tests := Check{Layer: "D", Language: "python", Command: "python -m unittest", Status: "pre_existing"}
	for _, tc := range []struct {
		name    string
		compile []Check
		tests   []Check
		want    string
	}{
		{"syntax only, imports and tests pre-existing", []Check{syntax, imports}, []Check{tests}, Risky},
		{"syntax only, imports pre-existing, no tests", []Check{syntax, imports}, nil, Risky},
		{"an import ran", []Check{syntax, {Layer: "B", Language: "python", Status: "passed"}}, []Check{tests}, Safe},
		{"a test ran", []Check{syntax, imports}, []Check{{Layer: "D", Language: "python", Status: "passed", TestsRun: 3, TestsPassed: 3}}, Safe},
		{"syntax only, nothing else to run", []Check{syntax}, nil, Safe},
		{"go build compared, tests pre-existing", []Check{{Layer: "B", Language: "go", Status: "pre_existing", Blocking: true}}, []Check{tests}, Safe},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, why := Verdict(Evidence{Compile: tc.compile, Tests: tc.tests})
			if v != tc.want {
				t.Errorf("verdict %s %v, want %s", v, why, tc.want)
			}
		})
	}
}

// pythonWithPytest finds a python that has pytest (PATH's, else the
// system's), or "".
func pythonWithPytest() string {
	var cands []string
	if p, err := exec.LookPath("python3"); err == nil {
		cands = append(cands, p)
	}
	cands = append(cands, "/usr/bin/python3")
	for _, p := range cands {
		if exec.Command(p, "-c", "import pytest").Run() == nil {
			return p
		}
	}
	return ""
}

// The same with pytest: a file that cannot be collected does not hide the
// other files' tests (--continue-on-collection-errors); a failure and a
// collection error that happen without the edit too are pre-existing; a
// test file the edit keeps from importing could not run.
func TestTestsAgainstPytestBaseline(t *testing.T) {
	t.Parallel()
	py := pythonWithPytest()
	if py == "" {
		t.Skip("no python with pytest")
	}
	dir := realDir(t)
	old := "def double(x):\n    return 2 * x\n"
	mod, tests := pyProject(t, dir, old,
		"from pkg.mod import double\n\n\ndef test_double():\n    assert double(2) == 4\n\n\ndef test_old_bug():\n    assert double(None) == 0\n",
		"import m1nd_surely_not_installed\n\n\ndef test_e():\n    pass\n")
	base := baselineOf(t, mod.Abs, old)
	r := &Runner{Timeout: 2 * time.Minute, LookPath: func(name string) (string, error) {
		if name == "python3" {
			return py, nil
		}
		return exec.LookPath(name)
	}}
	ctx := context.Background()

	write(t, dir, map[string]string{"py/pkg/mod.py": "def double(x):\n    return x + x\n"})
	d, pre := r.TestsAgainst(ctx, []File{mod}, tests, base)
	if len(d) != 1 || d[0].Status != "passed" || d[0].TestsPassed != 1 || len(pre) != 2 || !strings.HasPrefix(d[0].Command, "pytest") {
		t.Fatalf("harmless edit: %+v pre %+v", d, pre)
	}
	write(t, dir, map[string]string{"py/pkg/mod.py": "def double(x):\n    return 3 * x\n"})
	d, _ = r.TestsAgainst(ctx, []File{mod}, tests, base)
	if len(d) != 1 || d[0].Status != "failed" || d[0].Blocking || d[0].TestsFailed != 1 {
		t.Fatalf("a test the edit breaks: %+v", d)
	}
	write(t, dir, map[string]string{"py/pkg/mod.py": "def twice(x):\n    return 2 * x\n"})
	d, _ = r.TestsAgainst(ctx, []File{mod}, tests, base)
	if len(d) != 1 || d[0].Status != "failed" || !d[0].Blocking || !strings.Contains(d[0].Reason, "could not collect") || !strings.Contains(d[0].Reason, "cannot import name 'double'") {
		t.Fatalf("a test file that no longer imports: %+v", d)
	}
	if v, _ := Verdict(Evidence{Tests: d}); v != Broken {
		t.Errorf("verdict %s, want BROKEN", v)
	}
}

func TestSelfUse(t *testing.T) {
	t.Parallel()
	fn := Symbol{Name: "to_text", Qualified: "to_text"}
	for _, tc := range []struct {
		name, rel, src string
		sym            Symbol
		line           int
		call           bool
	}{
		{"renamed, still called below", "u.py", "def to_text_renamed(x):\n    return str(x)\n\n\nclass P:\n    def help(self):\n        return to_text(self.t)\n", fn, 7, true},
		{"named, not called", "u.py", "def other():\n    pass\n\nHANDLERS = [to_text]\n", fn, 4, false},
		{"only in a comment", "u.py", "def other():\n    # to_text used to live here\n    pass\n", fn, 0, false},
		{"imported from elsewhere now", "u.py", "from .text import to_text\n\n\ndef f(x):\n    return to_text(x)\n", fn, 0, false},
		{"assigned again", "u.py", "to_text = str\n\n\ndef f(x):\n    return to_text(x)\n", fn, 0, false},
		{"a method of that name is another thing", "u.py", "def f(x):\n    return x.to_text()\n", fn, 0, false},
		{"a member is left to the users' check", "u.py", "def f(self):\n    return to_text(1)\n", Symbol{Name: "to_text", Qualified: "P.to_text", Member: true}, 0, false},
		{"JavaScript", "u.js", "export function toTextRenamed(x) { return String(x) }\nconst y = toText(1)\n", Symbol{Name: "toText", Qualified: "toText"}, 2, true},
		{"JavaScript, imported", "u.ts", "import { toText } from './text'\nconst y = toText(1)\n", Symbol{Name: "toText", Qualified: "toText"}, 0, false},
		{"a later from-import does not rebind it (uvicorn)", "u.py", "from __future__ import annotations\n\nimport ipaddress\n\n\ndef parse_hosts(v):\n    return v\n\n\nhosts = to_text(1)\n\n\ndef g():\n    from x import y\n", fn, 10, true},
		{"imported in parentheses", "u.py", "from .text import (\n    other,\n    to_text,\n)\n\nv = to_text(1)\n", fn, 0, false},
		{"JavaScript, a later from does not rebind it", "u.js", "import x from './x'\nconst y = toText(1)\nexport { z } from './z'\n", Symbol{Name: "toText", Qualified: "toText"}, 2, true},
		{"JavaScript, default import", "u.js", "import toText from './text'\nconst y = toText(1)\n", Symbol{Name: "toText", Qualified: "toText"}, 0, false},
		{"Go is the compiler's", "u.go", "package u\n\nfunc f() { toText(1) }\n", Symbol{Name: "toText", Qualified: "toText"}, 0, false},
		{"Ruby: a renamed method still called on its own object (sinatra)", "b.rb", "module S\n  class Base\n    def route!\n      process_route(1)\n    end\n\n    def process_route_renamed(x)\n    end\n  end\nend\n", Symbol{Name: "process_route", Qualified: "Base.process_route", Member: true}, 4, true},
		{"Ruby: without parentheses", "b.rb", "class Base\n  def route!\n    self.x = 1\n    process_route pattern\n  end\nend\n", Symbol{Name: "process_route", Qualified: "Base.process_route", Member: true}, 4, true},
		{"Ruby: a symbol is no call", "b.rb", "class Base\n  alias_method :other, :process_route\nend\n", Symbol{Name: "process_route", Qualified: "Base.process_route", Member: true}, 0, false},
		{"Ruby: a local of that name", "b.rb", "class Base\n  def r\n    process_route = 1\n    process_route + 1\n  end\nend\n", Symbol{Name: "process_route", Qualified: "Base.process_route", Member: true}, 0, false},
		{"Ruby: still declared in another class", "b.rb", "class A\n  def process_route\n  end\nend\nclass B\n  def r\n    process_route(1)\n  end\nend\n", Symbol{Name: "process_route", Qualified: "Base.process_route", Member: true}, 0, false},
		{"Ruby: a name in a string or a comment is no call", "b.rb", "class Base\n  it 'does not call #process_route' do\n    x = 1 # process_route(1) was here\n  end\nend\n", Symbol{Name: "process_route", Qualified: "Base.process_route", Member: true}, 0, false},
		{"Python: a method called through self", "u.py", "class P:\n    def run(self):\n        return self.to_text(1)\n", Symbol{Name: "to_text", Qualified: "P.to_text", Member: true}, 3, true},
		{"TypeScript: through this", "u.ts", "class P {\n  run() {\n    return this.toText(1)\n  }\n}\n", Symbol{Name: "toText", Qualified: "P.toText", Member: true}, 3, true},
		{"PHP: through $this", "u.php", "<?php\nclass P {\n    public function run() {\n        return $this->find(1);\n    }\n}\n", Symbol{Name: "find", Qualified: "P.find", Member: true}, 4, true},
		{"C#: a bare call in its class", "u.cs", "namespace A {\n  class P {\n    void Run() { Find(1); }\n  }\n}\n", Symbol{Name: "Find", Qualified: "P.Find", Member: true}, 3, true},
		{"C#: another's method of that name", "u.cs", "class P {\n  void Run() { repo.Find(1); }\n}\n", Symbol{Name: "Find", Qualified: "P.Find", Member: true}, 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			line, call, _ := SelfUse(tc.rel, []byte(tc.src), tc.sym)
			if line != tc.line || call != tc.call {
				t.Errorf("SelfUse = line %d call %v, want %d %v", line, call, tc.line, tc.call)
			}
		})
	}
}
