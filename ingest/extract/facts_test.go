package extract

import (
	"os"
	"slices"
	"strings"
	"testing"
)

// The golden files pin everything; these tests state by hand the facts the
// extraction exists for, so a regenerated golden cannot silently lose them.

func extractFixture(t *testing.T, rel string) *Result {
	t.Helper()
	src, err := os.ReadFile("testdata/" + rel)
	if err != nil {
		t.Fatal(err)
	}
	r, err := ExtractFile(rel, src)
	if err != nil {
		t.Fatalf("ExtractFile(%s): %v", rel, err)
	}
	checkInvariants(t, r)
	return r
}

func findNode(r *Result, id string) *Node {
	for i := range r.Nodes {
		if r.Nodes[i].ID == id {
			return &r.Nodes[i]
		}
	}
	return nil
}

// wantNode asserts a node with its type, first line and tags.
func wantNode(t *testing.T, r *Result, id, typ string, line uint32, tags ...string) {
	t.Helper()
	n := findNode(r, id)
	if n == nil {
		t.Errorf("missing node %s", id)
		return
	}
	if n.Type.String() != typ {
		t.Errorf("%s: type %s, want %s", id, n.Type, typ)
	}
	if line != 0 && n.Line != line {
		t.Errorf("%s: line %d, want %d", id, n.Line, line)
	}
	for _, tg := range tags {
		if !slices.Contains(n.Tags, tg) {
			t.Errorf("%s: tags %v lack %q", id, n.Tags, tg)
		}
	}
}

// wantEdge asserts an edge; an empty hint field is not checked, "-" means
// it must be empty.
func wantEdge(t *testing.T, r *Result, src, rel, dst string, line uint32, h RefHint) {
	t.Helper()
	match := func(want, got string) bool { return want == "" || (want == "-" && got == "") || want == got }
	for _, e := range r.Edges {
		if e.Source == src && e.Relation == rel && e.Target == dst &&
			(line == 0 || e.Line == line) &&
			match(h.Module, e.Hint.Module) && match(h.Receiver, e.Hint.Receiver) && match(h.ReceiverType, e.Hint.ReceiverType) {
			return
		}
	}
	var near []string
	for _, e := range r.Edges {
		if e.Source == src && e.Target == dst {
			near = append(near, e.Relation+" "+hintString(e.Hint))
		}
	}
	t.Errorf("missing edge %s -%s-> %s (line %d, hint %+v); same endpoints: %v", src, rel, dst, line, h, near)
}

func noEdge(t *testing.T, r *Result, src, rel, dst string) {
	t.Helper()
	for _, e := range r.Edges {
		if e.Source == src && e.Relation == rel && e.Target == dst {
			t.Errorf("unexpected edge %s -%s-> %s", src, rel, dst)
		}
	}
}

func wantImport(t *testing.T, r *Result, module, alias string, names ...string) {
	t.Helper()
	for _, im := range r.Imports {
		if im.Module == module && im.Alias == alias && slices.Equal(im.Names, names) {
			return
		}
	}
	t.Errorf("missing import %s as %q names %v in %+v", module, alias, names, r.Imports)
}

func TestFactsPython(t *testing.T) {
	r := extractFixture(t, "python/service.py")
	f := "file::python/service.py"
	if r.Language != "python" || r.ParseErrors != 0 {
		t.Fatalf("language %q errors %d", r.Language, r.ParseErrors)
	}
	wantNode(t, r, f, "File", 1, "python")
	wantNode(t, r, f+"::Service", "Class", 20, "class", "public")
	wantNode(t, r, f+"::Service::run", "Function", 35, "method", "async")
	wantNode(t, r, f+"::Service::run::inner", "Function", 45, "function")
	wantNode(t, r, f+"::Service::name", "Function", 31, "property")
	wantNode(t, r, f+"::Service::_notify", "Function", 0, "private", "staticmethod")
	wantNode(t, r, f+"::TestService", "Class", 0, "test")
	wantNode(t, r, f+"::TestService::test_run", "Function", 0, "test")
	wantNode(t, r, f+"::test_module_level", "Function", 0, "test")
	wantNode(t, r, f+"::MAX_RETRIES", "Reference", 9, "constant")
	wantNode(t, r, f+"::retry", "Function", 13, "decorator")
	wantEdge(t, r, f, "contains", f+"::Service", 20, RefHint{})
	wantEdge(t, r, f+"::Service", "contains", f+"::Service::run", 35, RefHint{})
	wantEdge(t, r, f+"::Service", "inherits", "ref::BaseService", 20, RefHint{})
	noEdge(t, r, f+"::Service", "inherits", "ref::ABCMeta")
	wantEdge(t, r, f+"::Service", "decorated_by", "ref::dataclass", 19, RefHint{})
	wantEdge(t, r, f+"::Service::run", "decorated_by", "ref::retry", 34, RefHint{})
	// Imports: records, edges with module hints, aliases resolved to the
	// imported name.
	wantImport(t, r, "numpy", "np")
	wantImport(t, r, ".models", "", "User", "Account")
	wantImport(t, r, ".events", "", "*")
	wantEdge(t, r, f, "imports", "ref::Account", 4, RefHint{Module: ".models"})
	wantEdge(t, r, f+"::Service::run", "calls", "ref::Account", 36, RefHint{Module: ".models"})
	// Receivers: local constructed var, self, self.attr typed in __init__,
	// typed parameter stored in self, module aliases, super().
	wantEdge(t, r, f+"::Service::run", "calls", "ref::save", 37, RefHint{Receiver: "acc", ReceiverType: "Account"})
	wantEdge(t, r, f+"::Service::run", "calls", "ref::_notify", 39, RefHint{Receiver: "self", ReceiverType: "Service"})
	wantEdge(t, r, f+"::Service::run", "calls", "ref::get", 38, RefHint{Receiver: "self.cache", ReceiverType: "Cache"})
	wantEdge(t, r, f+"::Service::name", "calls", "ref::query", 32, RefHint{Receiver: "self.db", ReceiverType: "Database"})
	wantEdge(t, r, f+"::Service::run", "calls", "ref::norm", 40, RefHint{Module: "numpy.linalg", Receiver: "np.linalg"})
	wantEdge(t, r, f+"::Service::run", "calls", "ref::join", 41, RefHint{Module: "os.path"})
	wantEdge(t, r, f+"::Service::run", "calls", "ref::clean", 42, RefHint{Module: "..util"})
	wantEdge(t, r, f+"::Service::run", "calls", "ref::run", 43, RefHint{Receiver: "super()", ReceiverType: "BaseService"})
	wantEdge(t, r, f+"::Service::run::inner", "calls", "ref::compute", 46, RefHint{})
	wantEdge(t, r, f+"::TestService::test_run", "calls", "ref::run", 0, RefHint{Receiver: "self.svc", ReceiverType: "Service"})
	wantEdge(t, r, f+"::test_module_level", "calls", "ref::Service", 0, RefHint{})
	// Type references from annotations (quoted forward refs too).
	wantEdge(t, r, f+"::Service::__init__", "references", "ref::Database", 25, RefHint{})
	wantEdge(t, r, f+"::Service::run", "references", "ref::Result", 35, RefHint{})
	wantEdge(t, r, f+"::Service::run", "references", "ref::User", 35, RefHint{Module: ".models"})
	// Builtins never become refs.
	noEdge(t, r, f+"::Service::run", "calls", "ref::super")
	noEdge(t, r, f+"::Service::name", "decorated_by", "ref::property")
}

func TestFactsPythonRecovers(t *testing.T) {
	r := extractFixture(t, "python/broken.py")
	if r.ParseErrors == 0 {
		t.Errorf("broken.py: no parse errors counted")
	}
	wantNode(t, r, "file::python/broken.py::ok", "Function", 1)
	wantEdge(t, r, "file::python/broken.py::ok", "calls", "ref::helper", 2, RefHint{})
}

func TestFactsGo(t *testing.T) {
	r := extractFixture(t, "go/server.go")
	f := "file::go/server.go"
	if r.Package != "server" {
		t.Errorf("package %q", r.Package)
	}
	wantNode(t, r, f+"::Server", "Struct", 24, "struct", "exported")
	wantNode(t, r, f+"::Handler", "Type", 32, "interface")
	wantNode(t, r, f+"::Handler::Handle", "Function", 35, "method", "abstract")
	wantNode(t, r, f+"::Server::Run", "Function", 48, "method", "exported")
	wantNode(t, r, f+"::Server::helper", "Function", 67, "private")
	wantNode(t, r, f+"::Remote::Ping", "Function", 71, "method")
	wantNode(t, r, f+"::MaxConns", "Reference", 16, "constant")
	wantNode(t, r, f+"::ID", "Type", 38, "type_alias")
	// Methods nest under a local receiver type; a foreign one is contained
	// by the file and linked by member_of.
	wantEdge(t, r, f+"::Server", "contains", f+"::Server::Run", 48, RefHint{})
	wantEdge(t, r, f, "contains", f+"::Remote::Ping", 71, RefHint{})
	wantEdge(t, r, f+"::Remote::Ping", "member_of", "ref::Remote", 71, RefHint{})
	wantImport(t, r, "strings", "str")
	wantImport(t, r, "gopkg.in/yaml.v3", "yaml")
	wantEdge(t, r, f, "imports", "ref::store", 11, RefHint{Module: "github.com/acme/store/v2"})
	run := f + "::Server::Run"
	wantEdge(t, r, run, "calls", "ref::helper", 61, RefHint{Receiver: "s", ReceiverType: "Server"})
	wantEdge(t, r, run, "calls", "ref::Query", 50, RefHint{Receiver: "s.db", ReceiverType: "DB", Module: "github.com/acme/store/v2"})
	wantEdge(t, r, run, "calls", "ref::Get", 60, RefHint{Receiver: "s.cache", ReceiverType: "Cache"})
	wantEdge(t, r, run, "calls", "ref::Errorf", 52, RefHint{Module: "fmt", Receiver: "fmt"})
	wantEdge(t, r, run, "calls", "ref::ToUpper", 57, RefHint{Module: "strings", Receiver: "str"})
	// c := NewClient(): Client is declared in another file, so the
	// resolver types c from NewClient's declared result.
	wantEdge(t, r, run, "calls", "ref::Do", 55, RefHint{Receiver: "@|NewClient()"})
	wantEdge(t, r, run, "calls", "ref::Write", 57, RefHint{Receiver: "resp", ReceiverType: "Response"})
	wantEdge(t, r, run, "calls", "ref::String", 59, RefHint{Receiver: "st", ReceiverType: "Status"})
	wantEdge(t, r, run, "calls", "ref::Route", 49, RefHint{Receiver: "h", ReceiverType: "Handler"})
	wantEdge(t, r, run, "calls", "ref::drain", 63, RefHint{})
	wantEdge(t, r, f+"::Server", "inherits", "ref::Base", 25, RefHint{})
	wantEdge(t, r, f+"::Handler", "inherits", "ref::Handler", 33, RefHint{Module: "net/http"})
	wantEdge(t, r, f+"::Server", "references", "ref::DB", 26, RefHint{Module: "github.com/acme/store/v2"})
	wantEdge(t, r, run, "references", "ref::Context", 48, RefHint{Module: "context"})
	noEdge(t, r, f+"::Status::String", "calls", "ref::int")

	tr := extractFixture(t, "go/server_test.go")
	ft := "file::go/server_test.go"
	wantNode(t, tr, ft, "File", 1, "test")
	wantNode(t, tr, ft+"::TestRun", "Function", 5, "test")
	wantNode(t, tr, ft+"::BenchmarkRun", "Function", 12, "test")
	if n := findNode(tr, ft+"::Testable"); n == nil || slices.Contains(n.Tags, "test") {
		t.Errorf("Testable must be a non-test function: %+v", n)
	}
	if n := findNode(tr, ft+"::helperBench"); n == nil || slices.Contains(n.Tags, "test") {
		t.Errorf("helperBench must be a non-test function: %+v", n)
	}
	wantEdge(t, tr, ft+"::TestRun", "calls", "ref::Run", 7, RefHint{Receiver: "@|NewServer()"})
}

func TestFactsTypeScript(t *testing.T) {
	r := extractFixture(t, "typescript/user-service.ts")
	f := "file::typescript/user-service.ts"
	svc := f + "::UserService"
	wantNode(t, r, svc, "Class", 33, "class", "exported")
	wantNode(t, r, svc+"::get", "Function", 43, "method", "async", "public")
	wantNode(t, r, svc+"::validate", "Function", 55, "method", "protected")
	wantNode(t, r, svc+"::close", "Function", 59, "abstract")
	wantNode(t, r, f+"::Store", "Type", 13, "interface", "exported")
	wantNode(t, r, f+"::Store::get", "Function", 14, "method")
	wantNode(t, r, f+"::UserId", "Type", 19, "type_alias")
	wantNode(t, r, f+"::Role", "Enum", 21)
	wantNode(t, r, f+"::Internal", "Module", 26, "module")
	wantNode(t, r, f+"::Internal::secret", "Function", 27)
	wantNode(t, r, f+"::createService", "Function", 62, "exported")
	wantEdge(t, r, svc, "inherits", "ref::BaseService", 33, RefHint{})
	wantEdge(t, r, svc, "implements", "ref::Store", 33, RefHint{})
	wantEdge(t, r, svc, "implements", "ref::Disposable", 33, RefHint{})
	wantEdge(t, r, svc, "decorated_by", "ref::Injectable", 32, RefHint{Module: "@nestjs/common"})
	wantEdge(t, r, f+"::Store", "inherits", "ref::Emitter", 13, RefHint{ReceiverType: "-"})
	wantImport(t, r, "./repo", "Repo", "Query")
	wantImport(t, r, "./types", "", "*")
	wantEdge(t, r, f, "imports", "ref::Query", 4, RefHint{Module: "./repo"})
	get := svc + "::get"
	wantEdge(t, r, get, "calls", "ref::Query", 44, RefHint{Module: "./repo"})
	wantEdge(t, r, get, "calls", "ref::limit", 45, RefHint{Receiver: "q", ReceiverType: "Q"})
	wantEdge(t, r, get, "calls", "ref::lookup", 46, RefHint{Receiver: "this.cache", ReceiverType: "Cache"})
	wantEdge(t, r, get, "calls", "ref::find", 47, RefHint{Receiver: "this.repo", ReceiverType: "Repo"})
	wantEdge(t, r, get, "calls", "ref::info", 48, RefHint{Receiver: "this.logger", ReceiverType: "Logger"})
	wantEdge(t, r, get, "calls", "ref::validate", 49, RefHint{Receiver: "this", ReceiverType: "UserService"})
	wantEdge(t, r, get, "calls", "ref::join", 50, RefHint{Module: "path"})
	wantEdge(t, r, get, "calls", "ref::get", 52, RefHint{Receiver: "super", ReceiverType: "BaseService"})
	wantEdge(t, r, f+"::createService", "calls", "ref::get", 64, RefHint{Receiver: "svc", ReceiverType: "UserService"})
	wantEdge(t, r, svc+"::constructor", "references", "ref::Repo", 38, RefHint{Module: "./repo"})

	w := extractFixture(t, "typescript/widget.test.tsx")
	fw := "file::typescript/widget.test.tsx"
	wantNode(t, w, fw, "File", 1, "test")
	wantNode(t, w, fw+"::Widget", "Function", 5, "test")
	wantNode(t, w, fw+"::Widget::renders the title", "Function", 8, "test")
	wantNode(t, w, fw+"::Widget::skipped case", "Function", 13, "test")
	wantEdge(t, w, fw+"::Widget::renders the title", "calls", "ref::render", 9, RefHint{Module: "@testing-library/react"})
	wantEdge(t, w, fw+"::Widget::renders the title", "calls", "ref::Widget", 9, RefHint{Module: "./widget"})
	wantEdge(t, w, fw+"::Panel", "calls", "ref::Item", 22, RefHint{})
}

func TestFactsJavaScript(t *testing.T) {
	r := extractFixture(t, "javascript/app.js")
	f := "file::javascript/app.js"
	wantNode(t, r, f, "File", 1)
	if r.Nodes[0].Excerpt != "Express application entry point." {
		t.Errorf("file excerpt %q", r.Nodes[0].Excerpt)
	}
	wantNode(t, r, f+"::Server", "Class", 10)
	wantNode(t, r, f+"::Server::create", "Function", 24, "static")
	wantNode(t, r, f+"::main", "Function", 29)
	wantNode(t, r, f+"::handler", "Function", 36, "async")
	wantNode(t, r, f+"::helper", "Function", 41, "exported")
	wantImport(t, r, "path", "", "join", "resolve")
	wantImport(t, r, "./lazy.mjs", "")
	wantEdge(t, r, f+"::Server", "inherits", "ref::EventEmitter", 10, RefHint{})
	wantEdge(t, r, f+"::Server::constructor", "calls", "ref::Pool", 14, RefHint{Module: "./db"})
	wantEdge(t, r, f+"::Server::start", "calls", "ref::connect", 19, RefHint{Receiver: "this.pool", ReceiverType: "Pool"})
	wantEdge(t, r, f+"::Server::start", "calls", "ref::emit", 20, RefHint{ReceiverType: "Server"})
	wantEdge(t, r, f+"::main", "calls", "ref::resolve", 32, RefHint{Module: "path"})
	wantEdge(t, r, f+"::handler", "calls", "ref::query", 37, RefHint{Module: "./db"})
}

func TestFactsRust(t *testing.T) {
	r := extractFixture(t, "rust/store.rs")
	f := "file::rust/store.rs"
	wantNode(t, r, f+"::Store", "Struct", 14, "public")
	wantNode(t, r, f+"::Entry", "Enum", 20, "internal")
	wantNode(t, r, f+"::Backend", "Type", 25, "trait")
	wantNode(t, r, f+"::Backend::get", "Function", 27, "abstract")
	wantNode(t, r, f+"::Store::new", "Function", 36, "method", "public")
	wantNode(t, r, f+"::Store::get", "Function", 41, "async")
	wantNode(t, r, f+"::Store::fmt", "Function", 58, "public")
	wantNode(t, r, f+"::Remote::drop", "Function", 64)
	wantNode(t, r, f+"::tests", "Module", 72, "test")
	wantNode(t, r, f+"::tests::stores_values", "Function", 76, "test")
	wantNode(t, r, f+"::tests::async_case", "Function", 82, "test")
	wantNode(t, r, f+"::my_macro", "Function", 67, "macro")
	wantEdge(t, r, f+"::Store", "contains", f+"::Store::new", 36, RefHint{})
	wantEdge(t, r, f, "contains", f+"::Remote::drop", 64, RefHint{})
	wantEdge(t, r, f+"::Remote::drop", "member_of", "ref::Remote", 64, RefHint{})
	wantEdge(t, r, f+"::Store", "implements", "ref::Debug", 13, RefHint{})
	wantEdge(t, r, f+"::Store", "implements", "ref::Display", 57, RefHint{Module: "std::fmt"})
	wantEdge(t, r, f+"::Backend", "inherits", "ref::Send", 25, RefHint{})
	wantImport(t, r, "crate::backend", "Mem", "Memory")
	wantImport(t, r, "std", "", "fmt")
	wantImport(t, r, "self::codec", "")
	wantEdge(t, r, f+"::Store::get", "calls", "ref::lookup", 42, RefHint{Receiver: "self.cache", ReceiverType: "Cache"})
	wantEdge(t, r, f+"::Store::get", "calls", "ref::default", 44, RefHint{Module: "crate::backend", ReceiverType: "Memory"})
	wantEdge(t, r, f+"::Store::helper", "calls", "ref::new", 50, RefHint{Receiver: "Self", ReceiverType: "Store"})
	wantEdge(t, r, f+"::Store::helper", "calls", "ref::render", 51, RefHint{})
	wantEdge(t, r, f+"::Store::helper", "calls", "ref::encode", 52, RefHint{Module: "self::codec"})
	wantEdge(t, r, f+"::Store::helper", "calls", "ref::my_macro", 53, RefHint{})
	wantEdge(t, r, f+"::tests::stores_values", "calls", "ref::get", 78, RefHint{Receiver: "s", ReceiverType: "Store"})
	noEdge(t, r, f+"::Store::helper", "calls", "ref::println")
}

func TestFactsJava(t *testing.T) {
	r := extractFixture(t, "java/OrderService.java")
	f := "file::java/OrderService.java"
	c := f + "::OrderService"
	if r.Package != "com.acme.shop" {
		t.Errorf("package %q", r.Package)
	}
	wantNode(t, r, c, "Class", 12, "public")
	if n := findNode(r, c+"::find"); n == nil || !strings.HasPrefix(n.Excerpt, "public Order find(") {
		t.Errorf("find excerpt must skip annotations: %+v", n)
	}
	wantNode(t, r, c+"::find", "Function", 24, "override", "public")
	wantNode(t, r, c+"::OrderService", "Function", 19, "constructor")
	wantNode(t, r, c+"::recent", "Function", 43, "abstract", "protected", "deprecated")
	wantNode(t, r, c+"::Listener", "Type", 46, "interface")
	wantNode(t, r, c+"::Listener::onOrder", "Function", 47, "public")
	wantNode(t, r, c+"::Status", "Enum", 50)
	wantNode(t, r, c+"::Status::done", "Function", 53)
	wantNode(t, r, c+"::Line", "Class", 56, "record")
	wantNode(t, r, c+"::MAX_ITEMS", "Reference", 14, "constant")
	wantEdge(t, r, c, "inherits", "ref::BaseService", 13, RefHint{})
	wantEdge(t, r, c, "implements", "ref::Closeable", 13, RefHint{})
	wantEdge(t, r, c, "decorated_by", "ref::Service", 12, RefHint{Module: "org.springframework.stereotype"})
	wantImport(t, r, "java.util.concurrent", "", "*")
	wantImport(t, r, "com.acme.util.Checks", "static", "requireNonNull")
	find := c + "::find"
	wantEdge(t, r, find, "calls", "ref::requireNonNull", 26, RefHint{Module: "com.acme.util.Checks"})
	wantEdge(t, r, find, "calls", "ref::findById", 27, RefHint{Receiver: "repo", ReceiverType: "OrderRepository", Module: "com.acme.repo"})
	wantEdge(t, r, find, "calls", "ref::put", 28, RefHint{Receiver: "this.cache", ReceiverType: "Cache"})
	wantEdge(t, r, find, "calls", "ref::publish", 30, RefHint{Receiver: "audit", ReceiverType: "AuditEvent"})
	wantEdge(t, r, find, "calls", "ref::info", 31, RefHint{ReceiverType: "Logger"})
	wantEdge(t, r, find, "calls", "ref::validate", 32, RefHint{Receiver: "-", ReceiverType: "OrderService"})
	wantEdge(t, r, find, "calls", "ref::trim", 34, RefHint{Module: "com.acme.util", ReceiverType: "Strings"})
	wantEdge(t, r, c+"::validate", "calls", "ref::check", 39, RefHint{Receiver: "super", ReceiverType: "BaseService"})
	wantEdge(t, r, c+"::close", "calls", "ref::flush", 60, RefHint{})

	tr := extractFixture(t, "java/OrderServiceTest.java")
	ft := "file::java/OrderServiceTest.java"
	wantNode(t, tr, ft, "File", 1, "test")
	wantNode(t, tr, ft+"::OrderServiceTest", "Class", 6, "test")
	wantNode(t, tr, ft+"::OrderServiceTest::findsOrders", "Function", 9, "test")
	if n := findNode(tr, ft+"::OrderServiceTest::setUp"); n == nil || slices.Contains(n.Tags, "test") {
		t.Errorf("setUp is not a test: %+v", n)
	}
	wantEdge(t, tr, ft+"::OrderServiceTest::findsOrders", "calls", "ref::find", 11, RefHint{ReceiverType: "OrderService"})
}

func mustRead(t testing.TB, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestFactsGoGenerated(t *testing.T) {
	r := extractFixture(t, "go/zz_opcodes.go")
	f := "file::go/zz_opcodes.go"
	wantNode(t, r, f, "File", 1, "go", "generated")
	wantNode(t, r, f+"::Op::String", "Function", 12, "method")
	for _, n := range r.Nodes {
		if n.Type.String() == "Reference" {
			t.Errorf("generated file kept table entry %s", n.ID)
		}
	}
	plain := extractFixture(t, "go/server.go")
	if slices.Contains(plain.Nodes[0].Tags, "generated") {
		t.Errorf("server.go tagged generated")
	}
}

func TestGoBuildLine(t *testing.T) {
	for src, want := range map[string]string{
		"//go:build linux && !cgo\n\npackage x\n":        "linux && !cgo",
		"// Copyright\n\n//go:build ignore\npackage x\n": "ignore",
		"package x\n//go:build linux\n":                  "",
		"package x\n":                                    "",
	} {
		if got := goBuildLine([]byte(src)); got != want {
			t.Errorf("goBuildLine(%q) = %q, want %q", src, got, want)
		}
	}
}

// TestGoScopesWithoutMaps: a scope's maps are made on first write, so
// every way a body binds a name must work from an empty scope.
func TestGoScopesWithoutMaps(t *testing.T) {
	src := `package p

type T struct{ F int }

func New() *T { return &T{} }

func use() int {
	a := T{}
	b := &T{}
	var c T
	d := New()
	for i, v := range []int{1} {
		_ = i + v
	}
	switch x := any(a).(type) {
	case T:
		_ = x
	}
	f := func(y int) int { return y }
	return a.F + b.F + c.F + d.F + f(1)
}
`
	r, err := ExtractFile("p/use.go", []byte(src))
	if err != nil {
		t.Fatalf("extract: %v", err)
	}
	if len(r.Nodes) < 4 {
		t.Errorf("nodes = %d", len(r.Nodes))
	}
}

func TestGoArity(t *testing.T) {
	src := "package p\n\ntype I interface {\n\tDo(a, b int, c ...string) (int, error)\n}\n\ntype T struct{}\n\nfunc (T) Do(int, int, ...string) (n int, err error) { return 0, nil }\n\nfunc (t *T) Close() error { return nil }\n"
	r, err := ExtractFile("p/a.go", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]Arity{"file::p/a.go::I::Do": {Params: 3, Results: 2}, "file::p/a.go::T::Do": {Params: 3, Results: 2}, "file::p/a.go::T::Close": {Params: 0, Results: 1}}
	for id, a := range want {
		if got := r.Arity[id]; got != a {
			t.Errorf("%s: arity %+v, want %+v (all: %v)", id, got, a, r.Arity)
		}
	}
}
