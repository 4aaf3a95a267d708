package query

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/stacktrace"
	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// threeFileTrace goes payments.charge → middleware.require_session →
// session.lookup, printed on another machine (a CI checkout's paths).
const threeFileTrace = `Traceback (most recent call last):
  File "/home/ci/builds/shop/backend/payments.py", line 6, in charge
    request = require_session(store, request)
  File "/home/ci/builds/shop/backend/middleware.py", line 6, in require_session
    user = store.lookup(request.headers.get("token"))
  File "/home/ci/builds/shop/backend/session.py", line 16, in lookup
    entry = self.sessions.get(token)
AttributeError: 'NoneType' object has no attribute 'get'`

// suspectsOf returns the suspects' node ids, lines and external flags.
func suspectsOf(t *testing.T, out map[string]any) []string {
	t.Helper()
	var got []string
	for _, s := range out["suspects"].([]any) {
		m := s.(map[string]any)
		e := fmt.Sprintf("%s:%v", m["node_id"], m["line"])
		if m["external"] == true {
			e += " [ext]"
		}
		got = append(got, e)
	}
	return got
}

func TestTraceMapsFramesToNodes(t *testing.T) {
	t.Parallel()
	d, root := tooltest.IngestedFixture(t)
	for _, tc := range []struct {
		name, text, lang string
		want             []string
		match            string
		chain            []any
	}{
		{
			name: "another machine's absolute paths", text: threeFileTrace, lang: "python",
			want: []string{
				"file::backend/session.py::SessionStore::lookup:16",
				"file::backend/middleware.py::require_session:6",
				"file::backend/payments.py::charge:6",
			},
			match: "suffix",
			chain: []any{"backend/session.py::SessionStore::lookup", "backend/middleware.py::require_session", "backend/payments.py::charge"},
		},
		{
			name: "paths inside the ingest root",
			text: strings.ReplaceAll(threeFileTrace, "/home/ci/builds/shop", root),
			want: []string{
				"file::backend/session.py::SessionStore::lookup:16",
				"file::backend/middleware.py::require_session:6",
				"file::backend/payments.py::charge:6",
			},
			match: "exact",
		},
		{
			name:  "relative paths, module-level line, language detected",
			text:  "Traceback (most recent call last):\n  File \"backend/auth.py\", line 17, in login\n  File \"backend/config.py\", line 2, in <module>\nNameError: name 'x' is not defined",
			want:  []string{"file::backend/config.py:2", "file::backend/auth.py::AuthService::login:17"},
			match: "exact",
		},
		{
			name:  "a pytest report naming a file by its base name",
			text:  "test_session.py:6: in test_session_expires\n    assert store.lookup(\"x\") is None\nE   AssertionError: assert 'u' is None",
			want:  []string{"file::tests/test_session.py::test_session_expires:6"},
			match: "suffix",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := map[string]any{"agent_id": "t", "error_text": tc.text}
			if tc.lang != "" {
				args["language"] = tc.lang
			}
			out := tooltest.MustCall(t, d, "trace", args)
			if diff := cmp.Diff(tc.want, suspectsOf(t, out)); diff != "" {
				t.Errorf("suspects (-want +got):\n%s", diff)
			}
			top := out["suspects"].([]any)[0].(map[string]any)
			if top["match"] != tc.match {
				t.Errorf("match %v, want %s", top["match"], tc.match)
			}
			if tc.chain != nil {
				if diff := cmp.Diff(tc.chain, out["causal_chain"]); diff != "" {
					t.Errorf("causal chain (-want +got):\n%s", diff)
				}
			}
			if out["proof_state"] != "proving" || out["next_suggested_tool"] != "view" {
				t.Errorf("guidance %v / %v", out["proof_state"], out["next_suggested_tool"])
			}
		})
	}
}

// Library frames between project frames are demoted: the project frame
// nearest the error leads, and frames the graph cannot hold are listed as
// unmapped with why.
func TestTraceDemotesExternalFrames(t *testing.T) {
	t.Parallel()
	d, _ := tooltest.IngestedFixture(t)
	text := `Traceback (most recent call last):
  File "/srv/app/backend/auth.py", line 13, in validate_credentials
    digest = hash_password(password)
  File "/srv/app/backend/crypto.py", line 6, in hash_password
    return hashlib.sha256(password.encode()).hexdigest()
  File "/srv/app/.venv/lib/python3.12/site-packages/passlib/crypto.py", line 88, in sha256
    return _hash(data)
  File "/usr/lib/python3.12/hashlib.py", line 12, in _hash
TypeError: Strings must be encoded before hashing`
	out := tooltest.MustCall(t, d, "trace", map[string]any{"agent_id": "t", "error_text": text})
	want := []string{"file::backend/crypto.py::hash_password:6", "file::backend/auth.py::AuthService::validate_credentials:13"}
	if diff := cmp.Diff(want, suspectsOf(t, out)); diff != "" {
		t.Errorf("suspects (-want +got):\n%s", diff)
	}
	un := out["unmapped_frames"].([]any)
	if len(un) != 2 {
		t.Fatalf("unmapped %v", un)
	}
	for _, u := range un {
		m := u.(map[string]any)
		if m["external"] != true || !strings.HasPrefix(m["reason"].(string), "external") {
			t.Errorf("unmapped frame %v: want external with a reason", m)
		}
	}
	if out["frames_parsed"] != 4.0 || out["frames_mapped"] != 2.0 {
		t.Errorf("parsed %v mapped %v", out["frames_parsed"], out["frames_mapped"])
	}
}

// Mapped external frames (vendored code in the graph) rank after every
// project frame, even nearer the error and more central.
func TestTraceExternalNeverLeads(t *testing.T) {
	t.Parallel()
	d, _ := tooltest.IngestedFixture(t)
	err := d.Session.Read(t.Context(), func(b *session.Bundle) error {
		g := b.Graph
		id := func(x string) graph.NodeID {
			n, ok := g.Lookup(x)
			if !ok {
				t.Fatalf("no node %s", x)
			}
			return n
		}
		store, lookup := id("file::backend/session.py"), id("file::backend/session.py::SessionStore::lookup")
		pay, charge := id("file::backend/payments.py"), id("file::backend/payments.py::charge")
		tr := stacktrace.Trace{Frames: []stacktrace.Frame{{Line: 16}, {Line: 6}}}
		hits := []frameHit{
			{ok: true, node: lookup, file: store, match: "exact", conf: 1, external: true},
			{ok: true, node: charge, file: pay, match: "partial", conf: 0.6},
		}
		sus := rankSuspects(g, b.History(), 0, tr, hits)
		if len(sus) != 2 || sus[0].node != charge || sus[1].node != lookup || sus[1].score >= sus[0].score {
			t.Errorf("ranking: %s %.3f, %s %.3f", g.ExternalID(sus[0].node), sus[0].score, g.ExternalID(sus[1].node), sus[1].score)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestTraceCoChangeSuspects(t *testing.T) {
	t.Parallel()
	d, _ := tooltest.IngestedFixture(t)
	// auth.py changed with session.py, crypto.py and tests/test_auth.py.
	out := tooltest.MustCall(t, d, "trace", map[string]any{"agent_id": "t", "error_text": "Traceback (most recent call last):\n  File \"backend/auth.py\", line 17, in login\nPermissionError: bad credentials"})
	var got []string
	for _, c := range out["co_change_suspects"].([]any) {
		got = append(got, c.(map[string]any)["node_id"].(string))
	}
	want := []string{"file::backend/crypto.py", "file::backend/session.py", "file::tests/test_auth.py"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("co-change suspects (-want +got):\n%s", diff)
	}
	scope := out["fix_scope"].(map[string]any)["files_to_inspect"].([]any)
	if len(scope) != 4 || scope[0] != "backend/auth.py" {
		t.Errorf("files_to_inspect %v", scope)
	}
}

// TestTraceGolden pins one whole answer.
func TestTraceGolden(t *testing.T) {
	t.Parallel()
	d, root := tooltest.IngestedFixture(t)
	out := tooltest.MustCall(t, d, "trace", map[string]any{"agent_id": "golden", "error_text": threeFileTrace, "top_k": 5})
	tooltest.CheckGolden(t, "trace", out, root)
}

// Frames that name no file of the graph: an answer, not an error, that
// says so and sends the agent to seek.
func TestTraceNothingMapped(t *testing.T) {
	t.Parallel()
	d, _ := tooltest.IngestedFixture(t)
	out := tooltest.MustCall(t, d, "trace", map[string]any{"agent_id": "t", "error_text": "panic: boom\n\ngoroutine 1 [running]:\nmain.main()\n\t/src/other/main.go:9 +0x1d"})
	if len(out["suspects"].([]any)) != 0 || out["proof_state"] != "triaging" || out["next_suggested_tool"] != "seek" {
		t.Errorf("answer %v", out)
	}
	if args, _ := out["next_suggested_args"].(map[string]any); args["query"] != "panic: boom" {
		t.Errorf("next args %v", out["next_suggested_args"])
	}
	if out["language_detected"] != "go" {
		t.Errorf("language %v", out["language_detected"])
	}
}

func TestTraceTeachingErrors(t *testing.T) {
	t.Parallel()
	d, _ := tooltest.IngestedFixture(t)
	for _, tc := range []struct {
		name string
		args map[string]any
		want string // in the error message
	}{
		{"empty", map[string]any{"error_text": "  \n"}, "error_text is empty"},
		{"oversized", map[string]any{"error_text": strings.Repeat("x", traceMaxBytes+1)}, "the limit is"},
		{"no frames", map[string]any{"error_text": "Something went wrong: connection refused"}, "no stack frame found"},
		{"unknown language", map[string]any{"error_text": threeFileTrace, "language": "cobol"}, `language "cobol"`},
		{"missing", map[string]any{}, "error_text"},
		{"top_k", map[string]any{"error_text": threeFileTrace, "top_k": 0}, "top_k"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.args["agent_id"] = "t"
			out, isErr := tooltest.Call(t, d, "trace", tc.args)
			if !isErr {
				t.Fatalf("no error: %v", out)
			}
			if msg, _ := out["error"].(string); !strings.Contains(msg, tc.want) {
				t.Errorf("error %q, want it to mention %q", msg, tc.want)
			}
			if out["hint"] == nil || out["example"] == nil {
				t.Errorf("error without hint or example: %v", out)
			}
		})
	}
	out, _ := tooltest.Call(t, d, "trace", map[string]any{"agent_id": "t", "error_text": "it broke"})
	if details, _ := out["details"].(map[string]any); details["recognised_formats"] == nil || out["suggested_next_step"] == nil {
		t.Errorf("no-frame error lacks formats or a next step: %v", out)
	}
	// The example in every teaching error is itself a valid call.
	raw, _ := json.Marshal(out["example"].(map[string]any)["arguments"])
	var args map[string]any
	json.Unmarshal(raw, &args)
	tooltest.MustCall(t, d, "trace", args)
}

func TestTraceEmptyGraph(t *testing.T) {
	t.Parallel()
	d := tooltest.NewDispatcher(t, session.Config{})
	out, isErr := tooltest.Call(t, d, "trace", map[string]any{"agent_id": "t", "error_text": threeFileTrace})
	if !isErr || !strings.Contains(out["error"].(string), "empty") {
		t.Errorf("empty graph: %v", out)
	}
}

// BenchmarkTrace measures one call through the dispatcher: on the fixture,
// on a generated repository of 2,000 Python files, and with
// M1ND_TRACE_BENCH_ROOT set on that repository (e.g. $(go env GOROOT)/src)
// with a trace through eight of its functions.
func BenchmarkTrace(b *testing.B) {
	b.Run("fixture", func(b *testing.B) {
		d, _ := tooltest.IngestedFixture(b)
		benchTrace(b, d, threeFileTrace)
	})
	b.Run("generated-2000-files", func(b *testing.B) {
		dir := b.TempDir()
		text := writeBenchRepo(b, dir, 2000)
		d := tooltest.NewDispatcher(b, session.Config{})
		tooltest.MustCall(b, d, "ingest", map[string]any{"agent_id": "bench", "path": dir})
		benchTrace(b, d, text)
	})
	if root := os.Getenv("M1ND_TRACE_BENCH_ROOT"); root != "" {
		b.Run("root", func(b *testing.B) {
			cfg := session.DefaultConfig()
			cfg.AllowRoots = []string{root}
			d := tooltest.NewDispatcher(b, cfg)
			tooltest.MustCall(b, d, "ingest", map[string]any{"agent_id": "bench", "path": root})
			benchTrace(b, d, graphTrace(b, d))
		})
	}
}

// graphTrace writes a Python-format trace (the parser does not care about
// the language of the files) through eight functions spread over the
// graph, with the paths of another machine.
func graphTrace(b *testing.B, d *tools.Dispatcher) string {
	var fns []string
	d.Session.Read(b.Context(), func(bd *session.Bundle) error {
		g := bd.Graph
		var all []graph.NodeID
		for i := range g.NumNodes() {
			id := graph.NodeID(i)
			if g.Type(id) == graph.Function && g.Provenance(id).LineStart > 0 {
				all = append(all, id)
			}
		}
		for k := range min(8, len(all)) {
			id := all[k*len(all)/8]
			pv := g.Provenance(id)
			fns = append(fns, fmt.Sprintf("  File \"/build/other/%s\", line %d, in %s\n", pv.SourcePath, pv.LineStart+1, g.Label(id)))
		}
		return nil
	})
	return "Traceback (most recent call last):\n" + strings.Join(fns, "") + "RuntimeError: boom"
}

func benchTrace(b *testing.B, d *tools.Dispatcher, text string) {
	args := map[string]any{"agent_id": "bench", "error_text": text}
	first := tooltest.MustCall(b, d, "trace", args) // builds the per-graph index once
	b.Logf("frames parsed %v, mapped %v, suspects %d", first["frames_parsed"], first["frames_mapped"], len(first["suspects"].([]any)))
	// Wait for what ingest builds in the background (query engine, seek
	// index), so it does not run inside the timed loop.
	d.Session.Read(b.Context(), func(bd *session.Bundle) error {
		d.Session.Engine(bd)
		tools.SeekIndex(d.Session, bd)
		return nil
	})
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		tooltest.MustCall(b, d, "trace", args)
	}
}

// writeBenchRepo writes n Python modules in 40 packages, each with ten
// functions calling into the next module, and returns a trace through
// eight of them.
func writeBenchRepo(b *testing.B, dir string, n int) string {
	var tb strings.Builder
	tb.WriteString("Traceback (most recent call last):\n")
	for i := range n {
		var src strings.Builder
		next := (i + 1) % n
		fmt.Fprintf(&src, "from pkg%d.mod%d import f0\n\n", next%40, next)
		for j := range 10 {
			fmt.Fprintf(&src, "\ndef f%d(x):\n    y = x + %d\n    return f0(y)\n", j, j)
		}
		p := filepath.Join(dir, fmt.Sprintf("pkg%d", i%40), fmt.Sprintf("mod%d.py", i))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src.String()), 0o644); err != nil {
			b.Fatal(err)
		}
		if i%250 == 0 {
			fmt.Fprintf(&tb, "  File \"/deploy/app/pkg%d/mod%d.py\", line %d, in f%d\n    return f0(y)\n", i%40, i, 6+4*(i%10), i%10)
		}
	}
	tb.WriteString("RecursionError: maximum recursion depth exceeded")
	return tb.String()
}

// polyglot is a small repository in the other languages trace reads.
var polyglot = map[string]string{
	"internal/cart/cart.go": `package cart

type Cart struct{ items []int }

// Total sums the items.
func (c *Cart) Total() int {
	n := 0
	for _, it := range c.items {
		n += it
	}
	return n
}
`,
	"src/main/java/com/acme/shop/OrderService.java": `package com.acme.shop;

public class OrderService {
    public void ship(int id) {
        if (id < 0) {
            throw new IllegalStateException("bad id");
        }
    }
}
`,
	"web/src/render.ts": `export function renderPage(name: string): string {
  const title = name.trim();
  return "<h1>" + title + "</h1>";
}
`,
	"src/parser.rs": `pub struct Parser {}

impl Parser {
    pub fn expect_ident(&self) -> String {
        let x: Option<String> = None;
        x.unwrap()
    }
}
`,
}

// Each language's trace, printed on another machine, lands on its
// function in a repository of that language.
func TestTraceOtherLanguages(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for p, src := range polyglot {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	d := tooltest.NewDispatcher(t, session.Config{})
	tooltest.MustCall(t, d, "ingest", map[string]any{"agent_id": "t", "path": dir})
	for _, tc := range []struct{ name, lang, text, want string }{
		{"go", "go", "panic: runtime error: invalid memory address or nil pointer dereference\n\ngoroutine 1 [running]:\ngithub.com/acme/shop/internal/cart.(*Cart).Total(0x0)\n\t/home/runner/work/shop/shop/internal/cart/cart.go:8 +0x1a\nmain.main()\n\t/usr/local/go/src/runtime/proc.go:271 +0x1e5",
			"file::internal/cart/cart.go::Cart::Total:8"},
		{"java", "java", "Exception in thread \"main\" java.lang.RuntimeException: wrapped\n\tat java.base/java.util.ArrayList.forEach(ArrayList.java:1596)\nCaused by: java.lang.IllegalStateException: bad id\n\tat com.acme.shop.OrderService.ship(OrderService.java:6)\n\t... 1 more",
			"file::src/main/java/com/acme/shop/OrderService.java::OrderService::ship:6"},
		{"java frame without a file", "java", "java.lang.IllegalStateException: bad id\n\tat com.acme.shop.OrderService.ship(Unknown Source)\n\tat java.base/java.lang.Thread.run(Thread.java:1583)",
			"file::src/main/java/com/acme/shop/OrderService.java::OrderService::ship:<nil>"},
		{"typescript", "typescript", "TypeError: Cannot read properties of undefined (reading 'trim')\n    at renderPage (file:///Users/ana/site/web/src/render.ts:2:22)\n    at Object.<anonymous> (/Users/ana/site/node_modules/vite/dist/index.js:10:3)",
			"file::web/src/render.ts::renderPage:2"},
		{"rust", "rust", "thread 'main' panicked at src/parser.rs:6:11:\ncalled `Option::unwrap()` on a `None` value\nstack backtrace:\n   0: rust_begin_unwind\n             at /rustc/07dca489ac2d933c78d3c5158e3f43beefeb02ce/library/std/src/panicking.rs:645:5\n   1: shop::parser::Parser::expect_ident\n             at ./src/parser.rs:6:11",
			"file::src/parser.rs::Parser::expect_ident:6"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := tooltest.MustCall(t, d, "trace", map[string]any{"agent_id": "t", "error_text": tc.text})
			if out["language_detected"] != tc.lang {
				t.Errorf("language %v, want %s", out["language_detected"], tc.lang)
			}
			got := suspectsOf(t, out)
			if len(got) == 0 || got[0] != tc.want {
				t.Errorf("suspects %v, want %s first", got, tc.want)
			}
		})
	}
}

// TestTraceCoChangeSuspectsHoldCode: a changelog and an author list that
// change in every commit of the failing file are no suspects of its
// error; the module that changes with it is.
func TestTraceCoChangeSuspectsHoldCode(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(name, body string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tooltest.Git(t, dir, "2024-01-01T00:00:00Z", "init", "-q")
	for i := range 4 {
		write("schema.py", fmt.Sprintf("from fields import make\n\n\ndef load(data):\n    return make(data) + %d\n", i))
		write("fields.py", fmt.Sprintf("def make(data):\n    return len(data) + %d\n", i))
		write("CHANGELOG.md", strings.Repeat("- a change\n", i+1))
		write("AUTHORS.rst", strings.Repeat("someone\n", i+1))
		date := fmt.Sprintf("2024-01-0%dT00:00:00Z", i+2)
		tooltest.Git(t, dir, date, "add", "-A")
		tooltest.Git(t, dir, date, "commit", "-q", "-m", fmt.Sprintf("change %d", i))
	}
	d := tooltest.NewDispatcher(t, session.Config{})
	tooltest.MustCall(t, d, "ingest", map[string]any{"agent_id": "t", "path": dir})
	out := tooltest.MustCall(t, d, "trace", map[string]any{"agent_id": "t", "error_text": "Traceback (most recent call last):\n  File \"schema.py\", line 5, in load\nTypeError: bad data"})
	var got []string
	for _, c := range out["co_change_suspects"].([]any) {
		got = append(got, c.(map[string]any)["node_id"].(string))
	}
	if diff := cmp.Diff([]string{"file::fields.py"}, got); diff != "" {
		t.Errorf("co-change suspects (-want +got):\n%s", diff)
	}
}

// TestTraceNameBeatsAMovedLine: a frame names the function it ran; when
// its line now lies in another function of the file (the file changed
// since the trace), the named function is the suspect, without a claim
// that the line lies in it. A frame whose name matches nothing keeps the
// line's function, and so does a name the line agrees with.
func TestTraceNameBeatsAMovedLine(t *testing.T) {
	t.Parallel()
	d, _ := tooltest.FixtureRepo(t, map[string]string{
		"app/jobs.py": "def added_later():\n    x = 1\n    return x\n\n\ndef run(job):\n    return job.go()\n\n\ndef other():\n    return 2\n",
	})
	for _, c := range []struct {
		frame, want, reason string
	}{
		{`File "app/jobs.py", line 2, in run`, "file::app/jobs.py::run:2", "the trace names run at line 2; the graph has it at lines 6–7"},
		{`File "app/jobs.py", line 7, in run`, "file::app/jobs.py::run:7", "line 7 lies in run (lines 6–7)"},
		{`File "app/jobs.py", line 2, in helper_gone`, "file::app/jobs.py::added_later:2", "line 2 lies in added_later (lines 1–3)"},
	} {
		out := tooltest.MustCall(t, d, "trace", map[string]any{"agent_id": "t", "error_text": "Traceback (most recent call last):\n  " + c.frame + "\nValueError: bad"})
		got := suspectsOf(t, out)
		if len(got) == 0 || got[0] != c.want {
			t.Errorf("%s: suspects %v, want %s first", c.frame, got, c.want)
			continue
		}
		if rs := tooltest.ToText(out["suspects"].([]any)[0].(map[string]any)["reasons"]); !strings.Contains(rs, c.reason) {
			t.Errorf("%s: reasons %s, want %q", c.frame, rs, c.reason)
		}
	}
}

// TestTraceCoreMethodFrameStaysAtItsLine: Ruby reports a core method
// (Array#each) at its caller's line. When another frame of the file lands
// in the function it names, the file's lines are the trace's, so the
// `each` frame is route! calling out, not the project's Stream#each; a
// trace whose frames agree nowhere keeps the name (the file may have
// changed since).
func TestTraceCoreMethodFrameStaysAtItsLine(t *testing.T) {
	t.Parallel()
	d, _ := tooltest.FixtureRepo(t, map[string]string{
		"app/base.rb": "class Stream\n  def each\n    yield 1\n  end\nend\n\nclass Base\n  def route!\n    routes.each do |r|\n      process(r)\n    end\n  end\n\n" +
			"  def process(r)\n    r.go\n  end\nend\n",
	})
	for _, c := range []struct {
		name, text string
		want, not  string
	}{
		{
			name: "the file's other frames agree with its lines",
			text: "app/base.rb:15:in `process': undefined method `go' for nil (NoMethodError)\n\tfrom app/base.rb:10:in `block in route!'\n" +
				"\tfrom app/base.rb:9:in `each'\n\tfrom app/base.rb:9:in `route!'\n",
			want: "file::app/base.rb::Base::route!", not: "file::app/base.rb::Stream::each",
		},
		{
			name: "no frame agrees: the name wins",
			text: "app/base.rb:9:in `each': boom (RuntimeError)\n",
			want: "file::app/base.rb::Stream::each",
		},
	} {
		out := tooltest.MustCall(t, d, "trace", map[string]any{"agent_id": "t", "error_text": c.text})
		got := strings.Join(suspectsOf(t, out), " ")
		if !strings.Contains(got, c.want) || c.not != "" && strings.Contains(got, c.not) {
			t.Errorf("%s: suspects %s, want %s and not %q", c.name, got, c.want, c.not)
		}
	}
}
