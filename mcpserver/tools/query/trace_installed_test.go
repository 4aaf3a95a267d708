package query

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// Frames from an installed copy of the ingested project (site-packages,
// the Go module cache, node_modules) map back to its files by package
// path; other libraries stay external.
func TestTraceInstalledCopyMapsBack(t *testing.T) {
	t.Parallel()
	d, _ := tooltest.FixtureRepo(t, map[string]string{
		"py/src/flask/__init__.py": "from .app import Flask\n",
		"py/src/flask/app.py":      "class Flask:\n    def route(self, rule):\n        return rule\n\n    def run(self):\n        return self.route('/')\n",
		"go.mod":                   "module github.com/Gin-Gonic/gin\n\ngo 1.21\n",
		"tree.go":                  "package gin\n\nfunc getValue(p string) string {\n\treturn p\n}\n",
		"binding/json.go":          "package binding\n\nfunc Decode(s string) string {\n\treturn s\n}\n",
		"web/package.json":         `{"name": "@acme/widgets", "version": "1.0.0"}`,
		"web/lib/index.js":         "function render(x) {\n  return x;\n}\nmodule.exports = { render };\n",
		"ts/package.json":          `{"name": "zod", "version": "4.0.0"}`,
		"ts/src/index.ts":          "export { parse } from \"./v4/classic/parse\";\n",
		"ts/src/v4/classic/parse.ts": "// parse checks.\n\nexport function parse(schema: unknown, data: unknown) {\n  return check(schema, data);\n}\n\n" +
			"function check(s: unknown, d: unknown) {\n  return d;\n}\n",
		"php/src/Uri.php":            "<?php\nnamespace GuzzleHttp\\Psr7;\n\nclass Uri\n{\n    public function __construct(string $uri = '')\n    {\n        throw new \\InvalidArgumentException('bad');\n    }\n}\n",
		"kyp/package.json":           `{"name": "ky", "main": "./distribution/index.js", "exports": {"types": "./distribution/index.d.ts", "default": "./distribution/index.js"}}`,
		"kyp/source/core/Ky.ts":      "export class Ky {\n  static create(input: string) {\n    return new Ky(input).fetch();\n  }\n}\n",
		"kyp/source/core/request.ts": "export class Request {\n  flush() {\n    this.other();\n  }\n  _beforeError(e: Error) {\n    return e;\n  }\n  other() {\n    return 1;\n  }\n}\n",
		"rb/lib/shop/cart.rb":        "module Shop\n  class Cart\n    def total\n      raise ArgumentError, 'no price'\n    end\n  end\nend\n",
		"rs/Cargo.toml":              "[package]\nname = \"walk-dir\"\nversion = \"2.5.0\"\n\n[dependencies]\nname = \"x\"\n",
		"rs/src/lib.rs":              "pub struct IntoIter {}\n\nimpl IntoIter {\n    fn handle_entry(&self) {\n        let x: Option<u8> = None;\n        x.unwrap();\n    }\n}\n",
	})
	for _, tc := range []struct {
		name, text   string
		want         []string
		otherVersion bool // the frame's line lies outside the named function
	}{
		{
			name: "site-packages",
			text: "Traceback (most recent call last):\n  File \"/srv/.venv/lib/python3.12/site-packages/flask/app.py\", line 6, in run\n    return self.route('/')\n  File \"/srv/.venv/lib/python3.12/site-packages/werkzeug/routing.py\", line 3, in route\nValueError: bad rule",
			want: []string{"file::py/src/flask/app.py::Flask::run:6"},
		},
		{
			name:         "site-packages of another version: the function's name wins over the line",
			text:         "Traceback (most recent call last):\n  File \"/srv/.venv/lib/python3.12/site-packages/flask/app.py\", line 2, in run\n    return self.route('/')\n  File \"/srv/.venv/lib/python3.12/site-packages/werkzeug/routing.py\", line 3, in route\nValueError: bad rule",
			want:         []string{"file::py/src/flask/app.py::Flask::run:2"},
			otherVersion: true,
		},
		{
			name: "Go module cache, escaped capitals, a subpackage",
			text: "panic: boom\n\ngoroutine 1 [running]:\ngithub.com/Gin-Gonic/gin/binding.Decode(...)\n\t/root/go/pkg/mod/github.com/!gin-!gonic/gin@v1.9.1/binding/json.go:4 +0x1d\ngithub.com/Gin-Gonic/gin.getValue(...)\n\t/root/go/pkg/mod/github.com/!gin-!gonic/gin@v1.9.1/tree.go:4 +0x1d\nmain.main()\n\t/home/u/app/main.go:9 +0x25\n",
			want: []string{"file::binding/json.go::Decode:4", "file::tree.go::getValue:4"},
		},
		{
			name: "node_modules, scoped package",
			text: "TypeError: x is undefined\n    at render (/app/node_modules/@acme/widgets/lib/index.js:2:3)\n    at other (/app/node_modules/left-pad/index.js:1:1)\n",
			want: []string{"file::web/lib/index.js::render:2"},
		},
		{
			name: "node_modules, compiled JavaScript of the TypeScript source: by function name",
			// The app's own src/index.ts shares two segments with the
			// project's but defines no main: not the project's file.
			text: "ZodError: bad\n    at Object.parse (/app/node_modules/zod/v4/classic/parse.js:25:15)\n    at main (/app/src/index.ts:12:20)\n",
			want: []string{"file::ts/src/v4/classic/parse.ts::parse:25"},
		},
		{
			name: "node_modules, a build directory the package.json's entry points name, TypeScript under source/",
			text: "HTTPError: 500\n    at Ky.create (/app/node_modules/ky/distribution/core/Ky.js:3:19)\n    at main (/app/node_modules/left-pad/index.js:1:1)\n",
			want: []string{"file::kyp/source/core/Ky.ts::Ky::create:3"},
		},
		{
			// Compiled lines are not the source's: flush's line 3 lands in
			// the source's flush by chance, which made the file's lines
			// "agree" and sent _beforeError (line 9) to other().
			name: "node_modules, compiled JavaScript: names, never the compiled lines",
			text: "HTTPError: 500\n    at Request._beforeError (/app/node_modules/ky/distribution/core/request.js:9:21)\n" +
				"    at Request.flush (/app/node_modules/ky/distribution/core/request.js:3:18)\n" +
				"    at main (/app/node_modules/left-pad/index.js:1:1)\n",
			want: []string{"file::kyp/source/core/request.ts::Request::_beforeError:9", "file::kyp/source/core/request.ts::Request::flush:3"},
		},
		{
			name: "installed gem",
			text: "/usr/local/bundle/gems/shop-1.2.0/lib/shop/cart.rb:4:in `total': no price (ArgumentError)\n" +
				"\tfrom /usr/local/bundle/gems/rack-3.1.8/lib/rack/builder.rb:9:in `call'\n",
			want: []string{"file::rb/lib/shop/cart.rb::Shop::Cart::total:4"},
		},
		{
			name: "composer package",
			text: "PHP Fatal error:  Uncaught InvalidArgumentException: bad in /app/vendor/guzzlehttp/psr7/src/Uri.php:8\nStack trace:\n" +
				"#0 /app/vendor/monolog/monolog/src/Logger.php(3): GuzzleHttp\\Psr7\\Uri->__construct('x')\n#1 {main}\n",
			want: []string{"file::php/src/Uri.php::Uri::__construct:8"},
		},
		{
			name: "Cargo registry (a crate name with a hyphen)",
			text: "thread 'main' panicked at /home/u/.cargo/registry/src/index.crates.io-6f17d22bba15001f/walk-dir-2.5.0/src/lib.rs:6:11:\n" +
				"called `Option::unwrap()` on a `None` value\nstack backtrace:\n" +
				"   3: walk_dir::IntoIter::handle_entry\n             at /home/u/.cargo/registry/src/index.crates.io-6f17d22bba15001f/walk-dir-2.5.0/src/lib.rs:6:11\n" +
				"   4: serde::de::f\n             at /home/u/.cargo/registry/src/index.crates.io-6f17d22bba15001f/serde-1.0.1/src/de.rs:3:1\n",
			want: []string{"file::rs/src/lib.rs::IntoIter::handle_entry:6"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := tooltest.MustCall(t, d, "trace", map[string]any{"agent_id": "t", "error_text": tc.text})
			if diff := cmp.Diff(tc.want, suspectsOf(t, out)); diff != "" {
				t.Errorf("suspects (-want +got):\n%s", diff)
			}
			if tc.otherVersion && !strings.Contains(fmt.Sprint(out["suspects"]), "the installed version's lines differ") {
				t.Errorf("the lead suspect's line lies outside its function: the reasons must say the installed version differs: %v", out["suspects"])
			}
			for _, sp := range out["suspects"].([]any) {
				for _, r := range sp.(map[string]any)["reasons"].([]any) {
					var line, lo, hi int
					var name string
					if n, _ := fmt.Sscanf(r.(string), "line %d lies in %s (lines %d–%d)", &line, &name, &lo, &hi); n == 4 && (line < lo || line > hi) {
						t.Errorf("a reason says what is not so: %q", r)
					}
				}
			}
			if un := out["unmapped_frames"].([]any); len(un) != 1 {
				t.Errorf("want the other library's frame unmapped: %v", un)
			}
		})
	}
}

// A Cargo registry path is a Rust crate's, not the Go runtime's (".cargo"
// holds "go").
func TestExternalKind(t *testing.T) {
	t.Parallel()
	for p, want := range map[string]string{
		"/home/u/.cargo/registry/src/index.crates.io-1/serde-1.0.1/src/de.rs": "a Rust crate dependency",
		"/rustc/abc/library/core/src/panicking.rs":                            "the Rust standard library",
		"/usr/local/go/src/runtime/panic.go":                                  "the Go runtime",
		"/root/go/pkg/mod/github.com/x/y@v1.0.0/z.go":                         "a Go module dependency",
	} {
		if got := externalKind(p); got != want {
			t.Errorf("externalKind(%s) = %q, want %q", p, got, want)
		}
	}
}
