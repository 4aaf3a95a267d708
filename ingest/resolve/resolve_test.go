package resolve

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/ingest/extract"
	"github.com/m1nd-go/m1nd/ingest/workspace"
)

// file builds a Result from "Kind Path::Entity" node specs, e.g.
// "func run", "class Service", "func Service::run". Edges are added by the
// caller where a test needs them.
func file(path, lang string, defs ...string) *extract.Result {
	r := &extract.Result{Path: path, Language: lang}
	fid := extract.FileID(path)
	r.Nodes = append(r.Nodes, extract.Node{ID: fid, Label: path[strings.LastIndexByte(path, '/')+1:], Type: graph.File})
	for _, d := range defs {
		kind, ent, _ := strings.Cut(d, " ")
		typ := graph.Function
		switch kind {
		case "class":
			typ = graph.Class
		case "struct":
			typ = graph.Struct
		case "iface":
			typ = graph.Type
		case "const":
			typ = graph.Reference
		}
		segs := strings.Split(ent, "::")
		r.Nodes = append(r.Nodes, extract.Node{ID: fid + "::" + ent, Label: segs[len(segs)-1], Type: typ})
	}
	return r
}

func inherits(r *extract.Result, child, parent string) *extract.Result {
	r.Edges = append(r.Edges, extract.Edge{Source: extract.FileID(r.Path) + "::" + child, Target: extract.Ref(parent), Relation: extract.RelInherits})
	return r
}

type rcase struct {
	name   string
	from   string // file path
	srcEnt string // entity under the file ("" = the file)
	ref    string
	rel    string
	hint   extract.RefHint
	want   string // target ID ("" = unresolved)
	status Status
}

func run(t *testing.T, ix *Index, cases []rcase) {
	t.Helper()
	for _, c := range cases {
		src := Source{ID: extract.FileID(c.from), File: c.from}
		if c.srcEnt != "" {
			src.ID += "::" + c.srcEnt
		}
		rel := c.rel
		if rel == "" {
			rel = extract.RelCalls
		}
		got := ix.Resolve(src, c.ref, rel, c.hint)
		if got.Target != c.want || got.Status != c.status {
			t.Errorf("%s: Resolve(%s) = %q %v, want %q %v", c.name, c.ref, got.Target, got.Status, c.want, c.status)
		}
	}
}

func TestProximityAndHints(t *testing.T) {
	results := []*extract.Result{
		file("app/main.py", "python", "func main", "func helper"),
		file("app/util.py", "python", "func helper", "func parse", "class Cache", "func Cache::get"),
		file("app/__init__.py", "python"),
		file("app/json.py", "python", "func dumps"),
		file("stubs/__init__.py", "python"),
		file("stubs/mod.py", "python", "func f"),
		file("stubs/mod.pyi", "python", "func f"),
		file("stubs/user.py", "python", "func use"),
		file("stubs/user.pyi", "python", "func use"),
		file("lib/util.py", "python", "func helper", "func parse", "func only_here"),
		file("lib/__init__.py", "python", "func exported"),
		file("lib/sub/deep.py", "python", "func buried"),
		file("other/util.py", "python", "func parse"),
		inherits(file("models/base.py", "python", "class Base", "func Base::save", "class Child", "func Child::other", "class Extra", "func Extra::save"), "Child", "Base"),
		file("models/store.py", "python", "class Store", "func Store::save"),
		file("x/a.py", "python", "func dup"),
		file("y/b.py", "python", "func dup"),
		file("z/c.py", "python", "func caller"),
		file("os_shadow/os.py", "python", "func join"),
		// Ruby shares one namespace across files: proximity decides.
		file("r/app/main.rb", "ruby", "func main"),
		file("r/app/util.rb", "ruby", "func parse"),
		file("r/lib/util.rb", "ruby", "func parse", "func only_here"),
		file("r/other/util.rb", "ruby", "func parse"),
		file("r/x/a.rb", "ruby", "func dup"),
		file("r/y/b.rb", "ruby", "func dup"),
		file("r/z/c.rb", "ruby", "func caller"),
	}
	star := file("app/star.py", "python", "func main")
	star.Imports = []extract.Import{{Module: "lib.util", Names: []string{"*"}}, {Module: "x.a", Alias: "a", Names: []string{"*"}}}
	results = append(results, star)
	ix := New(results, nil)
	run(t, ix, []rcase{
		{name: "python stdlib json is not the package's json.py", from: "z/c.py", ref: "json", rel: extract.RelImports,
			hint: extract.RefHint{Module: "json"}, want: "", status: Unresolved},
		{name: "python stdlib json.dumps is not the package's", from: "z/c.py", srcEnt: "caller", ref: "dumps",
			hint: extract.RefHint{Module: "json", Receiver: "json"}, want: "", status: Unresolved},
		{name: "python absolute import of the package's json module", from: "z/c.py", ref: "dumps", rel: extract.RelImports,
			hint: extract.RefHint{Module: "app.json"}, want: "file::app/json.py::dumps", status: Resolved},
		{name: "a stub imports stubs", from: "stubs/user.pyi", ref: "f", rel: extract.RelImports,
			hint: extract.RefHint{Module: ".mod"}, want: "file::stubs/mod.pyi::f", status: Resolved},
		{name: "a module imports sources", from: "stubs/user.py", ref: "f", rel: extract.RelImports,
			hint: extract.RefHint{Module: ".mod"}, want: "file::stubs/mod.py::f", status: Resolved},
		{name: "a stub's module is the stub", from: "stubs/user.pyi", ref: "stubs.mod", rel: extract.RelImports,
			hint: extract.RefHint{Module: "stubs.mod"}, want: "file::stubs/mod.pyi", status: Resolved},
		{name: "python from-import binds the module itself", from: "lib/util.py", ref: "app", rel: extract.RelImports,
			hint: extract.RefHint{Module: "app"}, want: "file::app/__init__.py", status: Resolved},
		// Python has started running app/__init__.py before app/main.py.
		{name: "python from-import of the importer's own package binds nothing", from: "app/main.py", ref: ".", rel: extract.RelImports,
			hint: extract.RefHint{Module: "."}, want: "", status: Unresolved},
		{name: "python absolute import of the importer's own package binds nothing", from: "app/main.py", ref: "app", rel: extract.RelImports,
			hint: extract.RefHint{Module: "app"}, want: "", status: Unresolved},
		{name: "python from lib.util import: the module", from: "app/main.py", ref: "lib.util", rel: extract.RelImports,
			hint: extract.RefHint{Module: "lib.util"}, want: "file::lib/util.py", status: Resolved},
		{name: "same file wins", from: "app/main.py", srcEnt: "main", ref: "helper", want: "file::app/main.py::helper", status: Resolved},
		{name: "same directory beats project", from: "r/app/main.rb", srcEnt: "main", ref: "parse", want: "file::r/app/util.rb::parse", status: Resolved},
		{name: "project-wide unique", from: "r/app/main.rb", srcEnt: "main", ref: "only_here", want: "file::r/lib/util.rb::only_here", status: Resolved},
		{name: "tie is ambiguous, best guess deterministic", from: "r/z/c.rb", srcEnt: "caller", ref: "dup", want: "file::r/x/a.rb::dup", status: Ambiguous},
		{name: "qualified name falls back to its last part", from: "r/app/main.rb", ref: "util.only_here", want: "file::r/lib/util.rb::only_here", status: Resolved},
		{name: "never across languages", from: "r/app/main.rb", srcEnt: "main", ref: "helper", want: "", status: Unresolved},
		{name: "a Python plain name never binds another file", from: "app/main.py", srcEnt: "main", ref: "parse", want: "", status: Unresolved},
		{name: "a Python star import opens its module", from: "app/star.py", srcEnt: "main", ref: "parse", want: "file::lib/util.py::parse", status: Resolved},
		{name: "a namespace import is not a star import", from: "app/star.py", srcEnt: "main", ref: "dup", want: "", status: Unresolved},
		{name: "import hint beats proximity", from: "app/main.py", srcEnt: "main", ref: "parse",
			hint: extract.RefHint{Module: "lib.util"}, want: "file::lib/util.py::parse", status: Resolved},
		{name: "relative import", from: "app/main.py", srcEnt: "main", ref: "helper",
			hint: extract.RefHint{Module: ".util"}, want: "file::app/util.py::helper", status: Resolved},
		{name: "parent-relative import", from: "lib/sub/deep.py", ref: "only_here", rel: extract.RelImports,
			hint: extract.RefHint{Module: "..util"}, want: "file::lib/util.py::only_here", status: Resolved},
		{name: "package re-export", from: "app/main.py", ref: "buried",
			hint: extract.RefHint{Module: "lib"}, want: "file::lib/sub/deep.py::buried", status: Resolved},
		{name: "package __init__ symbol", from: "app/main.py", ref: "exported",
			hint: extract.RefHint{Module: "lib"}, want: "file::lib/__init__.py::exported", status: Resolved},
		{name: "import of a submodule binds the file", from: "app/main.py", ref: "util", rel: extract.RelImports,
			hint: extract.RefHint{Module: "lib"}, want: "file::lib/util.py", status: Resolved},
		{name: "import of a module binds the file", from: "app/main.py", ref: "util", rel: extract.RelImports,
			hint: extract.RefHint{Module: "lib.util"}, want: "file::lib/util.py", status: Resolved},
		{name: "external module never binds locally", from: "app/main.py", srcEnt: "main", ref: "helper",
			hint: extract.RefHint{Module: "requests"}, want: "", status: Unresolved},
		{name: "symbol missing from the named module", from: "app/main.py", srcEnt: "main", ref: "only_here",
			hint: extract.RefHint{Module: ".util"}, want: "", status: Unresolved},
		{name: "receiver type picks the method", from: "app/main.py", srcEnt: "main", ref: "save",
			hint: extract.RefHint{Receiver: "s", ReceiverType: "Store"}, want: "file::models/store.py::Store::save", status: Resolved},
		{name: "receiver type through inheritance", from: "app/main.py", srcEnt: "main", ref: "save",
			hint: extract.RefHint{Receiver: "c", ReceiverType: "Child"}, want: "file::models/base.py::Base::save", status: Resolved},
		{name: "receiver type without such method stays unresolved", from: "app/main.py", srcEnt: "main", ref: "save",
			hint: extract.RefHint{Receiver: "c", ReceiverType: "Cache"}, want: "", status: Unresolved},
		{name: "unknown receiver never binds a free function", from: "app/main.py", srcEnt: "main", ref: "helper",
			hint: extract.RefHint{Receiver: "obj"}, want: "", status: Unresolved},
		{name: "unknown receiver with several distant methods", from: "z/c.py", srcEnt: "caller", ref: "save",
			hint: extract.RefHint{Receiver: "obj"}, want: "", status: Unresolved},
		{name: "unknown receiver never binds another file's only method", from: "z/c.py", srcEnt: "caller", ref: "get",
			hint: extract.RefHint{Receiver: "obj"}, want: "", status: Unresolved},
		{name: "unknown receiver binds a method of the calling file", from: "app/util.py", srcEnt: "helper", ref: "get",
			hint: extract.RefHint{Receiver: "obj"}, want: "file::app/util.py::Cache::get", status: Resolved},
		{name: "unknown receiver with several classes of the file having the method", from: "models/base.py", srcEnt: "Child::other", ref: "save",
			hint: extract.RefHint{Receiver: "obj"}, want: "", status: Unresolved},
		{name: "receiver is a module imported from the hinted package", from: "app/main.py", srcEnt: "main", ref: "parse",
			hint: extract.RefHint{Module: "lib", Receiver: "util"}, want: "file::lib/util.py::parse", status: Resolved},
		{name: "constructor call receiver", from: "z/c.py", srcEnt: "caller", ref: "save",
			hint: extract.RefHint{Receiver: "Store()"}, want: "file::models/store.py::Store::save", status: Resolved},
		{name: "constructor call receiver through inheritance", from: "z/c.py", srcEnt: "caller", ref: "save",
			hint: extract.RefHint{Receiver: "Child()"}, want: "file::models/base.py::Base::save", status: Resolved},
		{name: "call receiver that is not a type", from: "z/c.py", srcEnt: "caller", ref: "save",
			hint: extract.RefHint{Receiver: "make()"}, want: "", status: Unresolved},
		{name: "inheritance binds types only", from: "models/base.py", srcEnt: "Child", ref: "main", rel: extract.RelInherits, want: "", status: Unresolved},
		{name: "no candidates", from: "app/main.py", ref: "nothing", want: "", status: Unresolved},
		{name: "unknown source file", from: "nope.py", ref: "helper", want: "", status: Unresolved},
	})
}

func TestGoImports(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/shop\n\ngo 1.22\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ws := workspace.Detect(dir, []string{"go.mod"})
	results := []*extract.Result{
		file("cmd/server/main.go", "go", "func main", "func NewServer"),
		file("store/db.go", "go", "struct DB", "func DB::Query", "func NewServer"),
		file("store/cache.go", "go", "struct Cache", "func Cache::Get"),
		file("web/cache.go", "go", "struct Cache", "func Cache::Get"),
		file("web/term_linux.go", "go", "func isTerm"),
		file("web/term_plan9.go", "go", "func isTerm"),
		file("web/term_other.go", "go", "func isTerm"),
		file("web/use.go", "go", "func use"),
		file("web/web_test.go", "go", "func TestUse"),
		file("testutil/util.go", "go", "func Check"),
		file("web/use_plan9.go", "go", "func usePlan9"),
		file("web/use_unix.go", "go", "func useUnix"),
	}
	results[6].BuildConstraint = "ignore" // term_other.go: never built
	results[11].BuildConstraint = "unix"
	results[8].Imports = []extract.Import{{Module: "example.com/shop/testutil", Alias: "."}}
	ix := New(results, ws)
	run(t, ix, []rcase{
		{name: "package import binds the directory", from: "cmd/server/main.go", ref: "store", rel: extract.RelImports,
			hint: extract.RefHint{Module: "example.com/shop/store"}, want: "dir::store", status: Resolved},
		{name: "stdlib import stays unresolved", from: "cmd/server/main.go", ref: "http", rel: extract.RelImports,
			hint: extract.RefHint{Module: "net/http"}, want: "", status: Unresolved},
		{name: "pkg.Func via import path beats same file", from: "cmd/server/main.go", srcEnt: "main", ref: "NewServer",
			hint: extract.RefHint{Module: "example.com/shop/store", Receiver: "store"}, want: "file::store/db.go::NewServer", status: Resolved},
		{name: "local call binds same file", from: "cmd/server/main.go", srcEnt: "main", ref: "NewServer", want: "file::cmd/server/main.go::NewServer", status: Resolved},
		{name: "method of an imported type", from: "cmd/server/main.go", srcEnt: "main", ref: "Get",
			hint: extract.RefHint{Module: "example.com/shop/web", Receiver: "c", ReceiverType: "Cache"}, want: "file::web/cache.go::Cache::Get", status: Resolved},
		{name: "third-party module never binds locally", from: "cmd/server/main.go", srcEnt: "main", ref: "Query",
			hint: extract.RefHint{Module: "github.com/other/db", Receiver: "db", ReceiverType: "DB"}, want: "", status: Unresolved},
		{name: "a dot import's names are in scope", from: "web/web_test.go", srcEnt: "TestUse", ref: "Check", want: "file::testutil/util.go::Check", status: Resolved},
		{name: "without the dot import they are not", from: "web/use.go", srcEnt: "use", ref: "Check", want: "", status: Unresolved},
	})
	// isTerm has one declaration per platform: the one this platform
	// builds wins (plan9 and "ignore" are never the host here).
	got := ix.Resolve(Source{ID: "file::web/use.go::use", File: "web/use.go"}, "isTerm", extract.RelCalls, extract.RefHint{})
	if runtime.GOOS == "linux" && (got.Target != "file::web/term_linux.go::isTerm" || !slices.Equal(got.Also, []string{"file::web/term_plan9.go::isTerm"})) {
		t.Errorf("isTerm on linux bound %q, also %q (want plan9's, never the file no platform builds)", got.Target, got.Also)
	}
	if got.Target == "file::web/term_plan9.go::isTerm" || got.Target == "file::web/term_other.go::isTerm" {
		t.Errorf("isTerm bound to a file this platform does not build: %q", got.Target)
	}
	// A file built only on plan9 means plan9's, wherever this runs; a unix
	// file cannot mean plan9's.
	if got := ix.Resolve(Source{ID: "file::web/use_plan9.go::usePlan9", File: "web/use_plan9.go"}, "isTerm", extract.RelCalls, extract.RefHint{}); got.Target != "file::web/term_plan9.go::isTerm" {
		t.Errorf("isTerm from a plan9 file bound %q", got.Target)
	}
	if got := ix.Resolve(Source{ID: "file::web/use_unix.go::useUnix", File: "web/use_unix.go"}, "isTerm", extract.RelCalls, extract.RefHint{}); got.Target != "file::web/term_linux.go::isTerm" {
		t.Errorf("isTerm from a unix file bound %q", got.Target)
	}
}

func TestStdModuleImports(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module std\n"), 0o644)
	ws := workspace.Detect(dir, []string{"go.mod"})
	ix := New([]*extract.Result{
		file("fmt/print.go", "go", "func Errorf", "struct fmt"),
		file("log/log.go", "go", "func Fatal", "struct Logger", "func Logger::Fatal"),
		file("os/helper.go", "go", "func helper", "func Local::only"),
		file("io/helper.go", "go", "func elsewhere"),
		file("errors/errors.go", "go", "func New"),
		file("os/file.go", "go", "func Open"),
	}, ws)
	run(t, ix, []rcase{
		{name: "std import path is a directory of the std module", from: "os/file.go", srcEnt: "Open", ref: "Errorf",
			hint: extract.RefHint{Module: "fmt", Receiver: "fmt"}, want: "file::fmt/print.go::Errorf", status: Resolved},
		{name: "std package import", from: "os/file.go", ref: "errors", rel: extract.RelImports,
			hint: extract.RefHint{Module: "errors"}, want: "dir::errors", status: Resolved},
		{name: "a Go import binds the package even when a type is named like it", from: "os/file.go", ref: "fmt", rel: extract.RelImports,
			hint: extract.RefHint{Module: "fmt"}, want: "dir::fmt", status: Resolved},
		{name: "pkg.Func prefers the function over a same-named method", from: "os/file.go", srcEnt: "Open", ref: "Fatal",
			hint: extract.RefHint{Module: "log", Receiver: "log"}, want: "file::log/log.go::Fatal", status: Resolved},
		{name: "an unqualified Go name stays in its package", from: "os/file.go", srcEnt: "Open", ref: "helper", want: "file::os/helper.go::helper", status: Resolved},
		{name: "an unqualified Go name never binds another package", from: "os/file.go", srcEnt: "Open", ref: "elsewhere", want: "", status: Unresolved},
		{name: "a bare Go call never binds a method", from: "os/file.go", srcEnt: "Open", ref: "only", want: "", status: Unresolved},
		{name: "vendored (skipped) module is external", from: "os/file.go", ref: "x", rel: extract.RelImports,
			hint: extract.RefHint{Module: "golang.org/x/net/http2"}, want: "", status: Unresolved},
	})
}

func TestJSJavaRust(t *testing.T) {
	dir := t.TempDir()
	write := func(p, c string) {
		os.MkdirAll(filepath.Dir(filepath.Join(dir, p)), 0o755)
		os.WriteFile(filepath.Join(dir, p), []byte(c), 0o644)
	}
	write("packages/ui/package.json", `{"name": "@acme/ui"}`)
	write("crates/core/Cargo.toml", "[package]\nname = \"acme-core\"\n")
	write("crates/app/Cargo.toml", "[package]\nname = \"app\"\n[dependencies]\nacme-core = { path = \"../core\" }\n")
	ws := workspace.Detect(dir, []string{"packages/ui/package.json", "crates/core/Cargo.toml", "crates/app/Cargo.toml"})
	ix := New([]*extract.Result{
		file("web/src/app.ts", "typescript", "func main"),
		file("web/src/repo.ts", "typescript", "class Repo", "func Repo::find"),
		file("web/src/lib/index.ts", "typescript", "func helper"),
		file("web/src/other.js", "javascript", "func helper"),
		file("packages/ui/src/index.ts", "typescript", "func Button"),
		file("src/main/java/com/acme/repo/OrderRepository.java", "java", "class OrderRepository", "func OrderRepository::findById"),
		file("src/main/java/com/acme/util/Checks.java", "java", "class Checks", "func Checks::requireNonNull"),
		file("src/main/java/com/acme/app/App.java", "java", "class App", "func App::requireNonNull"),
		file("src/main/java/com/acme/app/Helper.java", "java", "class Helper"),
		file("crates/core/src/lib.rs", "rust", "struct Engine"),
		file("crates/core/src/backend/mod.rs", "rust", "struct Memory"),
		file("crates/core/src/backend/disk.rs", "rust", "struct Disk"),
		file("crates/app/src/main.rs", "rust", "func main", "struct Memory"),
	}, ws)
	run(t, ix, []rcase{
		{name: "js relative import with extension probing", from: "web/src/app.ts", srcEnt: "main", ref: "Repo",
			hint: extract.RefHint{Module: "./repo"}, want: "file::web/src/repo.ts::Repo", status: Resolved},
		{name: "js directory index", from: "web/src/app.ts", srcEnt: "main", ref: "helper",
			hint: extract.RefHint{Module: "./lib"}, want: "file::web/src/lib/index.ts::helper", status: Resolved},
		{name: "js .js specifier of a .ts file", from: "web/src/app.ts", srcEnt: "main", ref: "find",
			hint: extract.RefHint{Module: "./repo.js", Receiver: "r", ReceiverType: "Repo"}, want: "file::web/src/repo.ts::Repo::find", status: Resolved},
		{name: "js workspace package", from: "web/src/app.ts", srcEnt: "main", ref: "Button",
			hint: extract.RefHint{Module: "@acme/ui"}, want: "file::packages/ui/src/index.ts::Button", status: Resolved},
		{name: "js node_modules package is external", from: "web/src/app.ts", srcEnt: "main", ref: "helper",
			hint: extract.RefHint{Module: "lodash"}, want: "", status: Unresolved},
		{name: "java class import", from: "src/main/java/com/acme/app/App.java", srcEnt: "App", ref: "requireNonNull",
			hint: extract.RefHint{Module: "com.acme.util.Checks"}, want: "file::src/main/java/com/acme/util/Checks.java::Checks::requireNonNull", status: Resolved},
		{name: "java package import", from: "src/main/java/com/acme/app/App.java", srcEnt: "App", ref: "findById",
			hint: extract.RefHint{Module: "com.acme.repo", Receiver: "repo", ReceiverType: "OrderRepository"}, want: "file::src/main/java/com/acme/repo/OrderRepository.java::OrderRepository::findById", status: Resolved},
		{name: "java plain name in the same package", from: "src/main/java/com/acme/app/App.java", srcEnt: "App", ref: "Helper", want: "file::src/main/java/com/acme/app/Helper.java::Helper", status: Resolved},
		{name: "java plain name never binds another package", from: "src/main/java/com/acme/app/App.java", srcEnt: "App", ref: "OrderRepository", want: "", status: Unresolved},
		{name: "java jdk import is external", from: "src/main/java/com/acme/app/App.java", ref: "List", rel: extract.RelImports,
			hint: extract.RefHint{Module: "java.util"}, want: "", status: Unresolved},
		{name: "rust crate path beats same file", from: "crates/app/src/main.rs", srcEnt: "main", ref: "Memory",
			hint: extract.RefHint{Module: "acme_core::backend"}, want: "file::crates/core/src/backend/mod.rs::Memory", status: Resolved},
		{name: "rust crate:: path", from: "crates/core/src/lib.rs", ref: "Disk", rel: extract.RelImports,
			hint: extract.RefHint{Module: "crate::backend::disk"}, want: "file::crates/core/src/backend/disk.rs::Disk", status: Resolved},
		{name: "rust self:: module", from: "crates/core/src/backend/mod.rs", ref: "Disk", rel: extract.RelImports,
			hint: extract.RefHint{Module: "self::disk"}, want: "file::crates/core/src/backend/disk.rs::Disk", status: Resolved},
		{name: "rust std is external", from: "crates/app/src/main.rs", ref: "HashMap", rel: extract.RelImports,
			hint: extract.RefHint{Module: "std::collections"}, want: "", status: Unresolved},
	})
}

// TestJSPackageEntries: a workspace package's package.json decides what
// "pkg" and "pkg/sub" name — exports conditions pointing at sources, a
// "main" naming the build mapped back to src/, and the module itself.
func TestJSPackageEntries(t *testing.T) {
	dir := t.TempDir()
	write := func(p, c string) {
		os.MkdirAll(filepath.Dir(filepath.Join(dir, p)), 0o755)
		os.WriteFile(filepath.Join(dir, p), []byte(c), 0o644)
	}
	write("packages/core/package.json", `{"name": "core", "exports": {".": {"@core/source": "./src/main.ts", "import": "./dist/main.js"},
		"./v2": {"types": "./v2/index.d.ts", "import": "./v2/index.js"}, "./*": "./src/*.ts"}}`)
	write("packages/util/package.json", `{"name": "util", "main": "lib/entry.js"}`)
	ws := workspace.Detect(dir, []string{"packages/core/package.json", "packages/util/package.json"})
	ix := New([]*extract.Result{
		file("app/app.ts", "typescript", "func main"),
		file("packages/core/src/main.ts", "typescript", "func parse"),
		file("packages/core/src/index.ts", "typescript", "func parse"),
		file("packages/core/src/v2/index.ts", "typescript", "func parse"),
		file("packages/core/src/v2/impl/deep.ts", "typescript", "func deep"),
		file("packages/util/src/entry.ts", "typescript", "func pad"),
	}, ws)
	run(t, ix, []rcase{
		{name: "exports source condition", from: "app/app.ts", srcEnt: "main", ref: "parse",
			hint: extract.RefHint{Module: "core"}, want: "file::packages/core/src/main.ts::parse", status: Resolved},
		{name: "exports subpath", from: "app/app.ts", srcEnt: "main", ref: "parse",
			hint: extract.RefHint{Module: "core/v2"}, want: "file::packages/core/src/v2/index.ts::parse", status: Resolved},
		{name: "main in lib/ mapped to src/", from: "app/app.ts", srcEnt: "main", ref: "pad",
			hint: extract.RefHint{Module: "util"}, want: "file::packages/util/src/entry.ts::pad", status: Resolved},
		{name: "the module itself", from: "app/app.ts", ref: "core", rel: extract.RelImports,
			hint: extract.RefHint{Module: "core"}, want: "file::packages/core/src/main.ts", status: Resolved},
		{name: "a subpath the package lacks is not the package", from: "app/app.ts", ref: "core/nope", rel: extract.RelImports,
			hint: extract.RefHint{Module: "core/nope"}, want: "", status: Unresolved},
		{name: "a name re-exported below a subpath entry", from: "app/app.ts", srcEnt: "main", ref: "deep",
			hint: extract.RefHint{Module: "core/v2"}, want: "file::packages/core/src/v2/impl/deep.ts::deep", status: Resolved},
	})
}

func TestSharedDepth(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{{"", "a", 0}, {"a", "a", 1}, {"a/b", "a/c", 1}, {"a/b/c", "a/b/c", 3}, {"ab", "a", 0}} {
		if got := sharedDepth(c.a, c.b); got != c.want {
			t.Errorf("sharedDepth(%q,%q)=%d want %d", c.a, c.b, got, c.want)
		}
	}
}

// TestJSReexportLimits: re-export chains that loop, leave the repository or
// name an unnamed default export end unbound, never at a same-named
// entity elsewhere.
func TestJSReexportLimits(t *testing.T) {
	reexp := func(r *extract.Result, res ...extract.Reexport) *extract.Result {
		r.Reexports = res
		return r
	}
	ix := New([]*extract.Result{
		file("src/app.ts", "typescript", "func main"),
		reexp(file("src/lib/index.ts", "typescript"), extract.Reexport{Name: "loop", Module: "./b", Target: "loop"},
			extract.Reexport{Name: "ext", Module: "lodash", Target: "map"},
			extract.Reexport{Name: "dflt", Module: "./c", Target: "default"}),
		reexp(file("src/lib/b.ts", "typescript"), extract.Reexport{Name: "loop", Module: "./index", Target: "loop"}),
		file("src/lib/c.ts", "typescript", "func unnamed"),
		file("src/lib/other.ts", "typescript", "func loop", "func ext", "func dflt"),
	}, nil)
	call := func(name, ref string) rcase {
		return rcase{name: name, from: "src/app.ts", srcEnt: "main", ref: ref, rel: extract.RelCalls,
			hint: extract.RefHint{Module: "./lib"}}
	}
	cases := []rcase{call("a cycle", "loop"), call("an external module", "ext"), call("an unnamed default", "dflt")}
	for i := range cases {
		cases[i].status = Unresolved
	}
	run(t, ix, cases)
}

// TestJSStarBarrel: a barrel file of any name (immer's src/internal.ts,
// imported as "../internal") reaches definitions through its `export *
// from` chains, barrels of barrels included; a name no chain reaches stays
// unbound.
func TestJSStarBarrel(t *testing.T) {
	stars := func(r *extract.Result, mods ...string) *extract.Result {
		for _, m := range mods {
			r.Imports = append(r.Imports, extract.Import{Module: m, Names: []string{"*"}})
		}
		return r
	}
	ix := New([]*extract.Result{
		stars(file("src/internal.ts", "typescript"), "./core/scope", "./more"),
		stars(file("src/more.ts", "typescript"), "./core/proxy"),
		file("src/core/scope.ts", "typescript", "func getCurrentScope"),
		file("src/core/proxy.ts", "typescript", "func createProxy"),
		file("src/core/other.ts", "typescript", "func unlisted"),
		file("src/core/user.ts", "typescript", "func use"),
	}, nil)
	call := func(name, ref, want string) rcase {
		st := Resolved
		if want == "" {
			st = Unresolved
		}
		return rcase{name: name, from: "src/core/user.ts", srcEnt: "use", ref: ref, rel: extract.RelCalls,
			hint: extract.RefHint{Module: "../internal"}, want: want, status: st}
	}
	run(t, ix, []rcase{
		call("one star", "getCurrentScope", "file::src/core/scope.ts::getCurrentScope"),
		call("a star of a star", "createProxy", "file::src/core/proxy.ts::createProxy"),
		call("not exported by the barrel", "unlisted", ""),
	})
}
