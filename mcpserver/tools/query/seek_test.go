package query

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/m1nd-go/m1nd/core/testcorpus"
	"github.com/m1nd-go/m1nd/core/testcorpus/corpusgraph"
	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// seekFiles are the files the seek tests search: the test corpus's
// backend and its billing package.
var seekFiles = testcorpus.Files(testcorpus.Backend, testcorpus.Billing)

// seekDispatcher returns a dispatcher whose session holds the graph of
// seekFiles built by hand (core/testcorpus/corpusgraph) over the files
// written to a temp root.
func seekDispatcher(t *testing.T) *tools.Dispatcher {
	t.Helper()
	dir := t.TempDir()
	if err := testcorpus.Write(dir, seekFiles); err != nil {
		t.Fatal(err)
	}
	g, err := corpusgraph.Of(seekFiles)
	if err != nil {
		t.Fatal(err)
	}
	d := seekNewDispatcher(t)
	_, err = d.Session.BuildBundle("graph_replaced", func(*session.Bundle) (*session.Bundle, error) {
		return &session.Bundle{Graph: g, Roots: []session.Root{{Path: dir, Adapter: "code", Mode: "replace"}}}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

const seekTrace = `Login crashes for users whose password has non-ASCII characters.

Traceback (most recent call last):
  File "/srv/app/backend/auth.py", line 18, in login
    if not self.validate_credentials(user, password):
  File "/srv/app/backend/auth.py", line 14, in validate_credentials
    digest = hash_password(password)
  File "/srv/app/backend/crypto.py", line 7, in hash_password
    return hashlib.sha256(b"salt" + password.encode()).hexdigest()
UnicodeEncodeError: 'ascii' codec can't encode character
`

const seekOneFrame = `Expired sessions are still accepted by lookup.

  File "/srv/app/backend/session.py", line 17, in lookup
    if entry is None or entry[1] < time.time():
`

// TestSeekGolden compares whole responses with testdata/seek/*.json
// (elapsed times zeroed). Run with -update to rewrite them.
func TestSeekGolden(t *testing.T) {
	t.Parallel()
	d := seekDispatcher(t)
	cases := []struct {
		name string
		args map[string]any
	}{
		// One dominant function: read it.
		{"intent", map[string]any{"query": "code that validates user credentials", "top_k": 5, "node_types": []string{"function", "class"}}},
		// A three-frame trace: the two innermost frames score close and
		// call each other.
		{"stacktrace", map[string]any{"query": seekTrace, "top_k": 5}},
		// One frame and the text agree: ready to edit, impact next.
		{"one_frame", map[string]any{"query": seekOneFrame, "top_k": 4}},
		// Several close places in different files that import each other.
		{"close", map[string]any{"query": "invoice total", "top_k": 6, "node_types": []string{"function"}}},
		// Pure text, scoped to a directory.
		{"scoped_no_rerank", map[string]any{"query": "session token expiry", "scope": "./backend/", "graph_rerank": false, "top_k": 4}},
		// Nothing matches: search for the exact text.
		{"no_hits", map[string]any{"query": "kubernetes helm chart", "top_k": 5}},
		// The brief answers (the default) of two of them.
		{"intent_brief", map[string]any{"query": "code that validates user credentials", "top_k": 5, "node_types": []string{"function", "class"}, "detail": "brief"}},
		{"stacktrace_brief", map[string]any{"query": seekTrace, "top_k": 5, "detail": "brief"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tc.args["agent_id"] = "golden"
			if tc.args["detail"] == nil {
				tc.args["detail"] = "full"
			}
			out := tooltest.MustCall(t, d, "seek", tc.args)
			out["elapsed_ms"] = 0.0
			if ix, ok := out["index"].(map[string]any); ok {
				ix["build_ms"] = 0.0
			}
			tooltest.CheckGoldenFile(t, filepath.Join("testdata", "seek", tc.name+".json"), out)
		})
	}
}

// TestSeekGuidance checks the guidance of each golden case explicitly, so
// a regenerated golden file cannot silently change what an agent is told.
func TestSeekGuidance(t *testing.T) {
	t.Parallel()
	d := seekDispatcher(t)
	tests := []struct {
		args                       map[string]any
		state, tool, target, first string
	}{
		{map[string]any{"query": "code that validates user credentials", "node_types": []string{"function", "class"}},
			"proving", "view", "backend/auth.py", "file::backend/auth.py::AuthService::validate_credentials"},
		{map[string]any{"query": seekTrace},
			"triaging", "impact", "file::backend/auth.py::AuthService::validate_credentials", "file::backend/auth.py::AuthService::validate_credentials"},
		{map[string]any{"query": seekOneFrame},
			"ready_to_edit", "impact", "file::backend/session.py::SessionStore::lookup", "file::backend/session.py::SessionStore::lookup"},
		{map[string]any{"query": "invoice total", "node_types": []string{"function"}},
			"triaging", "impact", "file::billing/invoice.py::invoice_total", "file::billing/invoice.py::invoice_total"},
		{map[string]any{"query": "billing", "node_types": []string{"directory"}},
			"triaging", "glob", "billing", "dir::billing"},
		{map[string]any{"query": "kubernetes helm chart"},
			"triaging", "search", "kubernetes", ""},
	}
	for _, tt := range tests {
		tt.args["agent_id"] = "t"
		out := tooltest.MustCall(t, d, "seek", tt.args)
		got := [4]any{out["proof_state"], out["next_suggested_tool"], out["next_suggested_target"], nil}
		if rs, _ := out["results"].([]any); len(rs) > 0 {
			got[3] = rs[0].(map[string]any)["node_id"]
		} else {
			got[3] = ""
		}
		want := [4]any{tt.state, tt.tool, tt.target, tt.first}
		if got != want {
			t.Errorf("%.40q: got (state, tool, target, first) %v, want %v; hint %v", tt.args["query"], got, want, out["next_step_hint"])
		}
	}
}

// TestSeekOnIngestedFixture runs seek end to end on the fixture files
// ingested through the ingest tool (tree-sitter extraction, real IDs).
func TestSeekOnIngestedFixture(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := testcorpus.Write(dir, seekFiles); err != nil {
		t.Fatal(err)
	}
	d := seekNewDispatcher(t)
	tooltest.MustCall(t, d, "ingest", map[string]any{"agent_id": "t", "path": dir})
	out := tooltest.MustCall(t, d, "seek", map[string]any{"agent_id": "t", "query": "code that validates user credentials", "node_types": []string{"function"}})
	rs := out["results"].([]any)
	if len(rs) == 0 || !strings.Contains(fmt.Sprint(rs[0].(map[string]any)["node_id"]), "validate_credentials") {
		t.Fatalf("top results: %v", rs)
	}
	top := rs[0].(map[string]any)
	if top["file_path"] != "backend/auth.py" || top["line_start"] == nil || top["intent_summary"] != "Check the password against the stored hash." {
		t.Errorf("top result lacks location or summary: %v", top)
	}
	if ix := out["index"].(map[string]any); ix["body_indexed"] != true || ix["files_read"].(float64) != float64(len(seekFiles)) {
		t.Errorf("bodies not indexed: %v", ix)
	}
	// An alias spelling and a second call reuse the index.
	out2 := tooltest.MustCall(t, d, "m1nd.seek", map[string]any{"agent_id": "t", "query": "code that validates user credentials", "node_types": []string{"method"}})
	if fmt.Sprint(out2["results"]) != fmt.Sprint(out["results"]) {
		t.Error("method alias or cached index changed the results")
	}
	// Re-ingesting a changed tree builds a new index.
	if err := os.WriteFile(filepath.Join(dir, "backend", "audit.py"), []byte("def audit_login_attempts(log):\n    return len(log)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tooltest.MustCall(t, d, "ingest", map[string]any{"agent_id": "t", "path": dir})
	out3 := tooltest.MustCall(t, d, "seek", map[string]any{"agent_id": "t", "query": "audit login attempts"})
	if rs := out3["results"].([]any); len(rs) == 0 || !strings.Contains(fmt.Sprint(rs[0].(map[string]any)["node_id"]), "audit") {
		t.Errorf("after re-ingest: %v", rs)
	}
}

func TestSeekBadInput(t *testing.T) {
	t.Parallel()
	d := seekDispatcher(t)
	cases := []struct {
		args map[string]any
		want string // substring of the error
	}{
		{map[string]any{"query": "   "}, "must not be empty"},
		{map[string]any{"query": strings.Repeat("x", seekMaxQueryBytes+1)}, "limit"},
		{map[string]any{"query": "auth", "node_types": []string{"function", "gizmo"}}, "unknown node type"},
		{map[string]any{"query": "auth", "scope": "src/**/*.py"}, "pattern"},
		{map[string]any{"query": "auth", "scope": "../outside/"}, "climbs out"},
		{map[string]any{"query": "auth", "scope": "/definitely/elsewhere"}, "outside the ingested roots"},
		{map[string]any{"query": "auth", "scope": "frontend/"}, "matches no file"},
		{map[string]any{"query": "auth", "top_k": 0}, "top_k"},
		{map[string]any{"query": "auth", "top_k": 1000}, "top_k"},
		{map[string]any{"query": "auth", "min_score": 1.5}, "min_score"},
		{map[string]any{"query": "auth", "graph_rerank": "yes"}, "graph_rerank"},
	}
	for _, tc := range cases {
		tc.args["agent_id"] = "t"
		out, isErr := tooltest.Call(t, d, "seek", tc.args)
		if !isErr {
			t.Errorf("%v accepted: %v", seekClipArgs(tc.args), out)
			continue
		}
		if !strings.Contains(fmt.Sprint(out["error"]), tc.want) || out["hint"] == "" || out["example"] == nil {
			t.Errorf("%v: error %v, want it to mention %q with hint and example", seekClipArgs(tc.args), out, tc.want)
		}
	}
	// The scope error lists where one can scope to.
	out, _ := tooltest.Call(t, d, "seek", map[string]any{"agent_id": "t", "query": "auth", "scope": "frontend/"})
	if det, _ := out["details"].(map[string]any); fmt.Sprint(det["top_level_paths"]) != "[README.md backend/ billing/ tests/]" {
		t.Errorf("scope error details: %v", out["details"])
	}
	// An empty graph teaches ingest.
	empty := seekNewDispatcher(t)
	out, isErr := tooltest.Call(t, empty, "seek", map[string]any{"agent_id": "t", "query": "auth"})
	if !isErr || !strings.Contains(fmt.Sprint(out["suggested_next_step"]), "ingest") {
		t.Errorf("empty graph: %v", out)
	}
}

func seekClipArgs(m map[string]any) string {
	return tools.ClipText(fmt.Sprint(m), 120)
}

// TestSeekScopeForms accepts the spellings of one directory.
func TestSeekScopeForms(t *testing.T) {
	t.Parallel()
	d := seekDispatcher(t)
	root := d.Session.Current().Roots[0].Path
	for _, sc := range []string{"billing", "billing/", "./billing/", filepath.Join(root, "billing") + "/"} {
		out := tooltest.MustCall(t, d, "seek", map[string]any{"agent_id": "t", "query": "invoice", "scope": sc})
		for _, r := range out["results"].([]any) {
			fp := fmt.Sprint(r.(map[string]any)["file_path"])
			if !strings.HasPrefix(fp, "billing") {
				t.Errorf("scope %q returned %s", sc, fp)
			}
		}
		if len(out["results"].([]any)) == 0 {
			t.Errorf("scope %q returned nothing", sc)
		}
	}
}

func seekNewDispatcher(t testing.TB) *tools.Dispatcher {
	t.Helper()
	st, err := session.Open(tooltest.TestConfig(), t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	r := tooltest.Builtin()
	// Guidance names only tools the registry serves; stand-ins for the
	// ones seek points to keep these tests independent of which other
	// tools are built in.
	for _, name := range []string{"view", "search", "impact", "activate", "glob"} {
		if _, ok := r.Lookup(name); !ok {
			tools.Add(r, tools.Tool{Name: name, Title: "stand-in", Description: "test stand-in", Example: map[string]any{"agent_id": "t"}, WhenToUse: "tests"},
				func(*tools.Call, struct{}) (struct{}, error) { return struct{}{}, nil })
		}
	}
	return &tools.Dispatcher{Registry: r, Session: st}
}
