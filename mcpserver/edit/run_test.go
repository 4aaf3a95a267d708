package edit

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/m1nd-go/m1nd/core/testcorpus"
)

func write(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	if err := testcorpus.Write(dir, files); err != nil {
		t.Fatal(err)
	}
}

func realDir(t *testing.T) string {
	d, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// needTool skips a test when bin is not on PATH (skip says what is
// missing).
func needTool(t *testing.T, bin, skip string) {
	t.Helper()
	if _, err := exec.LookPath(bin); err != nil {
		t.Skip(skip)
	}
}

func TestRunnerGo(t *testing.T) {
	t.Parallel()
	needTool(t, "go", "no go toolchain")
	dir := realDir(t)
	write(t, dir, map[string]string{
		"go.mod":            "module example.com/m\n\ngo 1.22\n",
		"calc/calc.go":      "package calc\n\nfunc Add(a, b int) int { return a + b }\n",
		"calc/calc_test.go": "package calc\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) {\n\tif Add(2, 2) != 4 {\n\t\tt.Fatal(\"add\")\n\t}\n}\n\nfunc TestZero(t *testing.T) {}\n",
	})
	r := &Runner{Timeout: 2 * time.Minute}
	files := []File{{Abs: filepath.Join(dir, "calc", "calc.go"), Root: dir}}
	ctx := context.Background()
	b := r.Compile(ctx, files)
	if len(b) != 2 || b[0].Status != "passed" || b[1].Status != "passed" || !b[0].Blocking || b[1].Blocking {
		t.Fatalf("compile of a good module: %+v", b)
	}
	d := r.Tests(ctx, files, nil)
	if len(d) != 1 || d[0].Status != "passed" || d[0].TestsRun != 2 || d[0].TestsPassed != 2 {
		t.Fatalf("tests of a good module: %+v", d)
	}

	write(t, dir, map[string]string{"calc/calc.go": "package calc\n\nfunc Add(a, b int) int { return a - b }\n"})
	d = r.Tests(ctx, files, nil)
	if d[0].Status != "failed" || d[0].TestsFailed != 1 || d[0].TestsPassed != 1 || !strings.Contains(d[0].Output, "add") {
		t.Fatalf("a failing test: %+v", d)
	}
	if v, _ := Decide(nil, b, d, nil, ""); v != Risky {
		t.Errorf("failing tests: verdict %s, want RISKY", v)
	}

	write(t, dir, map[string]string{"calc/calc.go": "package calc\n\nfunc Add(a, b int) int { return a - }\n"})
	b = r.Compile(ctx, files)
	if len(b) != 1 || b[0].Status != "failed" || !strings.Contains(b[0].Output, "calc.go:3") {
		t.Fatalf("a broken build: %+v", b)
	}
	if v, why := Decide(nil, b, nil, nil, ""); v != Broken || len(why) != 1 {
		t.Errorf("broken build: verdict %s %v", v, why)
	}
}

func TestRunnerPython(t *testing.T) {
	t.Parallel()
	needTool(t, "python3", "no python3")
	dir := realDir(t)
	write(t, dir, map[string]string{
		"pkg/__init__.py":   "",
		"pkg/mod.py":        "def double(x):\n    return 2 * x\n",
		"tests/test_mod.py": "import unittest\nfrom pkg.mod import double\n\nclass T(unittest.TestCase):\n    def test_double(self):\n        self.assertEqual(double(2), 4)\n\n    def test_zero(self):\n        self.assertEqual(double(0), 0)\n",
	})
	r := &Runner{Timeout: 2 * time.Minute}
	mod := File{Abs: filepath.Join(dir, "pkg", "mod.py"), Root: dir}
	test := File{Abs: filepath.Join(dir, "tests", "test_mod.py"), Root: dir}
	ctx := context.Background()
	if b := r.Compile(ctx, []File{mod}); len(b) != 1 || b[0].Status != "passed" {
		t.Fatalf("compile: %+v", b)
	}
	d := r.Tests(ctx, []File{mod}, []File{test})
	if len(d) != 1 || d[0].Status != "passed" || d[0].TestsRun != 2 {
		t.Fatalf("tests: %+v", d)
	}
	write(t, dir, map[string]string{"pkg/mod.py": "def double(x):\n    return 3 * x\n"})
	if d := r.Tests(ctx, []File{mod}, []File{test}); d[0].Status != "failed" || d[0].TestsFailed != 1 {
		t.Fatalf("failing tests: %+v", d)
	}
	write(t, dir, map[string]string{"pkg/mod.py": "def double(x):\n    return 2 *\n"})
	b := r.Compile(ctx, []File{mod})
	if b[0].Status != "failed" || !strings.Contains(b[0].Output, "mod.py:2") {
		t.Fatalf("syntax error: %+v", b)
	}
	if _, err := os.Stat(filepath.Join(dir, "pkg", "__pycache__")); err == nil {
		t.Error("checks wrote bytecode into the tree")
	}
}

func TestRunnerSkipsMissingToolchains(t *testing.T) {
	t.Parallel()
	dir := realDir(t)
	write(t, dir, map[string]string{"go.mod": "module m\n", "a.go": "package m\n", "b.py": "x = 1\n", "c.ts": "let x = 1\n", "d.rs": "fn main() {}\n"})
	r := &Runner{LookPath: func(string) (string, error) { return "", exec.ErrNotFound }}
	var files []File
	for _, f := range []string{"a.go", "b.py", "c.ts", "d.rs"} {
		files = append(files, File{Abs: filepath.Join(dir, f), Root: dir})
	}
	for _, c := range r.Compile(context.Background(), files) {
		if c.Status != "skipped" || c.Reason == "" {
			t.Errorf("%s: %s (%s), want skipped with a reason", c.Command, c.Status, c.Reason)
		}
	}
}

// Layers B and D on a Rust crate: cargo check passes and fails with the
// code, cargo test's failure is reported, not blocking.
func TestRunnerRust(t *testing.T) {
	t.Parallel()
	needTool(t, "cargo", "no cargo")
	dir := realDir(t)
	write(t, dir, map[string]string{
		"Cargo.toml": "[package]\nname = \"calc\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[dependencies]\n",
		"src/lib.rs": "pub fn add(a: i32, b: i32) -> i32 { a + b }\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn adds() { assert_eq!(super::add(2, 2), 4); }\n}\n",
	})
	r := &Runner{Timeout: 5 * time.Minute}
	files := []File{{Abs: filepath.Join(dir, "src", "lib.rs"), Root: dir}}
	ctx := context.Background()
	if b := r.Compile(ctx, files); len(b) != 1 || b[0].Status != "passed" || !b[0].Blocking || b[0].Language != "rust" {
		t.Fatalf("cargo check of a good crate: %+v", b)
	}
	if d := r.Tests(ctx, files, nil); len(d) != 1 || d[0].Status != "passed" || d[0].Blocking {
		t.Fatalf("cargo test of a good crate: %+v", d)
	}
	write(t, dir, map[string]string{"src/lib.rs": "pub fn add(a: i32, b: i32) -> i32 { a - b }\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn adds() { assert_eq!(super::add(2, 2), 4); }\n}\n"})
	d := r.Tests(ctx, files, nil)
	if len(d) != 1 || d[0].Status != "failed" {
		t.Fatalf("a failing cargo test: %+v", d)
	}
	if v, _ := Decide(nil, r.Compile(ctx, files), d, nil, ""); v != Risky {
		t.Errorf("failing tests: verdict %s, want RISKY", v)
	}
	write(t, dir, map[string]string{"src/lib.rs": "pub fn add(a: i32, b: i32) -> i32 { a + \"b\" }\n"})
	b := r.Compile(ctx, files)
	if len(b) != 1 || b[0].Status != "failed" || !strings.Contains(b[0].Output, "lib.rs") {
		t.Fatalf("a type error: %+v", b)
	}
	if v, _ := Decide(nil, b, nil, nil, ""); v != Broken {
		t.Errorf("type error: verdict %s, want BROKEN", v)
	}
}

// Layer B on TypeScript (tsc --noEmit, from the project's node_modules or
// PATH; the repository's own benchmarks/deptruth/npm install when present)
// and JavaScript (node --check).
func TestRunnerTypeScriptAndJavaScript(t *testing.T) {
	t.Parallel()
	tsc, err := exec.LookPath("tsc")
	if err != nil {
		tsc, _ = filepath.Abs("../../benchmarks/deptruth/npm/node_modules/.bin/tsc")
		if _, err := os.Stat(tsc); err != nil {
			t.Skip("no tsc (npm ci in benchmarks/deptruth/npm installs one)")
		}
	}
	needTool(t, "node", "no node")
	dir := realDir(t)
	write(t, dir, map[string]string{
		"web/tsconfig.json": `{"compilerOptions": {"strict": true, "noEmit": true, "target": "es2020"}, "include": ["src"]}`,
		"web/src/price.ts":  "export function total(a: number, b: number): number { return a + b }\n",
		"web/app.js":        "function hello() { return 1 }\n",
	})
	r := &Runner{Timeout: 2 * time.Minute, LookPath: func(name string) (string, error) {
		if name == "tsc" {
			return tsc, nil
		}
		return exec.LookPath(name)
	}}
	ts := File{Abs: filepath.Join(dir, "web", "src", "price.ts"), Root: dir}
	js := File{Abs: filepath.Join(dir, "web", "app.js"), Root: dir}
	ctx := context.Background()
	b := r.Compile(ctx, []File{ts, js})
	if len(b) != 2 || b[0].Status != "passed" || b[0].Language != "typescript" || b[1].Status != "passed" || b[1].Language != "javascript" {
		t.Fatalf("good TypeScript and JavaScript: %+v", b)
	}
	write(t, dir, map[string]string{
		"web/src/price.ts": "export function total(a: number, b: number): number { return a + \"b\" }\n",
		"web/app.js":       "function hello() { return 1 \n",
	})
	b = r.Compile(ctx, []File{ts, js})
	if len(b) != 2 || b[0].Status != "failed" || !strings.Contains(b[0].Output, "price.ts") || b[1].Status != "failed" {
		t.Fatalf("a type error and a syntax error: %+v", b)
	}
	if v, _ := Decide(nil, b, nil, nil, ""); v != Broken {
		t.Errorf("verdict %s, want BROKEN", v)
	}
}
