package code

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/m1nd-go/m1nd/ingest/adapter"
	"github.com/m1nd-go/m1nd/ingest/cache"
	"github.com/m1nd-go/m1nd/ingest/internal/graphdump"
)

// conn is a second Go type for store/db.go with a method named like DB's.
const conn = "\n// Conn is a connection.\ntype Conn struct{}\n\n// Query runs a query on the connection.\nfunc (c *Conn) Query() error { return nil }\n"

// TestPatchEqualsFull edits file contents one step at a time — bodies,
// new and removed definitions, renamed methods, changed inheritance and
// imports, a touch without change, several files at once, a new commit —
// and checks that every incremental run patches the previous graph and
// that the patched graph is the one a full ingest builds.
func TestPatchEqualsFull(t *testing.T) {
	forEachStore(t, testPatchEqualsFull)
}

// forEachStore runs a test with a store that keeps every result in memory
// and with one that spills them to disk, as a server's does (read back
// when a patch needs them).
func forEachStore(t *testing.T, test func(t *testing.T, open func(dir string) *cache.Store)) {
	t.Run("kept", func(t *testing.T) { test(t, cache.Open) })
	t.Run("spilled", func(t *testing.T) {
		test(t, func(dir string) *cache.Store {
			s := cache.Open(dir)
			s.SetWriteBehind(true)
			t.Cleanup(func() { s.Close() })
			return s
		})
	})
}

func testPatchEqualsFull(t *testing.T, open func(string) *cache.Store) {
	r := newFixtureRepo(t)
	store := open(t.TempDir())
	run := func() *adapter.Output {
		t.Helper()
		return ingest(t, adapter.Request{Root: r.Dir, Incremental: true, Cache: store})
	}
	first := run()
	equalToFull(t, r.Dir, first)
	// The server holds its current graph while the next ingest runs; the
	// patch starts from it (the cache only points at it weakly).
	held := []any{first.Graph}

	at := time.Now().Add(time.Hour)
	steps := []struct {
		name   string
		files  map[string]string
		remove []string
		touch  []string
		check  func(d graphdump.Dump) bool
	}{
		{name: "a function body", files: map[string]string{"app/util.py": "def helper():\n    return 3\n"}},
		{name: "a new method and its caller, two files",
			files: map[string]string{
				"app/models.py":  fixture["app/models.py"] + "\n    def delete(self):\n        return self.save()\n",
				"app/service.py": strings.Replace(fixture["app/service.py"], "u.save()", "u.save()\n        Account().delete()", 1),
			},
			check: func(d graphdump.Dump) bool {
				return d.Has("file::app/service.py::Service::run", "calls", "file::app/models.py::Account::delete")
			}},
		{name: "a definition others call disappears",
			files: map[string]string{"app/models.py": "class User:\n    pass\n\n\nclass Account:\n    def delete(self):\n        return 1\n"},
			check: func(d graphdump.Dump) bool {
				return !d.Has("file::app/service.py::Service::run", "calls", "file::app/models.py::User::save")
			}},
		{name: "inheritance changes where an inherited method resolves",
			files: map[string]string{"app/models.py": "class User:\n    def save(self):\n        return 2\n\n\nclass Account(User):\n    def delete(self):\n        return 1\n"},
			check: func(d graphdump.Dump) bool {
				return d.Has("file::app/models.py::Account", "inherits", "file::app/models.py::User")
			}},
		{name: "a test's body, imports unchanged: its derived edges stay as they are",
			files: map[string]string{"store/db_test.go": "package store\n\nimport \"testing\"\n\nfunc TestQuery(t *testing.T) { New().Query(); _ = New() }\n"},
			check: func(d graphdump.Dump) bool {
				return d.Has("file::store/db_test.go", "tests", "file::store/db.go")
			}},
		{name: "a Go interface its type satisfies",
			files: map[string]string{"store/db.go": fixture["store/db.go"] + "\n// Querier queries.\ntype Querier interface {\n\tQuery() error\n}\n"},
			check: func(d graphdump.Dump) bool {
				return d.Has("file::store/db.go::DB", "implements", "file::store/db.go::Querier")
			}},
		{name: "a Go method renamed: its caller in another package loses the call",
			files: map[string]string{"store/db.go": strings.Replace(fixture["store/db.go"], "Query()", "Exec()", 1)},
			check: func(d graphdump.Dump) bool {
				return !d.Has("file::cmd/main.go::main", "calls", "file::store/db.go::DB::Query") &&
					!d.Has("file::store/db.go::DB", "implements", "file::store/db.go::Querier")
			}},
		{name: "imports change: the test no longer reaches the module it is named for",
			files: map[string]string{"tests/test_service.py": "from app.models import User\n\n\ndef test_run():\n    assert User()\n"},
			check: func(d graphdump.Dump) bool {
				return !d.Has("file::tests/test_service.py", "tests", "file::app/service.py")
			}},
		{name: "a second Go type with a method named like DB's",
			files: map[string]string{"store/db.go": fixture["store/db.go"] + conn},
			check: func(d graphdump.Dump) bool {
				return d.Has("file::cmd/main.go::main", "calls", "file::store/db.go::DB::Query")
			}},
		{name: "only a result type changes: a call on the result binds to the other type's method",
			files: map[string]string{"store/db.go": strings.Replace(fixture["store/db.go"], "func New() *DB { return &DB{} }", "func New() *Conn { return &Conn{} }", 1) + conn},
			check: func(d graphdump.Dump) bool {
				return d.Has("file::cmd/main.go::main", "calls", "file::store/db.go::Conn::Query") &&
					!d.Has("file::cmd/main.go::main", "calls", "file::store/db.go::DB::Query")
			}},
		{name: "one of two same-named methods goes: its label stays, its caller loses the call",
			files: map[string]string{"store/db.go": strings.Replace(fixture["store/db.go"], "func New() *DB { return &DB{} }", "func New() *Conn { return &Conn{} }", 1) +
				strings.Replace(conn, "func (c *Conn) Query() error { return nil }", "func (c *Conn) Close() error { return nil }", 1)},
			check: func(d graphdump.Dump) bool {
				return !d.Has("file::cmd/main.go::main", "calls", "file::store/db.go::Conn::Query")
			}},
		{name: "a C header's prototype and the file defining it",
			files: map[string]string{
				"csrc/parse.h": "int parse(const char *s);\nint unused(void);\n",
				"csrc/parse.c": "#include \"parse.h\"\n\nint parse(const char *s) { return s[0]; }\n",
			},
			check: func(d graphdump.Dump) bool {
				return d.Has("file::csrc/parse.c::parse", "implements", "file::csrc/parse.h::parse")
			}},
		{name: "only the C definition is renamed: the unchanged header's prototype loses it",
			files: map[string]string{"csrc/parse.c": "#include \"parse.h\"\n\nint parse2(const char *s) { return s[0]; }\nint unused(void) { return 0; }\n"},
			check: func(d graphdump.Dump) bool {
				return !d.Has("file::csrc/parse.c::parse2", "implements", "file::csrc/parse.h::parse") &&
					d.Has("file::csrc/parse.c::unused", "implements", "file::csrc/parse.h::unused")
			}},
		{name: "a touch without a change", touch: []string{"lib/util.py"}},
		{name: "a file appears in a directory, after the others",
			files: map[string]string{"app/zz_new.py": "from .models import User\n\n\ndef fresh():\n    return User()\n"},
			check: func(d graphdump.Dump) bool {
				return d.Has("dir::app", "contains", "file::app/zz_new.py") && d.Has("package::python::app", "contains", "file::app/zz_new.py") &&
					d.Has("file::app/zz_new.py::fresh", "calls", "file::app/models.py::User")
			}},
		{name: "a Go file comes first in its package: the directory moves to it",
			files: map[string]string{"store/a.go": "package store\n\n// Open opens.\nfunc Open() *DB { return New() }\n"},
			check: func(d graphdump.Dump) bool {
				return d.Has("dir::store", "contains", "file::store/a.go") && d.Has("file::store/a.go::Open", "calls", "file::store/db.go::New")
			}},
		{name: "a file in new directories calls into the tree",
			files: map[string]string{"svc/deep/job.py": "from app.models import Account\n\n\ndef job():\n    return Account().save()\n"},
			check: func(d graphdump.Dump) bool {
				return d.Has("dir::svc", "contains", "dir::svc/deep") && d.Has("dir::svc/deep", "contains", "file::svc/deep/job.py")
			}},
		{name: "the last file of a directory goes, and the directory with it",
			remove: []string{"lib/util.py"},
			check: func(d graphdump.Dump) bool {
				_, file := d.Node("file::lib/util.py")
				_, dir := d.Node("dir::lib")
				return !file && !dir
			}},
		{name: "a Go file renamed: its callers follow it",
			remove: []string{"store/db.go"},
			files:  map[string]string{"store/database.go": fixture["store/db.go"] + conn},
			check: func(d graphdump.Dump) bool {
				return d.Has("file::cmd/main.go::main", "calls", "file::store/database.go::New")
			}},
		{name: "the file leading a directory goes: the next one leads it",
			remove: []string{"store/a.go"},
			check:  func(d graphdump.Dump) bool { return d.Has("dir::store", "contains", "file::store/database.go") }},
		{name: "a module an edited file imports appears with it",
			files: map[string]string{
				"app/extra.py":   "def extra():\n    return 5\n",
				"app/service.py": strings.Replace(fixture["app/service.py"], "from . import util", "from . import util\nfrom .extra import extra", 1) + "\n\ndef more():\n    return extra()\n",
			},
			check: func(d graphdump.Dump) bool {
				return d.Has("file::app/service.py::more", "calls", "file::app/extra.py::extra")
			}},
		{name: "a new test links to the module it is named for",
			files: map[string]string{"tests/test_extra.py": "from app.extra import extra\n\n\ndef test_extra():\n    assert extra()\n"},
			check: func(d graphdump.Dump) bool { return d.Has("file::tests/test_extra.py", "tests", "file::app/extra.py") }},
		{name: "a test no name pairs reads an import only as a skip flag: no link",
			files: map[string]string{
				"app/flags.py":       "FAST = True\n",
				"tests/test_misc.py": "import pytest\nfrom app.flags import FAST\n\n\n@pytest.mark.skipif(not FAST, reason='slow')\ndef test_misc():\n    assert 1\n",
			},
			check: func(d graphdump.Dump) bool { return !d.Has("file::tests/test_misc.py", "tests", "file::app/flags.py") }},
		{name: "its body starts to use the import, imports unchanged: the link appears",
			files: map[string]string{"tests/test_misc.py": "import pytest\nfrom app.flags import FAST\n\n\n@pytest.mark.skipif(not FAST, reason='slow')\ndef test_misc():\n    assert FAST is True\n"},
			check: func(d graphdump.Dump) bool { return d.Has("file::tests/test_misc.py", "tests", "file::app/flags.py") }},
		{name: "files come and go across directories at once",
			remove: []string{"svc/deep/job.py", "app/zz_new.py"},
			files:  map[string]string{"svc/other.py": "def other():\n    return 1\n", "cmd/tool/tool.go": "package main\n\nfunc main() {}\n"},
			check: func(d graphdump.Dump) bool {
				_, deep := d.Node("dir::svc/deep")
				return !deep && d.Has("dir::svc", "contains", "file::svc/other.py")
			}},
		{name: "a Go call through a field another file declares",
			files: map[string]string{
				"store/pool.go": "package store\n\n// Pool pools.\ntype Pool struct{ Main *DB }\n",
				"store/use.go":  "package store\n\nfunc use(p *Pool) error { return p.Main.Query() }\n",
			},
			check: func(d graphdump.Dump) bool {
				return d.Has("file::store/use.go::use", "calls", "file::store/database.go::DB::Query")
			}},
		{name: "only the field's type changes: the unchanged caller follows it",
			files: map[string]string{"store/pool.go": "package store\n\n// Pool pools.\ntype Pool struct{ Main *Conn }\n"},
			check: func(d graphdump.Dump) bool {
				return d.Has("file::store/use.go::use", "calls", "file::store/database.go::Conn::Query") &&
					!d.Has("file::store/use.go::use", "calls", "file::store/database.go::DB::Query")
			}},
	}
	for _, s := range steps {
		for _, p := range s.remove {
			if err := os.Remove(filepath.Join(r.Dir, p)); err != nil {
				t.Fatal(err)
			}
		}
		writeFiles(t, r.Dir, s.files)
		for p := range s.files {
			touch(t, filepath.Join(r.Dir, p), at)
		}
		for _, p := range s.touch {
			touch(t, filepath.Join(r.Dir, p), at)
		}
		at = at.Add(time.Minute)
		out := run()
		if inc := out.Stats.Incremental; inc == nil || !inc.Patched {
			t.Fatalf("%s: not patched: %+v", s.name, inc)
		}
		equalToFull(t, r.Dir, out)
		if s.check != nil && !s.check(graphdump.Of(out.Graph)) {
			t.Fatalf("%s: the graph does not show the change", s.name)
		}
		held = append(held, out.Graph)
	}

	// A commit moves HEAD: change frequencies and times move with it.
	r.Change(map[string]string{"app/util.py": "def helper():\n    return 4\n"}, "cy", day(3))
	out := run()
	if inc := out.Stats.Incremental; !inc.Patched {
		t.Fatalf("after a commit: not patched: %+v", inc)
	}
	equalToFull(t, r.Dir, out)

	// A manifest is not patched: the graph is rebuilt, and says why.
	writeFiles(t, r.Dir, map[string]string{"app/new.py": "def fresh():\n    return 1\n", "svc/__init__.py": ""})
	out = run()
	if inc := out.Stats.Incremental; inc.Patched || inc.RebuildReason == "" {
		t.Fatalf("added manifest: %+v", inc)
	}
	equalToFull(t, r.Dir, out)
	held = append(held, out.Graph)

	// The rebuilt graph is the next patch's starting point.
	writeFiles(t, r.Dir, map[string]string{"app/new.py": "def fresh():\n    return helper()\n\n\ndef helper():\n    return 2\n"})
	touch(t, filepath.Join(r.Dir, "app/new.py"), at.Add(time.Hour))
	out = run()
	if inc := out.Stats.Incremental; !inc.Patched {
		t.Fatalf("edit after a rebuild: not patched: %+v", inc)
	}
	equalToFull(t, r.Dir, out)
	runtime.KeepAlive(held)
}

// TestPatchRealCode applies random edits to files of a slice of the Go
// source tree — new functions calling existing ones, removed and renamed
// functions, touched files, files added, deleted and renamed, a new
// package — and compares every patched graph with a full ingest.
func TestPatchRealCode(t *testing.T) {
	if testing.Short() {
		t.Skip("ingests a slice of the Go source tree several times")
	}
	forEachStore(t, func(t *testing.T, open func(string) *cache.Store) { testPatchRealCode(t, open) })
}

func testPatchRealCode(t *testing.T, open func(string) *cache.Store) {
	dir, files := goSourceSlice(t, "go/token", "go/scanner", "go/ast", "go/parser", "text/tabwriter")
	store := open(t.TempDir())
	run := func() *adapter.Output {
		t.Helper()
		return ingest(t, adapter.Request{Root: dir, Incremental: true, Cache: store})
	}
	held := []any{run().Graph}
	rng := rand.New(rand.NewPCG(7, 7))
	funcRe := regexp.MustCompile(`(?m)^func (\w+)\(`)
	at := time.Now().Add(time.Hour)
	for step := 0; step < 12; step++ {
		edited := map[string]string{}
		var removed []string
		for k := 1 + rng.IntN(3); k > 0; k-- {
			fi := rng.IntN(len(files))
			rel := files[fi]
			if _, done := edited[rel]; done || slices.Contains(removed, rel) {
				continue
			}
			data, err := os.ReadFile(filepath.Join(dir, rel))
			if err != nil {
				t.Fatal(err)
			}
			text := string(data)
			names := funcRe.FindAllStringSubmatch(text, -1)
			pkgDir, pkgName := path.Dir(rel), strings.Fields(regexp.MustCompile(`(?m)^package \w+`).FindString(text))[1]
			switch op := rng.IntN(7); {
			case op == 3 && len(names) > 0:
				// A new file in the package calling one of its functions.
				nf := fmt.Sprintf("%s/m1nd_new%d.go", pkgDir, step)
				edited[nf] = fmt.Sprintf("package %s\n\nfunc m1ndNew%d() { %s() }\n", pkgName, step, names[rng.IntN(len(names))][1])
				files = append(files, nf)
				continue
			case op == 4:
				// A file deleted: its callers lose their calls.
				removed = append(removed, rel)
				files = slices.Delete(files, fi, fi+1)
				continue
			case op == 5:
				// A file renamed within its package.
				nf := strings.TrimSuffix(rel, ".go") + "_moved.go"
				removed = append(removed, rel)
				edited[nf] = text
				files[fi] = nf
				continue
			case op == 6 && len(names) > 0:
				// A new package beside it, calling into it.
				nf := fmt.Sprintf("%s/m1ndsub%d/sub.go", pkgDir, step)
				edited[nf] = fmt.Sprintf("package m1ndsub%d\n\nimport %q\n\nfunc Sub() { %s.%s() }\n", step, pkgDir, pkgName, names[rng.IntN(len(names))][1])
				files = append(files, nf)
				continue
			}
			switch op := rng.IntN(3); {
			case op == 0 && len(names) > 0:
				// A new function calling an existing one.
				callee := names[rng.IntN(len(names))][1]
				text += fmt.Sprintf("\nfunc m1ndAdded%d() { %s() }\n", step, callee)
			case op == 1 && len(names) > 0:
				// A renamed function: its callers elsewhere lose the call.
				name := names[rng.IntN(len(names))][1]
				text = strings.Replace(text, "func "+name+"(", "func "+name+"Renamed(", 1)
			default:
				text += "\n// edited\n"
			}
			edited[rel] = text
		}
		for _, p := range removed {
			if err := os.Remove(filepath.Join(dir, p)); err != nil {
				t.Fatal(err)
			}
		}
		writeFiles(t, dir, edited)
		for p := range edited {
			touch(t, filepath.Join(dir, p), at)
		}
		at = at.Add(time.Minute)
		out := run()
		if inc := out.Stats.Incremental; !inc.Patched {
			t.Fatalf("step %d (%v, removed %v): not patched: %+v", step, slices.Sorted(mapKeys(edited)), removed, inc)
		}
		t.Logf("step %d: wrote %v, removed %v", step, slices.Sorted(mapKeys(edited)), removed)
		equalToFull(t, dir, out)
		held = append(held, out.Graph)
	}
	runtime.KeepAlive(held)
}

func mapKeys[K comparable, V any](m map[K]V) func(func(K) bool) {
	return func(yield func(K) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// TestPatchPackageDependencies edits imports across Python packages: the
// packages' depends_on edges appear and vanish with them.
func TestPatchPackageDependencies(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"pkga/__init__.py": "",
		"pkga/mod.py":      "def a():\n    return 1\n",
		"pkgb/__init__.py": "",
		"pkgb/util.py":     "def b():\n    return 2\n",
	})
	run := incrementalRunner(t, dir)
	run(context.Background())
	at := time.Now().Add(time.Hour)
	for _, s := range []struct {
		src  string
		want bool
	}{
		{"from pkgb.util import b\n\n\ndef a():\n    return b()\n", true},
		{"def a():\n    return 1\n", false},
	} {
		changeFiles(t, dir, map[string]string{"pkga/mod.py": s.src}, nil, at)
		at = at.Add(time.Minute)
		out := run(context.Background())
		if !out.Stats.Incremental.Patched {
			t.Fatalf("not patched: %+v", out.Stats.Incremental)
		}
		equalToFull(t, dir, out)
		d := graphdump.Of(out.Graph)
		if got := d.Has("package::python::pkga", RelDependsOn, "package::python::pkgb"); got != s.want {
			t.Fatalf("pkga depends_on pkgb = %v, want %v; edges %v", got, s.want, d.EdgeStrings())
		}
	}
}
