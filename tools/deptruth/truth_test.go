package deptruth

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// scriptsDir is benchmarks/deptruth, where pydeps.py and jsdeps.cjs live.
func scriptsDir(t *testing.T) string {
	t.Helper()
	d, err := filepath.Abs(filepath.Join("..", "..", "benchmarks", "deptruth"))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// writeTree writes files (path → contents) under a temp dir and returns it
// with the sorted path list (what git ls-files would give).
func writeTree(t *testing.T, files map[string]string) (string, []string) {
	t.Helper()
	root := t.TempDir()
	var paths []string
	for p, body := range files {
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(strings.TrimLeft(body, "\n")), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	sort.Strings(paths)
	return root, paths
}

func TestPythonTruth(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 not installed: the Python ground truth cannot run")
	}
	root, tracked := writeTree(t, map[string]string{
		// A package that re-exports Engine from core (which imports it from
		// engine: a two-hop chain) and binds util as a submodule.
		"pkg/__init__.py": `
from .core import Engine
from . import util
`,
		"pkg/core.py": `
import json  # the standard library's, not pkg/json.py
from .engine import Engine as Engine
from .helpers import helper
`,
		"pkg/json.py":    "X = 1\n",
		"pkg/engine.py":  "class Engine:\n    pass\n",
		"pkg/helpers.py": "def helper():\n    return 1\n",
		"pkg/util.py":    "X = 1\n",
		"pkg/util.pyi":   "X: int\n",
		"pkg/star.py":    "from .helpers import *\n",
		"pkg/sub/__init__.py": `
from ..core import Engine as E
`,
		"pkg/sub/mod.py": `
from .. import util
from ...outside import nothing
`,
		// A script at the root: absolute imports, a submodule import, an
		// import inside a function and under TYPE_CHECKING, a star
		// re-export, stdlib and third-party imports.
		"app.py": `
import os
import requests
from typing import TYPE_CHECKING
from pkg import Engine
import pkg.sub.mod
from pkg.star import helper
if TYPE_CHECKING:
    from pkg.sub import E

def later():
    from pkg.helpers import helper
    return helper()
`,
		// tests/ has no __init__.py: its files are top-level modules of
		// their own directory; siblings and the repository root resolve.
		"tests/conftest.py": "import app\n",
		// Module attributes: attr.Engine follows the chain, mod.X is the
		// submodule's own name, json.dumps is the standard library's.
		"uses.py": `
import pkg as attr
from pkg.sub import mod
import json
attr.Engine()
mod.X
json.dumps(1)
`,
		"tests/test_app.py": `
import conftest
from pkg import util
from lib import thing
import app  # the root script
`,
		// A src/ layout.
		"src/lib/__init__.py": "from lib._impl import thing\n",
		"src/lib/_impl.py":    "thing = 1\n",
		"self.py":             "import self\n",
		"broken.py":           "def (:\n",
	})
	tr, err := PythonTruth(context.Background(), root, tracked, Options{ScriptsDir: scriptsDir(t)})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{
		"pkg/__init__.py": {"pkg/core.py", "pkg/engine.py", "pkg/util.py", "pkg/util.pyi"},
		"pkg/core.py":     {"pkg/engine.py", "pkg/helpers.py"},
		"pkg/star.py":     {"pkg/helpers.py"},
		"pkg/sub/__init__.py": {
			"pkg/core.py", "pkg/engine.py",
		},
		"pkg/sub/mod.py": {"pkg/__init__.py", "pkg/util.py", "pkg/util.pyi"},
		"app.py": {
			"pkg/__init__.py", "pkg/core.py", "pkg/engine.py", // from pkg import Engine: the chain to engine.py
			"pkg/helpers.py",                        // in later(), and through star.py's star import
			"pkg/star.py",                           // from pkg.star import helper
			"pkg/sub/__init__.py", "pkg/sub/mod.py", // import pkg.sub.mod; from pkg.sub import E
		},
		"tests/conftest.py":   {"app.py"},
		"uses.py":             {"pkg/__init__.py", "pkg/core.py", "pkg/engine.py", "pkg/sub/__init__.py", "pkg/sub/mod.py"},
		"tests/test_app.py":   {"app.py", "pkg/__init__.py", "pkg/util.py", "pkg/util.pyi", "src/lib/__init__.py", "src/lib/_impl.py", "tests/conftest.py"},
		"src/lib/__init__.py": {"src/lib/_impl.py"},
	}
	if d := cmp.Diff(want, tr.Deps); d != "" {
		t.Errorf("Python deps (-want +got):\n%s", d)
	}
	if _, ok := tr.Skipped["broken.py"]; !ok || contains(tr.Files, "broken.py") {
		t.Errorf("broken.py should be skipped, not analysed: skipped %v", tr.Skipped)
	}
	if !contains(tr.Files, "pkg/util.pyi") {
		t.Errorf("stubs are files of the truth: %v", tr.Files)
	}
}

// TestPythonRuntimeTruth: the run-time truth (Options.Runtime) leaves out
// imports under TYPE_CHECKING and the package __init__ of a from-import
// of submodules — tenacity's stop.py, which reaches wait.py only through
// the package it imports for a type.
func TestPythonRuntimeTruth(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 not installed: the Python ground truth cannot run")
	}
	root, tracked := writeTree(t, map[string]string{
		"pkg/__init__.py": "from .wait import wait_fixed\nclass State:\n    pass\n",
		"pkg/wait.py":     "def wait_fixed():\n    pass\n",
		"pkg/_utils.py":   "X = 1\n",
		"pkg/stop.py": `
import typing
from pkg import _utils
if typing.TYPE_CHECKING:
    from pkg import State
else:
    from pkg import wait
`,
	})
	want := map[bool]map[string][]string{
		false: {"pkg/__init__.py": {"pkg/wait.py"}, "pkg/stop.py": {"pkg/__init__.py", "pkg/_utils.py", "pkg/wait.py"}},
		true:  {"pkg/__init__.py": {"pkg/wait.py"}, "pkg/stop.py": {"pkg/_utils.py", "pkg/wait.py"}},
	}
	for _, runtime := range []bool{false, true} {
		tr, err := PythonTruth(context.Background(), root, tracked, Options{ScriptsDir: scriptsDir(t), Runtime: runtime})
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(want[runtime], tr.Deps); d != "" {
			t.Errorf("runtime %v: Python deps (-want +got):\n%s", runtime, d)
		}
	}
}

func TestGoTruth(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go not in PATH")
	}
	root, tracked := writeTree(t, map[string]string{
		"go.mod": "module example.com/fix\n\ngo 1.22\n",
		"a.go": `
package fix

// A uses b (a function), C (a const) and T's field and method, all in b.go.
func A() int {
	var t T
	return b() + C + t.F + t.M()
}
`,
		"b.go": `
package fix

const C = 2

type T struct{ F int }

func (T) M() int { return 0 }

func b() int { return 1 }
`,
		"c.go": `
package fix

// D is used by nobody; c.go uses nothing of another file.
func D() int { return 4 }
`,
		"a_test.go": `
package fix

var _ = T{F: b()}
`,
		"x_test.go": `
package fix_test

import "example.com/fix"

var _ = fix.A()
`,
		"sub/sub.go": `
package sub

import "example.com/fix"

var V = fix.C
`,
		"testdata/skip.go": "package skip\n",
	})
	tr, err := GoTruth(context.Background(), root, tracked, Options{GOOS: []string{"linux"}})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{
		"a.go":       {"b.go"},
		"a_test.go":  {"b.go"},
		"x_test.go":  {"a.go"},
		"sub/sub.go": {"b.go"},
	}
	if d := cmp.Diff(want, tr.Deps); d != "" {
		t.Errorf("Go deps (-want +got):\n%s\nnotes: %v", d, tr.Notes)
	}
	if d := cmp.Diff([]string{"a.go", "a_test.go", "b.go", "c.go", "sub/sub.go", "x_test.go"}, tr.Files); d != "" {
		t.Errorf("Go files (-want +got):\n%s", d)
	}
	if _, ok := tr.Skipped["testdata/skip.go"]; !ok {
		t.Errorf("testdata/skip.go should be skipped: %v", tr.Skipped)
	}
	if b, err := os.ReadFile(filepath.Join(root, "go.mod")); err != nil || string(b) != "module example.com/fix\n\ngo 1.22\n" {
		t.Errorf("go.mod of the target was changed: %q %v", b, err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.sum")); err == nil {
		t.Error("go.sum was written into the target")
	}
}

func TestJSTruth(t *testing.T) {
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node not installed: the JS/TS ground truth cannot run")
	}
	sd := scriptsDir(t)
	if _, err := os.Stat(filepath.Join(sd, "npm", "node_modules", "typescript", "package.json")); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("CI must run the JS truth: the typescript package is missing (.ci/run installs it with npm ci in benchmarks/deptruth/npm)")
		}
		t.Skip("the typescript package is not installed: run npm ci --prefix benchmarks/deptruth/npm")
	}
	root, tracked := writeTree(t, map[string]string{
		"package.json":  `{"name": "fixture-root", "private": true}`,
		"tsconfig.json": `{"compilerOptions": {"baseUrl": ".", "paths": {"@/*": ["src/*"]}}}`,
		"src/a.ts": `
import { b } from './b.js';
import type { T } from './types';
export * from './c';
const d = require('./d.cjs');
const later = () => import('./e');
import f from './f';
import React from 'react';
import { lib } from '@fx/lib';
import { g } from '@/g';
export * as ns from './ns'; // missed by ts.preProcessFile's scanner
`,
		"src/ns.ts":      "export const n = 1;\n",
		"src/b.ts":       "export const b = 1;\n",
		"src/types.ts":   "export type T = number;\n",
		"src/c.tsx":      "export const c = <div/>;\n",
		"src/d.cjs":      "module.exports = require('./b.js');\n",
		"src/e.js":       "export default 5;\n",
		"src/f.js":       "export default 6;\n",
		"src/f.d.ts":     "declare const f: number; export default f;\n",
		"src/g.ts":       "export { b as g } from './b';\n",
		"src/lonely.mjs": "import x from 'nowhere';\n",
		// A barrel: names used through it reach the files declaring them.
		"src/barrel/index.ts": "export * from './impl';\nexport { b as bee } from '../b';\n",
		"src/barrel/impl.ts":  "export class Impl {}\nexport const other = 1;\n",
		"src/use.ts":          "import { Impl } from './barrel';\nimport * as ns from './barrel';\nns.bee;\nnew Impl();\n",
		// A package with its own tsconfig.json and its own @/ alias.
		"site/tsconfig.json":        `{"compilerOptions": {"paths": {"@/*": ["./*"]}}}`,
		"site/app/page.ts":          "import { tool } from '@/lib/tool';\n",
		"site/lib/tool.ts":          "export const tool = 1;\n",
		"packages/lib/package.json": `{"name": "@fx/lib", "exports": {".": {"types": "./src/index.ts", "import": "./dist/index.js"}}}`,
		"packages/lib/src/index.ts": "export const lib = 1;\n",
		"packages/lib/test/lib.test.ts": `
import { lib } from '@fx/lib';
import { b } from '../../../src/b';
`,
	})
	tr, err := JSTruth(context.Background(), root, tracked, Options{ScriptsDir: sd})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{
		"src/a.ts": {
			"packages/lib/src/index.ts", // a workspace package through its exports
			"src/b.ts",                  // ./b.js → b.ts
			"src/c.tsx",
			"src/d.cjs", // require
			"src/e.js",  // dynamic import
			"src/f.js",  // f.d.ts replaced by the source beside it
			"src/g.ts",  // tsconfig paths
			"src/ns.ts", // export * as ns
			"src/types.ts",
		},
		"src/d.cjs":                     {"src/b.ts"},
		"src/barrel/index.ts":           {"src/b.ts", "src/barrel/impl.ts"},
		"site/app/page.ts":              {"site/lib/tool.ts"},                                      // the nearest tsconfig.json's paths
		"src/use.ts":                    {"src/b.ts", "src/barrel/impl.ts", "src/barrel/index.ts"}, // Impl and ns.bee through the barrel
		"src/g.ts":                      {"src/b.ts"},
		"packages/lib/test/lib.test.ts": {"packages/lib/src/index.ts", "src/b.ts"},
	}
	if d := cmp.Diff(want, tr.Deps); d != "" {
		t.Errorf("JS deps (-want +got):\n%s\nnotes: %v stats: %v", d, tr.Notes, tr.Stats)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
