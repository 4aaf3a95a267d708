package code

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/ingest/adapter"
	"github.com/m1nd-go/m1nd/ingest/cache"
	"github.com/m1nd-go/m1nd/ingest/internal/graphdump"
)

// manifestTree is a repository of four ecosystems, each with a manifest
// declaring dependencies.
var manifestTree = map[string]string{
	"go.mod":              "module example.com/m\n\ngo 1.22\n\nrequire golang.org/x/text v0.3.0\n",
	"cmd/m/main.go":       "package main\n\nimport \"example.com/m/store\"\n\nfunc main() { store.Open() }\n",
	"store/store.go":      "package store\n\n// Open opens the store.\nfunc Open() {}\n",
	"web/package.json":    `{"name": "web", "version": "1.0.0", "main": "index.js", "dependencies": {"left-pad": "1.0.0"}}`,
	"web/index.js":        "export function pad(s) { return s }\n",
	"pyproject.toml":      "[project]\nname = \"tool\"\nversion = \"0.1\"\ndependencies = [\"requests>=2\"]\n",
	"tool/__init__.py":    "from .core import run\n",
	"tool/core.py":        "def run():\n    return 1\n",
	"tool/sub/mod.py":     "from tool.core import run\n\n\ndef go():\n    return run()\n",
	"crate/Cargo.toml":    "[package]\nname = \"crate\"\nversion = \"0.1.0\"\n\n[dependencies]\nserde = \"1\"\n",
	"crate/src/lib.rs":    "pub fn f() -> i32 { 1 }\n",
	"docs/readme.md":      "# Tool\n\nSee `tool/core.py`.\n",
	"store/store_test.go": "package store\n\nimport \"testing\"\n\nfunc TestOpen(t *testing.T) { Open() }\n",
}

// incrementalRunner ingests dir incrementally into one cache store, as the
// server does, and holds every graph it returns until the test ends: the
// store keeps the last one only weakly, and a patch starts from it.
func incrementalRunner(t *testing.T, dir string) func(context.Context) *adapter.Output {
	store := cache.Open(t.TempDir())
	var held []*graph.Graph
	t.Cleanup(func() { runtime.KeepAlive(held) })
	return func(ctx context.Context) *adapter.Output {
		t.Helper()
		out, err := Ingest(ctx, adapter.Request{Root: dir, Incremental: true, Cache: store})
		if err != nil {
			t.Fatal(err)
		}
		held = append(held, out.Graph)
		return out
	}
}

// changeFiles removes files under dir, then writes others dated at.
func changeFiles(t *testing.T, dir string, files map[string]string, remove []string, at time.Time) {
	t.Helper()
	for _, p := range remove {
		if err := os.Remove(filepath.Join(dir, p)); err != nil {
			t.Fatal(err)
		}
	}
	writeFiles(t, dir, files)
	for p := range files {
		touch(t, filepath.Join(dir, p), at)
	}
}

// A manifest that changes dependencies or versions — or an __init__.py
// edited, added or removed inside a package — patches the graph, and the
// patched graph is the one a full ingest builds; one that moves the
// repository's own packages rebuilds and says why.
func TestPatchManifests(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, manifestTree)
	run := incrementalRunner(t, dir)
	run(context.Background())
	at := time.Now().Add(time.Hour)
	steps := []struct {
		name    string
		files   map[string]string
		remove  []string
		patched bool
		check   func(d graphdump.Dump) bool
	}{
		{name: "a Go dependency added", patched: true,
			files: map[string]string{"go.mod": "module example.com/m\n\ngo 1.22\n\nrequire (\n\tgolang.org/x/text v0.3.0\n\tgolang.org/x/sync v0.1.0\n)\n"},
			check: func(d graphdump.Dump) bool {
				return d.Has("package::go::example.com/m", "depends_on", "package::go::golang.org/x/sync")
			}},
		{name: "a Go dependency removed", patched: true,
			files: map[string]string{"go.mod": "module example.com/m\n\ngo 1.22\n\nrequire golang.org/x/sync v0.1.0\n"},
			check: func(d graphdump.Dump) bool {
				_, text := d.Node("package::go::golang.org/x/text")
				return !text
			}},
		{name: "an npm version and dependency moved, with a source file", patched: true,
			files: map[string]string{
				"web/package.json": `{"name": "web", "version": "1.1.0", "main": "index.js", "dependencies": {"left-pad": "1.0.0", "chalk": "5.0.0"}}`,
				"web/index.js":     "export function pad(s) { return s + ' ' }\n",
			},
			check: func(d graphdump.Dump) bool {
				n, ok := d.Node("package::npm::web")
				return ok && n.Prov.Excerpt == "1.1.0" && d.Has("package::npm::web", "depends_on", "package::npm::chalk")
			}},
		{name: "a Python requirement and a Cargo dependency", patched: true,
			files: map[string]string{
				"pyproject.toml":   "[project]\nname = \"tool\"\nversion = \"0.2\"\ndependencies = [\"requests>=2\", \"rich\"]\n",
				"crate/Cargo.toml": "[package]\nname = \"crate\"\nversion = \"0.1.0\"\n\n[dependencies]\nserde = \"1\"\nanyhow = \"1\"\n",
			},
			check: func(d graphdump.Dump) bool {
				return d.Has("package::cargo::crate", "depends_on", "package::cargo::anyhow")
			}},
		{name: "an __init__.py edited", patched: true,
			files: map[string]string{"tool/__init__.py": "from .core import run\n\n\ndef version():\n    return run()\n"},
			check: func(d graphdump.Dump) bool {
				return d.Has("file::tool/__init__.py::version", "calls", "file::tool/core.py::run")
			}},
		{name: "an __init__.py added inside a package", patched: true,
			files: map[string]string{"tool/sub/__init__.py": "from .mod import go\n"}},
		{name: "an __init__.py removed inside a package", patched: true, remove: []string{"tool/sub/__init__.py"}},
		{name: "a Go file and go.mod at once", patched: true,
			files: map[string]string{
				"store/more.go": "package store\n\n// More adds more.\nfunc More() { Open() }\n",
				"go.mod":        "module example.com/m\n\ngo 1.23\n\nrequire golang.org/x/sync v0.2.0\n",
			}},
		{name: "the module path moved", patched: false,
			files: map[string]string{"go.mod": "module example.com/other\n\ngo 1.23\n"}},
		{name: "a new top-level import package", patched: false,
			files: map[string]string{"extra/__init__.py": "", "extra/x.py": "def x():\n    return 1\n"}},
		{name: "an edit after the rebuild", patched: true,
			files: map[string]string{"pyproject.toml": "[project]\nname = \"tool\"\nversion = \"0.3\"\n"}},
		{name: "a manifest removed with its package", patched: false, remove: []string{"pyproject.toml"},
			check: func(d graphdump.Dump) bool { _, ok := d.Node("package::pypi::tool"); return !ok }},
	}
	for _, s := range steps {
		changeFiles(t, dir, s.files, s.remove, at)
		at = at.Add(time.Minute)
		out := run(context.Background())
		inc := out.Stats.Incremental
		if inc.Patched != s.patched {
			t.Fatalf("%s: patched %v, want %v: %+v", s.name, inc.Patched, s.patched, inc)
		}
		if !s.patched && inc.RebuildReason != ManifestChanged.String() {
			t.Fatalf("%s: rebuilt for %q", s.name, inc.RebuildReason)
		}
		equalToFull(t, dir, out)
		full, err := Ingest(context.Background(), adapter.Request{Root: dir, CacheDir: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		if out.Stats.Packages != full.Stats.Packages {
			t.Fatalf("%s: %d packages counted, a full ingest counts %d", s.name, out.Stats.Packages, full.Stats.Packages)
		}
		if s.check != nil && !s.check(graphdump.Of(out.Graph)) {
			t.Fatalf("%s: the graph does not show the change", s.name)
		}
	}
}

// A call from a portable file to a function declared once per platform
// binds every platform's declaration (resolve.Result.Also), in a full
// ingest and in a patch alike, as declarations come and go.
func TestPatchPlatformVariants(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"go.mod":          "module example.com/term\n\ngo 1.22\n",
		"term_linux.go":   "package term\n\nfunc isTerm() bool { return true }\n",
		"term_windows.go": "package term\n\nfunc isTerm() bool { return false }\n",
		"use.go":          "package term\n\n// Use asks.\nfunc Use() bool { return isTerm() }\n",
		"use_windows.go":  "package term\n\nfunc useWindows() bool { return isTerm() }\n",
		"other/x.go":      "package other\n\nfunc isTerm() bool { return true }\n",
	})
	run := incrementalRunner(t, dir)
	out := run(context.Background())
	equalToFull(t, dir, out)
	d := graphdump.Of(out.Graph)
	if runtime.GOOS == "linux" && !d.Has("file::use.go::Use", "calls", "file::term_windows.go::isTerm") || !d.Has("file::use_windows.go::useWindows", "calls", "file::term_windows.go::isTerm") ||
		d.Has("file::use_windows.go::useWindows", "calls", "file::term_linux.go::isTerm") || d.Has("file::use.go::Use", "calls", "file::other/x.go::isTerm") {
		t.Fatalf("platform variants bound wrong: %v", d.EdgeStrings())
	}
	at := time.Now().Add(time.Hour)
	for _, s := range []struct {
		name   string
		files  map[string]string
		remove []string
	}{
		{name: "the caller edited", files: map[string]string{"use.go": "package term\n\n// Use asks twice.\nfunc Use() bool { return isTerm() && isTerm() }\n"}},
		{name: "a variant loses the function", files: map[string]string{"term_windows.go": "package term\n\nfunc other() bool { return false }\n"}},
		{name: "a new platform's variant", files: map[string]string{"term_darwin.go": "package term\n\nfunc isTerm() bool { return true }\n"}},
		{name: "the variant deleted", remove: []string{"term_darwin.go"}},
	} {
		changeFiles(t, dir, s.files, s.remove, at)
		at = at.Add(time.Minute)
		out := run(context.Background())
		if !out.Stats.Incremental.Patched {
			t.Fatalf("%s: not patched: %s", s.name, out.Stats.Incremental.RebuildReason)
		}
		equalToFull(t, dir, out)
	}
}
