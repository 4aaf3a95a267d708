package audit

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// scanFixture is a small Go module and Python package with known issues.
var scanFixture = map[string]string{
	"go.mod": "module example.com/shop\n\ngo 1.21\n",
	"store/store.go": `package store

import (
	"os"
	"strconv"
	"sync"
)

var cache = map[string]int{}

// Store keeps orders.
type Store struct {
	mu    sync.Mutex
	items map[string]int
}

// Load reads a count from a file.
func Load(path string) (int, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	buf := make([]byte, 16)
	n, _ := f.Read(buf)
	v, _ := strconv.Atoi(string(buf[:n]))
	return v, nil
}

// Put stores a value.
func (s *Store) Put(k string, v int) error {
	s.mu.Lock()
	if v < 0 {
		return errNegative
	}
	s.items[k] = v
	s.mu.Unlock()
	cache[k] = v
	return nil
}

// Fanout marks every key.
func Fanout(keys []string) {
	for _, k := range keys {
		go func() {
			cache[k] = 1
		}()
	}
}
`,
	"store/store_test.go": `package store

import "testing"

func TestLoad(t *testing.T) {
	t.Parallel()
	if _, err := Load("x"); err == nil {
		t.Fatal("want error")
	}
}
`,
	"api/api.go": `package api

import (
	"net/http"

	"example.com/shop/store"
)

// Routes registers the handlers.
func Routes(mux *http.ServeMux) {
	mux.HandleFunc("/admin/orders", requireAuth(listOrders))
	mux.HandleFunc("POST /admin/delete", deleteOrder)
}

func requireAuth(h http.HandlerFunc) http.HandlerFunc { return h }

func listOrders(w http.ResponseWriter, r *http.Request) {}

func deleteOrder(w http.ResponseWriter, r *http.Request) {
	store.Load("orders")
}
`,
	"app/__init__.py": "",
	"app/service.py": `import requests

_registry = {}


def register(name, fn):
    _registry[name] = fn


def fetch(url):
    try:
        return requests.get(url).json()
    except:
        return None


def read_config(path):
    f = open(path)
    return f.read()


class Client:
    def __init__(self):
        self.session = HttpSession()

    def call(self, items=[]):
        items.append(1)
        return items
`,
	"tests/test_service.py": `from app.service import register


def test_register():
    register("a", print)
`,
}

func scanDispatcher(t testing.TB) (*tools.Dispatcher, string) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "shop")
	for p, body := range scanFixture {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	d := tooltest.NewDispatcher(t, tooltest.TestConfig())
	tooltest.MustCall(t, d, "ingest", map[string]any{"agent_id": "t", "path": dir})
	return d, dir
}

// decodeAs converts a tool's JSON answer into the output type.
func decodeAs[T any](t testing.TB, v map[string]any) T {
	t.Helper()
	var out T
	b, _ := json.Marshal(v)
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// scanBrief is the part of a finding the golden answers pin down.
type scanBrief struct {
	At       string // file:line:column
	Rule     string
	Status   string
	Severity float64
	NodeID   string
	Subject  string
}

func briefs(fs []scanFinding) []scanBrief {
	out := []scanBrief{}
	for _, f := range fs {
		out = append(out, scanBrief{At: tools.FmtLines(f.FilePath, f.Line) + ":" + itoa(f.Column), Rule: f.Rule, Status: f.Status, Severity: f.Severity, NodeID: f.NodeID, Subject: f.Subject})
	}
	return out
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

func TestScanFindings(t *testing.T) {
	t.Parallel()
	d, _ := scanDispatcher(t)
	cases := []struct {
		name string
		args map[string]any
		want []scanBrief
	}{
		{"error handling", map[string]any{"pattern": "error_handling"}, []scanBrief{
			{"app/service.py:13:5", "py/bare-except", "confirmed", 0.8, "file::app/service.py::fetch", ""},
			{"store/store.go:24:2", "go/discarded-error", "confirmed", 0.6, "file::store/store.go::Load", ""},
			{"store/store.go:25:2", "go/discarded-error", "confirmed", 0.6, "file::store/store.go::Load", ""},
		}},
		{"resources", map[string]any{"pattern": "resource_cleanup"}, []scanBrief{
			{"app/service.py:18:5", "py/unclosed-resource", "confirmed", 0.65, "file::app/service.py::read_config", "f"},
			{"store/store.go:19:2", "go/unclosed-resource", "confirmed", 0.75, "file::store/store.go::Load", "f"},
			{"store/store.go:31:2", "go/lock-not-released", "confirmed", 0.7, "file::store/store.go::Store::Put", "s.mu"},
		}},
		{"concurrency, go 1.21", map[string]any{"pattern": "concurrency"}, []scanBrief{
			{"store/store.go:44:3", "go/loop-variable-capture", "confirmed", 0.8, "file::store/store.go::Fanout", "k"},
			{"store/store.go:45:4", "go/unsynchronized-write", "confirmed", 0.5, "file::store/store.go::Fanout", "cache"},
		}},
		{"auth: the handler is checked", map[string]any{"pattern": "auth_boundary"}, []scanBrief{
			{"api/api.go:12:2", "go/route-without-auth", "confirmed", 0.8, "file::api/api.go::Routes", "POST /admin/delete"},
		}},
		{"tests: called by a test is refuted, a tested file mitigates", map[string]any{"pattern": "test_coverage", "severity_min": 0}, []scanBrief{
			{"api/api.go:10:6", "go/untested-export", "confirmed", 0.55, "file::api/api.go::Routes", "Routes"},
			{"app/service.py:10:5", "py/untested-public", "mitigated", 0.25, "file::app/service.py::fetch", "fetch"},
			{"app/service.py:17:5", "py/untested-public", "mitigated", 0.25, "file::app/service.py::read_config", "read_config"},
			{"app/service.py:26:9", "py/untested-public", "mitigated", 0.25, "file::app/service.py::Client::call", "Client.call"},
			{"store/store.go:30:17", "go/untested-export", "mitigated", 0.25, "file::store/store.go::Store::Put", "Store.Put"},
			{"store/store.go:42:6", "go/untested-export", "mitigated", 0.25, "file::store/store.go::Fanout", "Fanout"},
		}},
		{"raw matches", map[string]any{"pattern": "test_coverage", "graph_validate": false}, []scanBrief{
			{"api/api.go:10:6", "go/untested-export", "unvalidated", 0.4, "file::api/api.go::Routes", "Routes"},
			{"app/service.py:6:5", "py/untested-public", "unvalidated", 0.4, "file::app/service.py::register", "register"},
			{"app/service.py:10:5", "py/untested-public", "unvalidated", 0.4, "file::app/service.py::fetch", "fetch"},
			{"app/service.py:17:5", "py/untested-public", "unvalidated", 0.4, "file::app/service.py::read_config", "read_config"},
			{"app/service.py:26:9", "py/untested-public", "unvalidated", 0.4, "file::app/service.py::Client::call", "Client.call"},
			{"store/store.go:18:6", "go/untested-export", "unvalidated", 0.4, "file::store/store.go::Load", "Load"},
			{"store/store.go:30:17", "go/untested-export", "unvalidated", 0.4, "file::store/store.go::Store::Put", "Store.Put"},
			{"store/store.go:42:6", "go/untested-export", "unvalidated", 0.4, "file::store/store.go::Fanout", "Fanout"},
		}},
		{"state, scoped to a directory", map[string]any{"pattern": "state_mutation", "scope": "app/"}, []scanBrief{
			{"app/service.py:7:5", "py/module-state-mutated", "confirmed", 0.4, "file::app/service.py::register", "_registry"},
			{"app/service.py:26:20", "py/mutable-default", "confirmed", 0.75, "file::app/service.py::Client::call", "items"},
		}},
		{"scoped to a node", map[string]any{"pattern": "error_handling", "scope": "file::store/store.go::Load", "limit": 1}, []scanBrief{
			{"store/store.go:24:2", "go/discarded-error", "confirmed", 0.6, "file::store/store.go::Load", ""},
		}},
		{"custom query", map[string]any{"pattern": `(call_expression function: (selector_expression field: (field_identifier) @f (#eq? @f "Atoi"))) @match`}, []scanBrief{
			{"store/store.go:25:10", "custom/query", "confirmed", 0.55, "file::store/store.go::Load", ""},
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.args["agent_id"] = "t"
			out := decodeAs[scanOutput](t, tooltest.MustCall(t, d, "scan", c.args))
			if diff := cmp.Diff(c.want, briefs(out.Findings)); diff != "" {
				t.Errorf("scan %v (-want +got):\n%s\n%+v", c.args, diff, out.Findings)
			}
			for _, f := range out.Findings {
				if f.Message == "" || f.Snippet == "" || f.Level == "" || f.GraphContext == nil {
					t.Errorf("incomplete finding %+v", f)
				}
			}
		})
	}
}

func TestScanCountsAndGuidance(t *testing.T) {
	t.Parallel()
	d, _ := scanDispatcher(t)
	out := decodeAs[scanOutput](t, tooltest.MustCall(t, d, "scan", map[string]any{"agent_id": "t", "pattern": "test_coverage"}))
	want := scanCounts{TotalMatchesRaw: 8, TotalMatchesValidated: 6, FalsePositives: 2, BelowSeverityMin: 5}
	if diff := cmp.Diff(want, out.scanCounts); diff != "" || out.FilesScanned != 6 {
		t.Errorf("counts (-want +got):\n%s\nfiles %d", diff, out.FilesScanned)
	}
	if out.ProofState != "proving" || out.NextSuggestedTool != "view" || out.NextSuggestedTarget != "api/api.go:10" {
		t.Errorf("guidance %+v", out.Guidance)
	}
	limited := decodeAs[scanOutput](t, tooltest.MustCall(t, d, "scan", map[string]any{"agent_id": "t", "pattern": "error_handling", "limit": 1}))
	if len(limited.Findings) != 1 || !limited.Truncated || limited.Findings[0].Rule != "py/bare-except" {
		t.Errorf("limit keeps the most severe: %+v", limited.Findings)
	}
	none := decodeAs[scanOutput](t, tooltest.MustCall(t, d, "scan", map[string]any{"agent_id": "t", "pattern": "dependency_injection", "scope": "store/"}))
	if len(none.Findings) != 0 || none.ProofState != "triaging" || none.NextSuggestedTool != "scan_all" {
		t.Errorf("empty answer guidance %+v", none)
	}

	all := decodeAs[scanAllOutput](t, tooltest.MustCall(t, d, "scan_all", map[string]any{"agent_id": "t", "patterns": []string{"concurrency", "error_handling"}, "limit_per_pattern": 2}))
	if len(all.Patterns) != 2 || all.Patterns[0].Pattern != "error_handling" || all.Patterns[1].Pattern != "concurrency" {
		t.Fatalf("groups %+v", all.Patterns)
	}
	if len(all.Patterns[0].Findings) != 2 || !all.Patterns[0].Truncated || all.TotalFindings != 4 || all.TotalMatchesRaw != 6 {
		t.Errorf("scan_all %+v", all)
	}
	if all.NextSuggestedTool != "batch_view" && all.NextSuggestedTool != "view" {
		t.Errorf("scan_all guidance %+v", all.Guidance)
	}
	// One pass answers like the single-pattern scans.
	one := decodeAs[scanOutput](t, tooltest.MustCall(t, d, "scan", map[string]any{"agent_id": "t", "pattern": "concurrency"}))
	if diff := cmp.Diff(one.Findings, all.Patterns[1].Findings); diff != "" {
		t.Errorf("scan_all's concurrency group differs from scan's (-scan +scan_all):\n%s", diff)
	}
}

func TestScanIsDeterministic(t *testing.T) {
	t.Parallel()
	d, _ := scanDispatcher(t)
	args := map[string]any{"agent_id": "t", "severity_min": 0, "limit_per_pattern": 1000}
	first := tooltest.Stable(tooltest.MustCall(t, d, "scan_all", args), "")
	for range 3 {
		if diff := cmp.Diff(first, tooltest.Stable(tooltest.MustCall(t, d, "scan_all", args), "")); diff != "" {
			t.Fatalf("scan_all answers differ:\n%s", diff)
		}
	}
}

func TestScanSkipsFilesChangedSinceIngest(t *testing.T) {
	t.Parallel()
	d, dir := scanDispatcher(t)
	p := filepath.Join(dir, "store", "store.go")
	data, _ := os.ReadFile(p)
	if err := os.WriteFile(p, append([]byte("// edited\n"), data...), 0o644); err != nil {
		t.Fatal(err)
	}
	future := time.Now().Add(time.Hour)
	os.Chtimes(p, future, future)
	out := decodeAs[scanOutput](t, tooltest.MustCall(t, d, "scan", map[string]any{"agent_id": "t", "pattern": "resource_cleanup"}))
	if out.FilesSkipped["changed_since_ingest"] != 1 || out.FilesScanned != 5 {
		t.Errorf("skipped %v, scanned %d", out.FilesSkipped, out.FilesScanned)
	}
	for _, f := range out.Findings {
		if f.FilePath == "store/store.go" {
			t.Errorf("finding in a file changed since ingest: %+v", f)
		}
	}
}

func TestScanTeachingErrors(t *testing.T) {
	t.Parallel()
	d, _ := scanDispatcher(t)
	cases := []struct {
		tool string
		args map[string]any
		want []string // substrings of the error JSON
	}{
		{"scan", map[string]any{"pattern": "error-handling"}, []string{`unknown pattern \"error-handling\"`, `"did_you_mean":"error_handling"`, "resource_cleanup", "dependency_injection"}},
		{"scan", map[string]any{"pattern": "everything"}, []string{"unknown pattern", "valid_patterns", "tree-sitter query"}},
		{"scan", map[string]any{"pattern": "(no_such_kind) @x"}, []string{"not a valid custom query", "@match"}},
		{"scan", map[string]any{"pattern": "error_handling", "severity_min": 1.5}, []string{"severity_min", "got 1.5", "0 to 1"}},
		{"scan", map[string]any{"pattern": "error_handling", "severity_min": "high"}, []string{"severity_min", "must be number"}},
		{"scan", map[string]any{"pattern": "error_handling", "scope": "backend/"}, []string{`scope \"backend/\" matches no indexed file`, "glob"}},
		{"scan", map[string]any{"pattern": "error_handling", "scope": "stroe/"}, []string{"matches no indexed file", `"did_you_mean":["store/"]`}},
		{"scan", map[string]any{"pattern": "error_handling", "scope": "file::store/store.go::Lod"}, []string{"scope", "is not a node of the graph", "seek"}},
		{"scan", map[string]any{"pattern": "error_handling", "limit": 0}, []string{"limit", "got 0"}},
		{"scan_all", map[string]any{"patterns": []string{"error_handling", "bogus"}}, []string{"patterns", "bogus", "concurrency"}},
	}
	for _, c := range cases {
		c.args["agent_id"] = "t"
		out, isErr := tooltest.Call(t, d, c.tool, c.args)
		text, _ := json.Marshal(out)
		if !isErr {
			t.Errorf("%s %v: no error: %s", c.tool, c.args, text)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(string(text), w) {
				t.Errorf("%s %v: error lacks %q: %s", c.tool, c.args, w, text)
			}
		}
	}
	// Nothing ingested: ingest first.
	empty := tooltest.NewDispatcher(t, tooltest.TestConfig())
	out, isErr := tooltest.Call(t, empty, "scan", map[string]any{"agent_id": "t", "pattern": "error_handling"})
	if text, _ := json.Marshal(out); !isErr || !strings.Contains(string(text), "ingest") {
		t.Errorf("empty session: %s", text)
	}
}

// BenchmarkScanAll scans net/http of the Go tree (every pattern, graph
// validation on) through the tool. The first call parses every file
// (cold-ms); later calls reuse the bundle's per-file findings while the
// files are unchanged (ns/op).
func BenchmarkScanAll(b *testing.B) {
	dir := filepath.Join(runtime.GOROOT(), "src", "net", "http")
	if _, err := os.Stat(dir); err != nil {
		b.Skip("no Go source tree")
	}
	cfg := tooltest.TestConfig()
	cfg.AllowRoots = append(cfg.AllowRoots, dir)
	d := tooltest.NewDispatcher(b, cfg)
	tooltest.MustCall(b, d, "ingest", map[string]any{"agent_id": "b", "path": dir})
	args := map[string]any{"agent_id": "b"}
	start := time.Now()
	out := tooltest.MustCall(b, d, "scan_all", args)
	cold := time.Since(start)
	for b.Loop() {
		out = tooltest.MustCall(b, d, "scan_all", args)
	}
	b.ReportMetric(out["files_scanned"].(float64), "files")
	b.ReportMetric(out["total_matches_raw"].(float64), "matches")
	b.ReportMetric(float64(cold.Milliseconds()), "cold-ms")
}

func TestScanDump(t *testing.T) {
	t.Parallel()
	if os.Getenv("SCAN_DUMP") == "" {
		t.Skip()
	}
	d, _ := scanDispatcher(t)
	out := tooltest.MustCall(t, d, "scan_all", map[string]any{"agent_id": "t", "severity_min": 0})
	b, _ := json.MarshalIndent(out, "", " ")
	t.Log(string(b))
}
