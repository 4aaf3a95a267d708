package audit

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/m1nd-go/m1nd/mcpserver/internal/fixture"
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// listFiles returns the file paths of a cross_verify list.
func listFiles(t *testing.T, out map[string]any, key string) []string {
	t.Helper()
	l, _ := out[key].(map[string]any)
	var ps []string
	for _, f := range l["files"].([]any) {
		ps = append(ps, f.(map[string]any)["file"].(string))
	}
	return ps
}

// cross_verify on the fixture: in sync after the ingest; a file deleted,
// one added, one edited and one only touched are told apart; an
// incremental ingest brings it back in sync.
func TestCrossVerify(t *testing.T) {
	t.Parallel()
	d, root := tooltest.IngestedFixture(t)
	a := map[string]any{"agent_id": "v"}
	out := tooltest.MustCall(t, d, "cross_verify", a)
	if out["verdict"] != "in_sync" || out["in_sync"] != out["graph_files"] || out["next_suggested_tool"] == "ingest" {
		t.Fatalf("fresh ingest not in sync: %v", out)
	}
	tooltest.CheckGolden(t, "cross_verify_in_sync", out, root)

	write := func(rel, body string) {
		t.Helper()
		p := filepath.Join(root, filepath.FromSlash(rel))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Remove(filepath.Join(root, "backend", "crypto.py")); err != nil {
		t.Fatal(err)
	}
	write("backend/audit_log.py", "def record(event):\n    return event\n")
	write("backend/logo.bin", "\x00\x01\x02")                   // binary: ingest skips it
	write("node_modules/dep/index.js", "module.exports = 1;\n") // skipped directory
	sess := filepath.Join(root, "backend", "session.py")
	old, _ := os.ReadFile(sess)
	write("backend/session.py", string(old)+"\n\ndef purge(store):\n    store.sessions.clear()\n")
	cfg := filepath.Join(root, "backend", "config.py")
	later := time.Now().Add(time.Hour)
	if err := os.Chtimes(cfg, later, later); err != nil { // touched, content as ingested
		t.Fatal(err)
	}

	out = tooltest.MustCall(t, d, "cross_verify", a)
	tooltest.CheckGolden(t, "cross_verify_drifted", out, root)
	if out["verdict"] != "drifted" {
		t.Errorf("verdict %v", out["verdict"])
	}
	for key, want := range map[string][]string{
		"missing_on_disk": {"backend/crypto.py"},
		"not_in_graph":    {"backend/audit_log.py"},
		"modified":        {"backend/config.py", "backend/session.py"},
		"loc_drift":       {"backend/session.py"},
	} {
		if got := listFiles(t, out, key); !slices.Equal(got, want) {
			t.Errorf("%s = %v, want %v", key, got, want)
		}
	}
	for _, f := range out["modified"].(map[string]any)["files"].([]any) {
		m := f.(map[string]any)
		want := map[string]string{"backend/config.py": "unchanged", "backend/session.py": "changed"}[m["file"].(string)]
		if m["content"] != want {
			t.Errorf("%s: content %v, want %v", m["file"], m["content"], want)
		}
	}
	act, _ := out["suggested_action"].(map[string]any)
	args, _ := act["arguments"].(map[string]any)
	if act["tool"] != "ingest" || args["path"] != root || args["incremental"] != true || out["next_suggested_tool"] != "ingest" {
		t.Errorf("suggested action %v, next %v", act, out["next_suggested_tool"])
	}

	// Scope and checks narrow the work.
	out = tooltest.MustCall(t, d, "cross_verify", map[string]any{"agent_id": "v", "scope": "tests/"})
	if out["verdict"] != "in_sync" || out["graph_files"] != 2.0 {
		t.Errorf("scope tests/: %v files, verdict %v", out["graph_files"], out["verdict"])
	}
	out = tooltest.MustCall(t, d, "cross_verify", map[string]any{"agent_id": "v", "check": []string{"existence"}})
	if n := out["loc_drift"].(map[string]any)["count"]; n != 0.0 || len(listFiles(t, out, "missing_on_disk")) != 1 {
		t.Errorf("existence only: loc_drift %v, missing %v", n, listFiles(t, out, "missing_on_disk"))
	}

	// Following the suggestion repairs the graph.
	tooltest.MustCall(t, d, "ingest", args)
	out = tooltest.MustCall(t, d, "cross_verify", a)
	if out["verdict"] != "in_sync" {
		t.Errorf("after the incremental ingest: %v", out)
	}
}

func TestAuditBadInput(t *testing.T) {
	t.Parallel()
	d, _ := tooltest.FsSetup(t)
	for _, tc := range []struct {
		tool  string
		args  map[string]any
		wants []string
	}{
		{"cross_verify", map[string]any{"check": []string{}}, []string{"check is empty", "existence"}},
		{"cross_verify", map[string]any{"check": []string{"size"}}, []string{"existence, loc, hash"}},
		{"cross_verify", map[string]any{"scope": "../elsewhere"}, []string{"climbs out"}},
		{"cross_verify", map[string]any{"limit": 0}, []string{">= 1"}},
		{"coverage_session", map[string]any{"scope": "/etc"}, []string{"outside every ingest root"}},
		{"coverage_session", map[string]any{"top_k": 1000}, []string{"<= 100"}},
		{"external_references", map[string]any{"kinds": []string{}}, []string{"kinds is empty", "url"}},
		{"external_references", map[string]any{"kinds": []string{"secrets"}}, []string{"absolute_path"}},
		{"external_references", map[string]any{"scope": "app/[x"}, []string{"not a valid glob"}},
	} {
		tooltest.FsErr(t, d, tc.tool, tc.args, tc.wants...)
	}
	empty := tooltest.NewDispatcher(t, tooltest.TestConfig())
	tooltest.FsErr(t, empty, "cross_verify", map[string]any{}, "ingest")
	tooltest.FsErr(t, empty, "external_references", map[string]any{}, "ingest")
	// Coverage on an empty graph is an empty report that says to ingest.
	out := tooltest.FsOK(t, empty, "coverage_session", map[string]any{})
	if out["graph_files"] != 0.0 || out["next_suggested_tool"] != "ingest" {
		t.Errorf("coverage on nothing: %v", out)
	}
}

// coverage_session follows what one agent read (view, batch_view) and was
// shown (impact), apart from other agents.
func TestCoverageSession(t *testing.T) {
	t.Parallel()
	d, root := tooltest.IngestedFixture(t)
	cov := func(agent string, extra map[string]any) map[string]any {
		args := map[string]any{"agent_id": agent}
		for k, v := range extra {
			args[k] = v
		}
		return tooltest.MustCall(t, d, "coverage_session", args)
	}
	out := cov("a", nil)
	if out["calls"] != 0.0 || out["files_read"] != 0.0 || out["next_suggested_tool"] != "batch_view" || len(out["unvisited_hubs"].([]any)) == 0 {
		t.Fatalf("fresh coverage: %v", out)
	}
	tooltest.MustCall(t, d, "view", map[string]any{"agent_id": "a", "file_path": "backend/auth.py"})
	out = cov("a", nil)
	if out["files_read"] != 1.0 || out["calls"] != 1.0 {
		t.Fatalf("after a view: %v", out)
	}
	read := out["read"].([]any)[0].(map[string]any)
	if read["file"] != "backend/auth.py" || read["last_tool"] != "view" || read["reads"] != 1.0 {
		t.Errorf("read entry %v", read)
	}
	for _, h := range out["unvisited_hubs"].([]any) {
		if h.(map[string]any)["file"] == "backend/auth.py" {
			t.Error("a file read is still suggested")
		}
	}
	tooltest.MustCall(t, d, "impact", map[string]any{"agent_id": "a", "node_id": "file::backend/session.py"})
	tooltest.MustCall(t, d, "batch_view", map[string]any{"agent_id": "a", "files": []string{"backend/auth.py", "tests/*.py"}})
	out = cov("a", nil)
	tooltest.CheckGolden(t, "coverage_session", out, root)
	if out["files_read"] != 3.0 || out["nodes_seen"].(float64) < 2 || out["files_seen"].(float64) <= out["files_read"].(float64) {
		t.Errorf("after impact and batch_view: read %v, seen %v files %v nodes", out["files_read"], out["files_seen"], out["nodes_seen"])
	}
	if out := cov("a", map[string]any{"scope": "tests/"}); out["graph_files"] != 2.0 || out["coverage_ratio"] != 1.0 {
		t.Errorf("scope tests/: %v of %v, ratio %v", out["files_read"], out["graph_files"], out["coverage_ratio"])
	}
	// Another agent has its own record; coverage_session calls are not
	// recorded as reading.
	if b := cov("b", nil); b["files_read"] != 0.0 || b["calls"] != 0.0 {
		t.Errorf("agent b: %v", b)
	}
}

// writeExtFixture writes a repository with references outside it, and a
// sibling directory one of them points into.
func writeExtFixture(t *testing.T) (base, root string) {
	t.Helper()
	base = t.TempDir()
	if r, err := filepath.EvalSymlinks(base); err == nil {
		base = r
	}
	root = filepath.Join(base, "repo")
	files := map[string]string{
		"go.mod": "module example.com/app\n\ngo 1.22\n\nrequire github.com/spf13/cobra v1.8.0\n",
		"main.go": `package main

import (
	"fmt"

	"example.com/app/internal/db"
	"github.com/pkg/errors"
	"github.com/spf13/cobra"
)

var cfg = "/etc/app/config.yaml"
var schema = "../shared/schema.json"

const api = "https://api.example.com/v1/users"

func main() { fmt.Println(cfg, schema, api, db.DSN, errors.New, cobra.Command{}) }
`,
		"internal/db/db.go": `package db

import "database/sql"

const DSN = "postgres://app@db.internal:5432/app"

var cache = "~/.app/cache"
var inside = "../../internal/db/db.go"
var _ = sql.Open
`,
		"app/__init__.py": "",
		"app/util.py":     "def helper():\n    return 1\n",
		"app/main.py":     "import os, requests\nfrom app import util\n\nDATA = \"$DATA_DIR/input.csv\"\nMIRROR = \"https://api.example.com/v2\"\n",
		"docs/README.md":  "See ../../other-repo/README.md and https://example.com/docs for more.\n",
	}
	for rel, body := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	os.MkdirAll(filepath.Join(base, "shared"), 0o755)
	os.WriteFile(filepath.Join(base, "shared", "schema.json"), []byte("{}\n"), 0o644)
	return base, root
}

func TestExternalReferences(t *testing.T) {
	t.Parallel()
	base, root := writeExtFixture(t)
	d := tooltest.NewDispatcher(t, tooltest.TestConfig())
	tooltest.MustCall(t, d, "ingest", map[string]any{"agent_id": "x", "path": root})
	out := tooltest.MustCall(t, d, "external_references", map[string]any{"agent_id": "x"})
	tooltest.CheckGolden(t, "external_references", tooltest.Stable(out, base).(map[string]any), root)

	byKind := out["by_kind"].(map[string]any)
	for kind, want := range map[string]float64{"absolute_path": 1, "parent_escape": 2, "url": 4, "env_path": 1, "home_path": 1, "import": 3} {
		if byKind[kind] != want {
			t.Errorf("%s: %v references, want %v (by_kind %v)", kind, byKind[kind], want, byKind)
		}
	}
	var pkgs []string
	for _, p := range out["packages"].([]any) {
		m := p.(map[string]any)
		pkgs = append(pkgs, fmt.Sprintf("%s:%s:%v", m["ecosystem"], m["package"], m["declared"]))
	}
	slices.Sort(pkgs)
	if want := []string{"go:github.com/pkg/errors:false", "go:github.com/spf13/cobra:true", "python:requests:false"}; !slices.Equal(pkgs, want) {
		t.Errorf("packages %v, want %v", pkgs, want)
	}
	if out["stdlib_imports"] != 3.0 || out["local_imports"] != 2.0 {
		t.Errorf("stdlib %v local %v, want 3 and 2", out["stdlib_imports"], out["local_imports"])
	}
	if out["next_suggested_tool"] != "ingest" || out["next_suggested_target"] != filepath.Join(base, "shared") {
		t.Errorf("guidance %v → %v", out["next_suggested_tool"], out["next_suggested_target"])
	}

	// Filters: scope and kinds.
	out = tooltest.MustCall(t, d, "external_references", map[string]any{"agent_id": "x", "scope": "internal/", "kinds": []string{"url"}})
	refs := out["references"].([]any)
	if out["total"] != 1.0 || len(refs) != 1 || refs[0].(map[string]any)["value"] != "postgres://app@db.internal:5432/app" {
		t.Errorf("scope internal/, kinds url: %v", refs)
	}
	out = tooltest.MustCall(t, d, "external_references", map[string]any{"agent_id": "x", "kinds": []string{"import"}, "include_stdlib": true, "limit": 2})
	if len(out["packages"].([]any)) != 2 || out["truncated"] != true || out["total"] != 6.0 {
		t.Errorf("stdlib included, limit 2: %v packages, truncated %v, total %v", len(out["packages"].([]any)), out["truncated"], out["total"])
	}
}

// The dispatch hook records what generic answers named (seek's node ids)
// without the tool knowing.
func TestCoverageHookRecordsAnswers(t *testing.T) {
	t.Parallel()
	d, _ := tooltest.IngestedFixture(t)
	tooltest.MustCall(t, d, "seek", map[string]any{"agent_id": "s", "query": "password hashing", "top_k": 3})
	out := tooltest.MustCall(t, d, "coverage_session", map[string]any{"agent_id": "s"})
	tools, _ := out["tools"].(map[string]any)
	if out["nodes_seen"].(float64) == 0 || out["files_read"] != 0.0 || tools["seek"] != 1.0 {
		t.Errorf("after seek: %v nodes seen, %v files read, tools %v", out["nodes_seen"], out["files_read"], tools)
	}
	if strings.Contains(fmt.Sprint(tools), "coverage_session") {
		t.Error("coverage_session recorded itself")
	}
}

// With two code roots merged (namespaced paths), the audit readers and
// batch_view name files as ns/path and the repair is a merge of the
// drifted root.
func TestAuditOnMergedRoots(t *testing.T) {
	t.Parallel()
	a := fixture.Write(t)
	b := tooltest.WriteRepo(t, "other", map[string]string{
		"README.md":       "# The other service\n\nSee https://status.example.org.\n",
		"backend/auth.py": "import jwt\n\ndef rate_limit(request):\n    return request\n",
	})
	d := tooltest.NewDispatcher(t, tooltest.TestConfig())
	tooltest.MustCall(t, d, "ingest", map[string]any{"agent_id": "m", "path": a})
	tooltest.MustCall(t, d, "ingest", map[string]any{"agent_id": "m", "path": b, "mode": "merge"})
	out := tooltest.MustCall(t, d, "cross_verify", map[string]any{"agent_id": "m"})
	if out["verdict"] != "in_sync" || out["graph_files"] != 11.0 {
		t.Fatalf("merged roots right after ingest: %v files, verdict %v: %v", out["graph_files"], out["verdict"], out)
	}
	if err := os.Remove(filepath.Join(b, "README.md")); err != nil {
		t.Fatal(err)
	}
	out = tooltest.MustCall(t, d, "cross_verify", map[string]any{"agent_id": "m"})
	act := out["suggested_action"].(map[string]any)["arguments"].(map[string]any)
	if got := listFiles(t, out, "missing_on_disk"); !slices.Equal(got, []string{"other/README.md"}) || act["path"] != b || act["mode"] != "merge" {
		t.Errorf("missing %v, action %v", got, act)
	}
	bv := tooltest.MustCall(t, d, "batch_view", map[string]any{"agent_id": "m", "files": []string{"other/backend/auth.py", filepath.Join(a, "backend", "auth.py")}})
	var paths []string
	for _, f := range tooltest.BatchFiles(t, bv) {
		paths = append(paths, fmt.Sprint(f["file_path"], ":", f["status"]))
	}
	nsA := filepath.Base(a)
	if !slices.Equal(paths, []string{"other/backend/auth.py:ok", nsA + "/backend/auth.py:ok"}) {
		t.Errorf("batch_view on merged roots: %v", paths)
	}
	ext := tooltest.MustCall(t, d, "external_references", map[string]any{"agent_id": "m", "scope": "other/"})
	if text := tooltest.ToText(ext); !strings.Contains(text, `"package":"jwt"`) || ext["files_scanned"] != 1.0 {
		t.Errorf("external_references in other/: %s", text)
	}
	cov := tooltest.MustCall(t, d, "coverage_session", map[string]any{"agent_id": "m", "scope": "other/"})
	if cov["files_read"] != 1.0 {
		t.Errorf("coverage of other/: %v", cov)
	}
}
