package stacktrace

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/m1nd-go/m1nd/core/testcorpus"
)

// brief renders a frame compactly: "file:line Class.func", with " [ext]"
// for an external one.
func brief(f Frame) string {
	fn := f.Function
	if f.Class != "" {
		fn = f.Class + "." + fn
	}
	parts := []string{fmt.Sprintf("%s:%d", f.File, f.Line)}
	if fn != "" {
		parts = append(parts, fn)
	}
	if f.External {
		parts = append(parts, "[ext]")
	}
	return strings.Join(parts, " ")
}

func briefs(fs []Frame) []string {
	out := []string{}
	for _, f := range fs {
		out = append(out, brief(f))
	}
	return out
}

type parseCase struct {
	name   string
	lang   Language // the hint (Auto: detect)
	text   string
	want   Language
	err    Error
	chain  int // len(Chain), 0: do not check
	frames []string
}

var pythonCases = []parseCase{
	{
		name: "python traceback",
		text: `Traceback (most recent call last):
  File "/home/ci/build/app/backend/api.py", line 31, in handle
    return auth.login(user, pw)
  File "/home/ci/build/app/backend/auth.py", line 17, in login
    if not self.validate_credentials(user, password):
  File "/home/ci/build/app/backend/crypto.py", line 5, in hash_password
    return hashlib.sha256(password.encode()).hexdigest()
AttributeError: 'NoneType' object has no attribute 'encode'`,
		want: Python,
		err:  Error{Type: "AttributeError", Message: "'NoneType' object has no attribute 'encode'"},
		frames: []string{
			"/home/ci/build/app/backend/crypto.py:5 hash_password",
			"/home/ci/build/app/backend/auth.py:17 login",
			"/home/ci/build/app/backend/api.py:31 handle",
		},
	},
	{
		name: "python site-packages and 3.11 carets",
		text: `Traceback (most recent call last):
  File "/srv/app/service.py", line 12, in fetch
    resp = requests.get(url, timeout=1)
           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "/usr/lib/python3.11/site-packages/requests/api.py", line 73, in get
    return request("get", url, params=params, **kwargs)
  File "<frozen importlib._bootstrap>", line 1176, in _find_and_load
requests.exceptions.ConnectTimeout: HTTPSConnectionPool(host='x', port=443)`,
		want: Python,
		err:  Error{Type: "requests.exceptions.ConnectTimeout", Message: "HTTPSConnectionPool(host='x', port=443)"},
		frames: []string{
			":1176 _find_and_load [ext]",
			"/usr/lib/python3.11/site-packages/requests/api.py:73 get [ext]",
			"/srv/app/service.py:12 fetch",
		},
	},
	{
		name: "python chained: direct cause",
		text: `Traceback (most recent call last):
  File "app/db.py", line 10, in query
    cur.execute(sql)
sqlite3.OperationalError: database is locked

The above exception was the direct cause of the following exception:

Traceback (most recent call last):
  File "app/main.py", line 5, in main
    service.handle()
  File "app/service.py", line 20, in handle
    raise ServiceError("query failed") from e
app.errors.ServiceError: query failed`,
		want:  Python,
		err:   Error{Type: "app.errors.ServiceError", Message: "query failed"},
		chain: 2,
		frames: []string{
			"app/db.py:10 query",
			"app/service.py:20 handle",
			"app/main.py:5 main",
		},
	},
	{
		name: "python chained: during handling",
		text: `Traceback (most recent call last):
  File "/app/cache.py", line 8, in get
    return self.data[key]
KeyError: 'user:1'

During handling of the above exception, another exception occurred:

Traceback (most recent call last):
  File "/app/cache.py", line 10, in get
    return self.load(key)
  File "/app/loader.py", line 3, in load
    raise LookupError(key)
LookupError: user:1`,
		want:  Python,
		err:   Error{Type: "LookupError", Message: "user:1"},
		chain: 2,
		frames: []string{
			"/app/cache.py:8 get",
			"/app/loader.py:3 load",
			"/app/cache.py:10 get",
		},
	},
	{
		name: "python SyntaxError form",
		text: `  File "/home/dev/proj/tools/gen.py", line 42
    def build(
             ^
SyntaxError: '(' was never closed`,
		want:   Python,
		err:    Error{Type: "SyntaxError", Message: "'(' was never closed"},
		frames: []string{"/home/dev/proj/tools/gen.py:42"},
	},
	{
		name: "pytest short traceback",
		text: `___________________________ test_login ___________________________
tests/test_auth.py:12: in test_login
    service.login(user, "bad")
backend/auth.py:17: in login
    raise PermissionError("bad credentials")
E   PermissionError: bad credentials
=========================== short test summary info ===========================`,
		want: Python,
		err:  Error{Type: "PermissionError", Message: "bad credentials"},
		frames: []string{
			"backend/auth.py:17 login",
			"tests/test_auth.py:12 test_login",
		},
	},
	{
		name: "python with a log prefix and windows paths",
		text: `2024-05-01 12:00:00 ERROR worker Traceback (most recent call last):
  File "C:\Users\dev\proj\backend\jobs.py", line 88, in run
    self.step()
ZeroDivisionError: division by zero`,
		want:   Python,
		err:    Error{Type: "ZeroDivisionError", Message: "division by zero"},
		frames: []string{"C:/Users/dev/proj/backend/jobs.py:88 run"},
	},
}

var goCases = []parseCase{
	{
		name: "go panic",
		text: `panic: runtime error: invalid memory address or nil pointer dereference
[signal SIGSEGV: segmentation violation code=0x1 addr=0x0 pc=0x4b2c1a]

goroutine 1 [running]:
github.com/acme/shop/internal/cart.(*Cart).Total(0x0)
	/home/runner/work/shop/shop/internal/cart/cart.go:42 +0x1a
github.com/acme/shop/internal/api.handleCheckout({0x5f3e00, 0xc0000a4000}, 0xc0000b2000)
	/home/runner/work/shop/shop/internal/api/checkout.go:88 +0x6b
net/http.HandlerFunc.ServeHTTP(0x0?, {0x5f3e00?, 0xc0000a4000?}, 0x0?)
	/usr/local/go/src/net/http/server.go:2166 +0x29
main.main()
	/home/runner/work/shop/shop/cmd/shop/main.go:20 +0x1e5
exit status 2`,
		want: Go,
		err:  Error{Type: "runtime error", Message: "invalid memory address or nil pointer dereference"},
		frames: []string{
			"/home/runner/work/shop/shop/internal/cart/cart.go:42 Cart.Total",
			"/home/runner/work/shop/shop/internal/api/checkout.go:88 handleCheckout",
			"/usr/local/go/src/net/http/server.go:2166 HandlerFunc.ServeHTTP [ext]",
			"/home/runner/work/shop/shop/cmd/shop/main.go:20 main",
		},
	},
	{
		name: "go panic with runtime frames, closures and a goroutine dump",
		text: `panic: config: missing key "db" [recovered]
	panic: config: missing key "db"

goroutine 7 [running]:
panic({0x6a1b20?, 0xc000012345?})
	/usr/lib/go-1.22/src/runtime/panic.go:770 +0x132
github.com/acme/svc/config.MustGet(...)
	/src/svc/config/config.go:31
github.com/acme/svc/server.(*Server).Start.func1()
	/src/svc/server/server.go:57 +0x45
created by github.com/acme/svc/server.(*Server).Start in goroutine 1
	/src/svc/server/server.go:55 +0x9a

goroutine 1 [chan receive]:
main.main()
	/src/svc/main.go:14 +0x8c

goroutine 18 [select]:
github.com/acme/svc/worker.loop()
	/src/svc/worker/loop.go:9 +0x10`,
		want:  Go,
		err:   Error{Type: "panic", Message: `config: missing key "db"`},
		chain: 1, // the same value panicked again is one error, not a cause
		frames: []string{
			"/usr/lib/go-1.22/src/runtime/panic.go:770 panic [ext]",
			"/src/svc/config/config.go:31 MustGet",
			"/src/svc/server/server.go:57 Server.Start",
			"/src/svc/server/server.go:55 Server.Start",
		},
	},
	{
		name: "go panic recovered and a different value panicked",
		text: `panic: dial tcp: connection refused [recovered]
	panic: store: cannot start

goroutine 1 [running]:
main.main()
	/src/svc/main.go:14 +0x8c`,
		want:   Go,
		err:    Error{Type: "panic", Message: "dial tcp: connection refused"},
		chain:  2,
		frames: []string{"/src/svc/main.go:14 main"},
	},
	{
		name: "go deadlock keeps every goroutine",
		text: `fatal error: all goroutines are asleep - deadlock!

goroutine 1 [chan send]:
main.main()
	/tmp/app/main.go:8 +0x36

goroutine 5 [chan receive]:
main.worker(0xc000020060)
	/tmp/app/worker.go:21 +0x2d`,
		want: Go,
		err:  Error{Type: "fatal error", Message: "all goroutines are asleep - deadlock!"},
		frames: []string{
			"/tmp/app/main.go:8 main",
			"/tmp/app/worker.go:21 worker",
		},
	},
	{
		name: "go test failure",
		text: `=== RUN   TestParse
=== RUN   TestParse/empty
    parse_test.go:42: Parse("") = 3, want 0
--- FAIL: TestParse (0.00s)
    --- FAIL: TestParse/empty (0.00s)
FAIL
FAIL	github.com/acme/parse	0.004s`,
		want:   Go,
		err:    Error{Type: "test failure", Message: `Parse("") = 3, want 0`},
		frames: []string{"parse_test.go:42"},
	},
	{
		name: "go test failure after its FAIL line, generics and -trimpath",
		text: `--- FAIL: TestCache (0.01s)
    cache_test.go:17: got 2 entries
panic: boom

goroutine 21 [running]:
github.com/acme/lru.(*Cache[...]).Put(0xc00011e000, {0x5e9c80, 0x3})
	github.com/acme/lru/cache.go:64 +0x1f4
testing.tRunner(0xc000103380, 0x5a6f28)
	testing/testing.go:1689 +0xfb`,
		want: Go,
		err:  Error{Type: "panic", Message: "boom"},
		frames: []string{
			"github.com/acme/lru/cache.go:64 Cache.Put",
			"testing/testing.go:1689 tRunner [ext]",
			"cache_test.go:17 TestCache",
		},
	},
	{
		name: "go frames pasted without their goroutine header",
		text: `panic: boom
main.run(...)
	/src/app/main.go:12
main.main()
	/src/app/main.go:7 +0x25
	/src/app/init.go:3 +0x1d

see also
	/src/app/other.go:9`,
		want: Go,
		err:  Error{Type: "panic", Message: "boom"},
		frames: []string{
			"/src/app/main.go:12 run",
			"/src/app/main.go:7 main",
			"/src/app/init.go:3",
		},
	},
}

var jsCases = []parseCase{
	{
		name: "node stack",
		text: `/srv/app/src/routes/user.js:27
    return user.profile.name;
                        ^

TypeError: Cannot read properties of undefined (reading 'name')
    at getName (/srv/app/src/routes/user.js:27:25)
    at Layer.handle [as handle_request] (/srv/app/node_modules/express/lib/router/layer.js:95:5)
    at async UserController.show (/srv/app/src/controllers/user.js:12:18)
    at Object.<anonymous> (/srv/app/src/index.js:4:1)
    at /srv/app/src/boot.js:9:3
    at Module._compile (node:internal/modules/cjs/loader:1256:14)
    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)`,
		want: JavaScript,
		err:  Error{Type: "TypeError", Message: "Cannot read properties of undefined (reading 'name')"},
		frames: []string{
			"/srv/app/src/routes/user.js:27 getName",
			"/srv/app/node_modules/express/lib/router/layer.js:95 Layer.handle [ext]",
			"/srv/app/src/controllers/user.js:12 UserController.show",
			"/srv/app/src/index.js:4 <anonymous>",
			"/srv/app/src/boot.js:9",
			"node:internal/modules/cjs/loader:1256 _compile [ext]",
			"node:internal/process/task_queues:95 processTicksAndRejections [ext]",
		},
	},
	{
		name: "typescript through file URLs and webpack-internal, with a cause",
		text: `Error: render failed
    at renderPage (file:///Users/ana/web/src/render.ts:40:11)
    at webpack-internal:///./src/components/App.tsx:12:5
    at new Store (webpack-internal:///./src/store.ts:7:9) {
  [cause]: RangeError: Invalid time value
      at formatDate (file:///Users/ana/web/src/util/date.ts:5:20)
}`,
		want:  TypeScript,
		err:   Error{Type: "Error", Message: "render failed"},
		chain: 2,
		frames: []string{
			"/Users/ana/web/src/util/date.ts:5 formatDate",
			"/Users/ana/web/src/render.ts:40 renderPage",
			"src/components/App.tsx:12",
			"src/store.ts:7 Store",
		},
	},
	{
		name: "firefox and safari stacks",
		text: `Uncaught TypeError: items is undefined
handleClick@http://localhost:3000/static/js/main.chunk.js?v=3:120:15
App/render/<@http://localhost:3000/static/js/main.chunk.js:88:7
dispatchEvent@[native code]
@https://cdn.example.com/vendor/node_modules/react-dom/cjs/react-dom.development.js:4164:14`,
		want: JavaScript,
		err:  Error{Type: "TypeError", Message: "items is undefined"},
		frames: []string{
			"static/js/main.chunk.js:120 handleClick",
			"static/js/main.chunk.js:88 render",
			"vendor/node_modules/react-dom/cjs/react-dom.development.js:4164 [ext]",
		},
	},
}

var rustCases = []parseCase{
	{
		name: "rust panic, new format, with backtrace",
		text: `thread 'main' panicked at src/parser.rs:88:14:
called ` + "`Option::unwrap()`" + ` on a ` + "`None`" + ` value
stack backtrace:
   0: rust_begin_unwind
             at /rustc/07dca489ac2d933c78d3c5158e3f43beefeb02ce/library/std/src/panicking.rs:645:5
   1: core::panicking::panic_fmt
             at /rustc/07dca489ac2d933c78d3c5158e3f43beefeb02ce/library/core/src/panicking.rs:72:14
   2: mycli::parser::Parser::expect_ident
             at ./src/parser.rs:88:14
   3: mycli::parser::Parser::parse::{{closure}}
             at ./src/parser.rs:40:9
   4: serde_json::de::from_str
             at /home/u/.cargo/registry/src/index.crates.io-6f17d22bba15001f/serde_json-1.0.108/src/de.rs:2676:5
   5: mycli::main
             at ./src/main.rs:12:5
note: Some details are omitted, run with ` + "`RUST_BACKTRACE=full`" + ` for a verbose backtrace.`,
		want: Rust,
		err:  Error{Type: "panic", Message: "called `Option::unwrap()` on a `None` value"},
		frames: []string{
			"/rustc/07dca489ac2d933c78d3c5158e3f43beefeb02ce/library/std/src/panicking.rs:645 rust_begin_unwind [ext]",
			"/rustc/07dca489ac2d933c78d3c5158e3f43beefeb02ce/library/core/src/panicking.rs:72 panic_fmt [ext]",
			"src/parser.rs:88 Parser.expect_ident",
			"src/parser.rs:40 Parser.parse",
			"/home/u/.cargo/registry/src/index.crates.io-6f17d22bba15001f/serde_json-1.0.108/src/de.rs:2676 from_str [ext]",
			"src/main.rs:12 main",
		},
	},
	{
		name: "rust panic, old format, hashed symbols, no backtrace",
		text: `thread 'tokio-runtime-worker' panicked at 'index out of bounds: the len is 3 but the index is 7', src/store/mod.rs:51:20
note: run with ` + "`RUST_BACKTRACE=1`" + ` environment variable to display a backtrace`,
		want:   Rust,
		err:    Error{Type: "panic", Message: "index out of bounds: the len is 3 but the index is 7"},
		frames: []string{"src/store/mod.rs:51"},
	},
	{
		name: "rust old backtrace with addresses and an inlined frame",
		text: `thread 'main' panicked at 'boom', src/lib.rs:3:5
stack backtrace:
   0:     0x55d0c2a1b2c3 - std::panicking::begin_panic::h0123456789abcdef
   1:     0x55d0c2a1b2d4 - <app::Config as core::str::FromStr>::from_str::h00112233445566ff
                               at /work/app/src/config.rs:19
   2:     0x55d0c2a1b2e5 - app::run::h1122334455667788
                               at /work/app/src/lib.rs:3
                           app::start
                               at /work/app/src/lib.rs:9`,
		want: Rust,
		err:  Error{Type: "panic", Message: "boom"},
		frames: []string{
			":0 begin_panic [ext]",
			"/work/app/src/config.rs:19 Config.from_str",
			"/work/app/src/lib.rs:3 run",
			"/work/app/src/lib.rs:9 start",
		},
	},
}

var javaCases = []parseCase{
	{
		name: "java exception with cause and elision",
		text: `Exception in thread "main" java.lang.IllegalStateException: order 42 cannot be shipped
	at com.acme.shop.OrderService.ship(OrderService.java:57)
	at com.acme.shop.OrderService.lambda$shipAll$0(OrderService.java:40)
	at java.base/java.util.ArrayList.forEach(ArrayList.java:1596)
	at com.acme.shop.Main.main(Main.java:12)
Caused by: java.sql.SQLException: connection is closed
	at org.h2.jdbc.JdbcConnection.checkClosed(JdbcConnection.java:1500)
	at com.acme.shop.db.OrderRepo.find(OrderRepo.java:23)
	at com.acme.shop.OrderService.ship(OrderService.java:55)
	... 3 more`,
		want:  Java,
		err:   Error{Type: "java.lang.IllegalStateException", Message: "order 42 cannot be shipped"},
		chain: 2,
		frames: []string{
			"org/h2/jdbc/JdbcConnection.java:1500 JdbcConnection.checkClosed",
			"com/acme/shop/db/OrderRepo.java:23 OrderRepo.find",
			"com/acme/shop/OrderService.java:55 OrderService.ship",
			"com/acme/shop/OrderService.java:57 OrderService.ship",
			"com/acme/shop/OrderService.java:40 OrderService.shipAll",
			"java/util/ArrayList.java:1596 ArrayList.forEach [ext]",
			"com/acme/shop/Main.java:12 Main.main",
		},
	},
	{
		name: "kotlin with a suppressed block, native and unknown sources",
		text: `com.acme.app.ConfigException: missing port
	at com.acme.app.ConfigKt.loadConfig(Config.kt:14)
	at com.acme.app.MainKt.main(Main.kt:6)
	at jdk.internal.reflect.NativeMethodAccessorImpl.invoke0(Native Method)
	at kotlinx.coroutines.DispatchedTask.run(Unknown Source)
	Suppressed: java.io.IOException: close failed
		at com.acme.app.Res.close(Res.kt:3)`,
		want: Kotlin,
		err:  Error{Type: "com.acme.app.ConfigException", Message: "missing port"},
		frames: []string{
			"com/acme/app/Config.kt:14 ConfigKt.loadConfig",
			"com/acme/app/Main.kt:6 MainKt.main",
			":0 NativeMethodAccessorImpl.invoke0 [ext]",
			":0 DispatchedTask.run [ext]",
		},
	},
}

var csharpCases = []parseCase{
	{
		name: "c# exception with an inner exception",
		text: `System.InvalidOperationException: Order 42 cannot be shipped
 ---> System.Data.SqlClient.SqlException: Connection is closed
   at Acme.Shop.Db.OrderRepo.Find(Int32 id) in /src/Shop/Db/OrderRepo.cs:line 23
   at Acme.Shop.OrderService.Ship(Int32 id) in /src/Shop/OrderService.cs:line 55
   --- End of inner exception stack trace ---
   at Acme.Shop.OrderService.Ship(Int32 id) in /src/Shop/OrderService.cs:line 57
   at Acme.Shop.Program.<Main>$(String[] args) in /src/Shop/Program.cs:line 12`,
		want:  CSharp,
		err:   Error{Type: "System.InvalidOperationException", Message: "Order 42 cannot be shipped"},
		chain: 2,
		frames: []string{
			"/src/Shop/Db/OrderRepo.cs:23 OrderRepo.Find",
			"/src/Shop/OrderService.cs:55 OrderService.Ship",
			"/src/Shop/OrderService.cs:57 OrderService.Ship",
			"/src/Shop/Program.cs:12 Program.Main",
		},
	},
	{
		name: "c# unhandled, async, a lambda, generics, frames without symbols, windows paths",
		text: `Unhandled exception. System.NullReferenceException: Object reference not set to an instance of an object.
   at Acme.Auth.TokenStore.<>c__DisplayClass3_0.<Lookup>b__0(Token t) in C:\src\Acme\Auth\TokenStore.cs:line 31
   at System.Linq.Enumerable.WhereListIterator` + "`" + `1.MoveNext()
   at Acme.Auth.TokenStore.Lookup(String id) in C:\src\Acme\Auth\TokenStore.cs:line 30
   at Acme.Auth.AuthService.<LoginAsync>d__4.MoveNext() in C:\src\Acme\Auth\AuthService.cs:line 18
--- End of stack trace from previous location ---
   at System.Runtime.CompilerServices.TaskAwaiter.ThrowForNonSuccess(Task task)
   at Acme.Program.Main(String[] args)`,
		want: CSharp,
		err:  Error{Type: "System.NullReferenceException", Message: "Object reference not set to an instance of an object."},
		frames: []string{
			"C:/src/Acme/Auth/TokenStore.cs:31 TokenStore.Lookup",
			":0 WhereListIterator.MoveNext [ext]",
			"C:/src/Acme/Auth/TokenStore.cs:30 TokenStore.Lookup",
			"C:/src/Acme/Auth/AuthService.cs:18 AuthService.LoginAsync",
			":0 TaskAwaiter.ThrowForNonSuccess [ext]",
			":0 Program.Main",
		},
	},
}

var rubyCases = []parseCase{
	{
		name: "ruby uncaught exception from an installed gem",
		text: "/usr/local/bundle/gems/rack-3.1.8/lib/rack/multipart/parser.rb:131:in `parse_boundary': multiple boundary parameters found (Rack::Multipart::BoundaryTooLongError)\n" +
			"\tfrom /usr/local/bundle/gems/rack-3.1.8/lib/rack/multipart/parser.rb:140:in `parse'\n" +
			"\tfrom /app/lib/shop/upload.rb:12:in `block in call'\n" +
			"\tfrom <internal:kernel>:187:in `loop'\n" +
			"\tfrom app.rb:3:in `<main>'",
		want: Ruby,
		err:  Error{Type: "Rack::Multipart::BoundaryTooLongError", Message: "multiple boundary parameters found"},
		frames: []string{
			"/usr/local/bundle/gems/rack-3.1.8/lib/rack/multipart/parser.rb:131 parse_boundary [ext]",
			"/usr/local/bundle/gems/rack-3.1.8/lib/rack/multipart/parser.rb:140 parse [ext]",
			"/app/lib/shop/upload.rb:12 call",
			"<internal:kernel>:187 loop [ext]",
			"app.rb:3",
		},
	},
	{
		name: "ruby 3.4 qualified labels, a message without a class, rspec lines",
		text: "lib/shop/cart.rb:40:in 'Shop::Cart#total': no price for sku 7\n" +
			"\tfrom lib/shop/cart.rb:22:in 'Shop::Cart.build'\n" +
			"\tfrom lib/shop.rb:5:in '<module:Shop>'\n" +
			"     # ./spec/cart_spec.rb:9:in `block (2 levels) in <top (required)>'",
		want: Ruby,
		err:  Error{Type: "RuntimeError", Message: "no price for sku 7"},
		frames: []string{
			"lib/shop/cart.rb:40 Cart.total",
			"lib/shop/cart.rb:22 Cart.build",
			"lib/shop.rb:5 Shop.",
			"spec/cart_spec.rb:9",
		},
	},
	{
		name: "rails log: the error line, then one location per line",
		text: "NoMethodError (undefined method `name' for nil):\n\napp/models/user.rb:10:in `display_name'\napp/controllers/users_controller.rb:5:in `show'",
		want: Ruby,
		err:  Error{Type: "NoMethodError", Message: "undefined method `name' for nil"},
		frames: []string{
			"app/models/user.rb:10 display_name",
			"app/controllers/users_controller.rb:5 show",
		},
	},
}

var phpCases = []parseCase{
	{
		name: "php uncaught exception from a composer package",
		text: "PHP Fatal error:  Uncaught InvalidArgumentException: Unable to parse URI: http:/// in /app/vendor/guzzlehttp/psr7/src/Uri.php:84\n" +
			"Stack trace:\n" +
			"#0 /app/vendor/guzzlehttp/psr7/src/Utils.php(423): GuzzleHttp\\Psr7\\Uri->__construct('http:///')\n" +
			"#1 /app/src/Http/Client.php(31): GuzzleHttp\\Psr7\\Utils::uriFor('http:///')\n" +
			"#2 [internal function]: App\\Http\\Client->send(Object(App\\Request))\n" +
			"#3 /app/src/helpers.php(9): call_user_func(Array)\n" +
			"#4 /app/public/index.php(5): App\\dispatch()\n" +
			"#5 {main}\n" +
			"  thrown in /app/vendor/guzzlehttp/psr7/src/Uri.php on line 84",
		want: PHP,
		err:  Error{Type: "InvalidArgumentException", Message: "Unable to parse URI: http:///"},
		frames: []string{
			"/app/vendor/guzzlehttp/psr7/src/Uri.php:84 Uri.__construct [ext]",
			"/app/vendor/guzzlehttp/psr7/src/Utils.php:423 Utils.uriFor [ext]",
			"/app/src/Http/Client.php:31 Client.send",
			"/app/src/helpers.php:9 dispatch",
			"/app/public/index.php:5",
		},
	},
	{
		name: "php exception as a string, a closure",
		text: "App\\Domain\\OrderException: no stock in /srv/src/Domain/Order.php:40\nStack trace:\n" +
			"#0 /srv/src/Domain/Cart.php(12): App\\Domain\\Order->place()\n" +
			"#1 /srv/src/routes.php(7): App\\Domain\\{closure}()\n" +
			"#2 {main}",
		want: PHP,
		err:  Error{Type: `App\Domain\OrderException`, Message: "no stock"},
		frames: []string{
			"/srv/src/Domain/Order.php:40 Order.place",
			"/srv/src/Domain/Cart.php:12",
			"/srv/src/routes.php:7",
		},
	},
}

// seekCases are the pastes core/seek's query tests read (seek parses
// its frames with this package), with one frame per line of prose
// around them.
var seekCases = []parseCase{
	{
		name: "seek: python after prose",
		text: testcorpus.PythonTrace,
		want: Python,
		err:  Error{Type: "UnicodeEncodeError", Message: "'ascii' codec can't encode character"},
		frames: []string{
			"/srv/app/backend/auth.py:14 validate_credentials",
			"/srv/app/backend/auth.py:18 login",
			"/srv/app/web/views.py:88 post",
		},
	},
	{
		name: "seek: go panic with a closure and created by",
		text: testcorpus.GoTrace,
		want: Go,
		err:  Error{Type: "runtime error", Message: "index out of range [7] with length 7"},
		frames: []string{
			"/home/ci/app/web/server.go:18 parseHeaderToken",
			"/home/ci/app/web/router.go:8 Server.ServeHTTP",
			"/home/ci/app/web/start.go:12 Start",
		},
	},
	{
		name: "seek: java with a lambda and a module prefix",
		text: testcorpus.JavaTrace,
		want: Java,
		err:  Error{Type: "java.lang.NullPointerException", Message: "token"},
		frames: []string{
			"com/acme/auth/SessionStore.java:42 SessionStore.lookup",
			"com/acme/auth/AuthService.java:17 AuthService.login",
			"java/lang/Thread.java:833 Thread.run [ext]",
		},
	},
	{
		name: "seek: node with async, a file URL and a runtime frame",
		text: testcorpus.JSTrace,
		want: TypeScript,
		err:  Error{Type: "TypeError", Message: "Cannot read properties of undefined (reading 'id')"},
		frames: []string{
			"/srv/app/src/session.js:11 SessionStore.create",
			"/srv/app/src/server.ts:40 Server.handleLogin",
			"/srv/app/src/index.js:3",
			"node:internal/process/task_queues:95 [ext]",
		},
	},
	{
		name:   "seek: c# frame",
		text:   testcorpus.CSharpTrace,
		want:   CSharp,
		err:    Error{Type: "System.InvalidOperationException", Message: "bad state"},
		frames: []string{"C:/src/Acme/Auth.cs:42 Auth.Validate"},
	},
	{
		name:   "seek: rust panic",
		text:   "thread 'main' panicked at src/parser.rs:120:9:\nattempt to subtract with overflow",
		want:   Rust,
		err:    Error{Type: "panic", Message: "attempt to subtract with overflow"},
		frames: []string{"src/parser.rs:120"},
	},
}

// allCases are every group of parse cases.
var allCases = [][]parseCase{pythonCases, goCases, jsCases, rustCases, javaCases, csharpCases, rubyCases, phpCases, nativeCases, seekCases}

func TestParse(t *testing.T) {
	for _, group := range allCases {
		for _, tc := range group {
			t.Run(tc.name, func(t *testing.T) {
				for _, hint := range []Language{Auto, tc.want} {
					tr := Parse(tc.text, hint)
					if tr.Language != tc.want {
						t.Errorf("hint %s: language %s, want %s", hint, tr.Language, tc.want)
					}
					if tr.Error != tc.err {
						t.Errorf("hint %s: error %+v, want %+v", hint, tr.Error, tc.err)
					}
					if tc.chain > 0 && len(tr.Chain) != tc.chain {
						t.Errorf("hint %s: chain %+v, want %d entries", hint, tr.Chain, tc.chain)
					}
					if d := cmp.Diff(tc.frames, briefs(tr.Frames)); d != "" {
						t.Errorf("hint %s: frames (-want +got):\n%s", hint, d)
					}
				}
			})
		}
	}
}

// Details the compact form leaves out: modules, columns, quoted code,
// which error of a chain a frame belongs to, the goroutine count.
func TestParseDetails(t *testing.T) {
	tr := Parse(goCases[1].text, Auto)
	if tr.Goroutines != 3 {
		t.Errorf("goroutines = %d, want 3", tr.Goroutines)
	}
	if f := tr.Frames[2]; f.Module != "github.com/acme/svc/server" || f.Class != "Server" || f.Function != "Start" {
		t.Errorf("go frame %+v", f)
	}
	py := Parse(pythonCases[0].text, Auto)
	if c := py.Frames[0].Code; c != "return hashlib.sha256(password.encode()).hexdigest()" {
		t.Errorf("python code %q", c)
	}
	ch := Parse(pythonCases[2].text, Auto)
	if got := []int{ch.Frames[0].Exception, ch.Frames[1].Exception}; got[0] != 1 || got[1] != 0 {
		t.Errorf("chained exceptions %v, want the cause's frame first", got)
	}
	if ch.Chain[1].Type != "sqlite3.OperationalError" {
		t.Errorf("chain %+v", ch.Chain)
	}
	js := Parse(jsCases[0].text, Auto)
	if js.Frames[0].Column != 25 {
		t.Errorf("column %d", js.Frames[0].Column)
	}
	rs := Parse(rustCases[0].text, Auto)
	if f := rs.Frames[2]; f.Module != "mycli::parser" || f.Column != 14 {
		t.Errorf("rust frame %+v", f)
	}
	jv := Parse(javaCases[0].text, Auto)
	if f := jv.Frames[1]; f.Module != "com.acme.shop.db" || f.Exception != 1 {
		t.Errorf("java frame %+v", f)
	}
}

func TestParseNothing(t *testing.T) {
	for _, text := range []string{"", "everything is fine", "#1 Fix parser(3): done\n#2 Review docs(4): later", "error: something went wrong\nno frames here", "at at at (((", "Traceback (most recent call last):\n"} {
		tr := Parse(text, Auto)
		if len(tr.Frames) != 0 || tr.Frames == nil {
			t.Errorf("%q: frames %v, want an empty list", text, tr.Frames)
		}
	}
}

// A wrong hint falls back to detection.
func TestParseWrongHint(t *testing.T) {
	tr := Parse(pythonCases[0].text, Java)
	if tr.Language != Python || len(tr.Frames) != 3 {
		t.Errorf("got %s with %d frames", tr.Language, len(tr.Frames))
	}
}

func TestParseLanguage(t *testing.T) {
	for in, want := range map[string]Language{"": Auto, "AUTO": Auto, "py": Python, "golang": Go, "Node": JavaScript, "ts": TypeScript, "rs": Rust, "jvm": Java, "kt": Kotlin, "C#": CSharp, "dotnet": CSharp, "rb": Ruby, "PHP": PHP, "asan": C, "C++": Cpp, "gdb": C} {
		if got, err := ParseLanguage(in); err != nil || got != want {
			t.Errorf("ParseLanguage(%q) = %s, %v; want %s", in, got, err, want)
		}
	}
	if _, err := ParseLanguage("cobol"); err == nil {
		t.Error("cobol accepted")
	}
}

func TestCleanPath(t *testing.T) {
	for in, want := range map[string]string{
		"file:///home/u/app/x.js":                "/home/u/app/x.js",
		"file:///C:/src/app.ts":                  "C:/src/app.ts",
		"webpack-internal:///./src/App.tsx":      "src/App.tsx",
		"webpack://my-app/./src/store.ts":        "src/store.ts",
		"webpack:///src/x.js":                    "/src/x.js",
		"https://cdn.example.com:8443/js/a.js?x": "js/a.js",
		"./src/lib.rs":                           "src/lib.rs",
		"../../pkg/a.go":                         "pkg/a.go",
		`C:\Users\dev\app\main.py`:               "C:/Users/dev/app/main.py",
		"/srv/app/./lib/../src/a.py":             "/srv/app/src/a.py",
		"node:internal/modules/cjs/loader":       "node:internal/modules/cjs/loader",
		".":                                      "",
	} {
		if got := CleanPath(in); got != want {
			t.Errorf("CleanPath(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestIsExternalPath(t *testing.T) {
	for p, want := range map[string]bool{
		"/usr/lib/python3/dist-packages/yaml/x.py": true,
		"/app/.venv/lib/python3.12/x.py":           true,
		"/srv/app/node_modules/a/b.js":             true,
		"vendor/github.com/x/y.go":                 true,
		"/usr/local/go/src/runtime/panic.go":       true,
		"/home/u/.cargo/registry/src/x/lib.rs":     true,
		"/srv/app/backend/auth.py":                 false,
		"internal/server/x.go":                     false,
		"src/main.rs":                              false,
		"":                                         false,
	} {
		if got := IsExternalPath(p); got != want {
			t.Errorf("IsExternalPath(%q) = %v", p, got)
		}
	}
}

// Long inputs stay bounded: frames are capped and flagged.
func TestParseCaps(t *testing.T) {
	var b strings.Builder
	b.WriteString("Traceback (most recent call last):\n")
	for i := 0; i < MaxFrames+100; i++ {
		fmt.Fprintf(&b, "  File \"app/f%d.py\", line %d, in f\n", i, i+1)
	}
	b.WriteString("RecursionError: maximum recursion depth exceeded\n")
	tr := Parse(b.String(), Auto)
	if len(tr.Frames) != MaxFrames || !tr.Truncated {
		t.Errorf("frames %d truncated %v", len(tr.Frames), tr.Truncated)
	}
	long := "    at f (/a/" + strings.Repeat("x", 1<<20) + ".js:1:1)"
	if tr := Parse(long, Auto); len(tr.Frames) != 0 {
		t.Errorf("a clipped megabyte line gave %d frames", len(tr.Frames))
	}
}

// Go function lines name the function without package, receiver,
// arguments or closure suffix (the cases of seek's former goFunc).
func TestGoFunctionNames(t *testing.T) {
	for in, want := range map[string]string{
		"example.com/app/web.parseHeaderToken(0xc000010000)":   "parseHeaderToken",
		"example.com/app/web.(*Server).ServeHTTP.func1.2(...)": "ServeHTTP",
		"main.main()": "main",
		"created by net/http.(*Server).Serve in goroutine 1":               "Serve",
		"github.com/m1nd-go/m1nd/core/seek.(*Index).Search({0x1, 0x2}, 3)": "Search",
		"github.com/acme/lru.(*Cache[...]).Put.gowrap1()":                  "Put",
		"not a function line": "",
	} {
		tr := Parse("goroutine 1 [running]:\n"+in+"\n\t/src/x.go:1 +0x1\n", Go)
		if len(tr.Frames) != 1 || tr.Frames[0].Function != want {
			t.Errorf("%q: frames %+v, want function %q", in, tr.Frames, want)
		}
	}
}

// A .NET frame is not read as a JVM one, nor a JVM frame as a .NET one.
func TestJavaAndCSharpApart(t *testing.T) {
	for _, tc := range []struct {
		line string
		want Language
	}{
		{"   at Acme.Auth.Validate(String user) in /src/Auth.cs:line 42", CSharp},
		{"   at Acme.Auth.Validate(String user, Int32 n)", CSharp},
		{"   at Acme.Program.Main()", CSharp},
		{"   at com.acme.Auth.login(Auth.java:42)", Java},
		{"   at com.acme.Auth.login(Native Method)", Java},
		{"   at com.acme.Auth.login(Unknown Source)", Java},
	} {
		all := ParseAll(tc.line)
		if len(all) != 1 || all[0].Language != tc.want {
			t.Errorf("%q: read as %v, want %s only", tc.line, languagesOf(all), tc.want)
		}
	}
}

func languagesOf(ts []Trace) []Language {
	var out []Language
	for _, t := range ts {
		out = append(out, t.Language)
	}
	return out
}

// ParseAll keeps every dialect of a report that quotes two traces.
func TestParseAll(t *testing.T) {
	report := `Checkout fails in the browser, and the server logs a traceback.

Uncaught TypeError: items is undefined
handleClick@http://localhost:3000/static/js/cart.js:120:15

Traceback (most recent call last):
  File "/srv/shop/api/cart.py", line 31, in total
    return sum(i.price for i in items)
TypeError: 'NoneType' object is not iterable`
	all := ParseAll(report)
	var got []string
	for _, tr := range all {
		for _, f := range tr.Frames {
			got = append(got, fmt.Sprintf("%s %s line %d", tr.Language, brief(f), f.TextLine))
		}
	}
	want := []string{
		"python /srv/shop/api/cart.py:31 total line 6",
		"javascript static/js/cart.js:120 handleClick line 3",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("ParseAll (-want +got):\n%s", d)
	}
	if tr := Parse(report, Auto); tr.Language != Python {
		t.Errorf("Parse keeps %s, want the dialect with the most (python)", tr.Language)
	}
	if all := ParseAll("nothing to see here\nTypeError: x"); len(all) != 0 {
		t.Errorf("no frames, yet %d traces", len(all))
	}
}

// Every frame's TextLine is the line that names its file, no line gives
// frames to two dialects, and skipped lines are not frames' lines.
func TestTextLine(t *testing.T) {
	for _, group := range allCases {
		for _, tc := range group {
			lines := strings.Split(tc.text, "\n")
			owner := map[int]Language{}
			for _, tr := range ParseAll(tc.text) {
				for _, f := range tr.Frames {
					if f.TextLine < 0 || f.TextLine >= len(lines) {
						t.Fatalf("%s: frame %s at line %d of %d", tc.name, brief(f), f.TextLine, len(lines))
					}
					line := strings.ReplaceAll(lines[f.TextLine], "\\", "/")
					if base := f.File[strings.LastIndexByte(f.File, '/')+1:]; !strings.Contains(line, base) {
						t.Errorf("%s: frame %s read from %q", tc.name, brief(f), line)
					}
					if l, ok := owner[f.TextLine]; ok && l != tr.Language {
						t.Errorf("%s: line %d read by %s and %s", tc.name, f.TextLine, l, tr.Language)
					}
					owner[f.TextLine] = tr.Language
				}
			}
		}
	}
	// The other goroutines of a panic dump are skipped, line by line.
	tr := Parse(goCases[1].text, Auto)
	if d := cmp.Diff([]int{15, 19}, tr.Skipped); d != "" {
		t.Errorf("go skipped lines (-want +got):\n%s", d)
	}
	jv := Parse(javaCases[1].text, Auto)
	if d := cmp.Diff([]int{6}, jv.Skipped); d != "" {
		t.Errorf("java skipped lines (-want +got):\n%s", d)
	}
}
