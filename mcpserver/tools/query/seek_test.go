package query

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

var updateSeekGolden = flag.Bool("update-seek", false, "rewrite the golden responses of seek")

// seekFiles is the seek fixture: a small service with authentication,
// sessions, payments and an HTTP layer.
var seekFiles = map[string]string{
	"backend/auth.py": `"""Authentication: credential checks and login."""
from backend.session import SessionStore
from backend.crypto import hash_password


class AuthService:
    """Validates user credentials and opens sessions."""

    def validate_credentials(self, user, password):
        """Check the password against the stored hash."""
        digest = hash_password(password)
        return user.password_hash == digest

    def login(self, user, password):
        if not self.validate_credentials(user, password):
            raise PermissionError("bad credentials")
        return self.store.create(user)
`,
	"backend/session.py": `"""Session storage with expiry."""
import time


class SessionStore:
    def create(self, user):
        token = f"{user.id}-{time.time()}"
        self.sessions[token] = (user, time.time() + self.ttl)
        return token

    def lookup(self, token):
        """Return the session's user, or None once it expired."""
        entry = self.sessions.get(token)
        if entry is None or entry[1] < time.time():
            return None
        return entry[0]
`,
	"backend/crypto.py": `"""Password hashing."""
import hashlib


def hash_password(password):
    # Salted SHA-256 of the password.
    return hashlib.sha256(b"salt" + password.encode()).hexdigest()
`,
	"billing/invoice.py": `"""Invoices: totals and tax."""


def invoice_total(lines):
    """Sum the invoice lines with tax."""
    return sum(l.amount for l in lines) * 1.2


def invoice_tax(lines):
    """Tax part of an invoice total."""
    return sum(l.amount for l in lines) * 0.2
`,
	"billing/refund.py": `"""Refunds of invoices."""


def refund_invoice(invoice):
    """Refund an invoice total to the card."""
    return -invoice.total
`,
}

type seekEnt struct {
	ext, label string
	typ        graph.NodeType
	start, end uint32
	excerpt    string
}

var seekEntities = map[string][]seekEnt{
	"backend/auth.py": {
		{"AuthService", "AuthService", graph.Class, 6, 18, "class AuthService:"},
		{"AuthService::validate_credentials", "validate_credentials", graph.Function, 9, 12, "def validate_credentials(self, user, password):"},
		{"AuthService::login", "login", graph.Function, 14, 18, "def login(self, user, password):"},
	},
	"backend/session.py": {
		{"SessionStore", "SessionStore", graph.Class, 5, 16, "class SessionStore:"},
		{"SessionStore::create", "create", graph.Function, 6, 9, "def create(self, user):"},
		{"SessionStore::lookup", "lookup", graph.Function, 11, 16, "def lookup(self, token):"},
	},
	"backend/crypto.py":  {{"hash_password", "hash_password", graph.Function, 5, 7, "def hash_password(password):"}},
	"billing/invoice.py": {{"invoice_total", "invoice_total", graph.Function, 4, 6, "def invoice_total(lines):"}, {"invoice_tax", "invoice_tax", graph.Function, 9, 11, "def invoice_tax(lines):"}},
	"billing/refund.py":  {{"refund_invoice", "refund_invoice", graph.Function, 4, 6, "def refund_invoice(invoice):"}},
}

var seekEdges = [][3]string{
	{"file::backend/auth.py::AuthService::login", "file::backend/auth.py::AuthService::validate_credentials", "calls"},
	{"file::backend/auth.py::AuthService::validate_credentials", "file::backend/crypto.py::hash_password", "calls"},
	{"file::backend/auth.py::AuthService::login", "file::backend/session.py::SessionStore::create", "calls"},
	{"file::backend/auth.py", "file::backend/session.py", "imports"},
	{"file::backend/auth.py", "file::backend/crypto.py", "imports"},
	{"file::billing/refund.py", "file::billing/invoice.py", "imports"},
}

// seekDispatcher returns a dispatcher whose session holds the seek
// fixture graph (built by hand) over files written to a temp root.
func seekDispatcher(t *testing.T) *tools.Dispatcher {
	t.Helper()
	dir := t.TempDir()
	g := graph.New()
	add := func(n graph.Node) graph.NodeID {
		id, err := g.AddNode(n)
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	dirs := map[string]graph.NodeID{}
	for _, p := range seekSortedKeys(seekFiles) {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(seekFiles[p]), 0o644); err != nil {
			t.Fatal(err)
		}
		d := p[:strings.IndexByte(p, '/')]
		if _, ok := dirs[d]; !ok {
			dirs[d] = add(graph.Node{ExternalID: "dir::" + d, Label: d, Type: graph.Directory, Provenance: graph.Provenance{SourcePath: d}})
		}
		lines := uint32(strings.Count(seekFiles[p], "\n"))
		f := add(graph.Node{ExternalID: "file::" + p, Label: filepath.Base(p), Type: graph.File, Tags: []string{"python"},
			Provenance: graph.Provenance{SourcePath: p, LineStart: 1, LineEnd: lines}})
		if err := g.AddEdge(graph.Edge{Source: dirs[d], Target: f, Relation: "contains", Weight: 1}); err != nil {
			t.Fatal(err)
		}
		for _, e := range seekEntities[p] {
			id := add(graph.Node{ExternalID: "file::" + p + "::" + e.ext, Label: e.label, Type: e.typ,
				Provenance: graph.Provenance{SourcePath: p, LineStart: e.start, LineEnd: e.end, Excerpt: e.excerpt}})
			if err := g.AddEdge(graph.Edge{Source: f, Target: id, Relation: "contains", Weight: 1}); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, e := range seekEdges {
		if err := g.AddEdgeByID(e[0], e[1], graph.Edge{Relation: e[2], Weight: 0.8}); err != nil {
			t.Fatal(err)
		}
	}
	g.Finalize()
	d := seekNewDispatcher(t)
	_, err := d.Session.BuildBundle("graph_replaced", func(*session.Bundle) (*session.Bundle, error) {
		return &session.Bundle{Graph: g, Roots: []session.Root{{Path: dir, Adapter: "code", Mode: "replace"}}}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func seekSortedKeys(m map[string]string) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	for i := 1; i < len(ks); i++ {
		for j := i; j > 0 && ks[j] < ks[j-1]; j-- {
			ks[j], ks[j-1] = ks[j-1], ks[j]
		}
	}
	return ks
}

const seekTrace = `Login crashes for users whose password has non-ASCII characters.

Traceback (most recent call last):
  File "/srv/app/backend/auth.py", line 15, in login
    if not self.validate_credentials(user, password):
  File "/srv/app/backend/auth.py", line 11, in validate_credentials
    digest = hash_password(password)
  File "/srv/app/backend/crypto.py", line 7, in hash_password
    return hashlib.sha256(b"salt" + password.encode()).hexdigest()
UnicodeEncodeError: 'ascii' codec can't encode character
`

const seekOneFrame = `Expired sessions are still accepted by lookup.

  File "/srv/app/backend/session.py", line 14, in lookup
    if entry is None or entry[1] < time.time():
`

// TestSeekGolden compares whole responses with testdata/seek/*.json
// (elapsed times zeroed). Run with -update-seek to rewrite them.
func TestSeekGolden(t *testing.T) {
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
			got, err := json.MarshalIndent(out, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join("testdata", "seek", tc.name+".json")
			if *updateSeekGolden {
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, append(got, '\n'), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("missing golden (run with -update-seek): %v", err)
			}
			var w, g any
			if err := json.Unmarshal(want, &w); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(got, &g); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(w, g); diff != "" {
				t.Errorf("%s response differs from %s (-want +got):\n%s", tc.name, path, diff)
			}
		})
	}
}

// TestSeekGuidance checks the guidance of each golden case explicitly, so
// a regenerated golden file cannot silently change what an agent is told.
func TestSeekGuidance(t *testing.T) {
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
	dir := t.TempDir()
	for p, src := range seekFiles {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
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
	if det, _ := out["details"].(map[string]any); fmt.Sprint(det["top_level_paths"]) != "[backend/ billing/]" {
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
