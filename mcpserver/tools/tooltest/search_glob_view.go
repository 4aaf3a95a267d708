package tooltest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

// fsFixture is the repository the search/glob/view tests read, with its
// graph built by hand (so the goldens do not move with the extractors).
var fsFixture = map[string]string{
	"app/__init__.py": "",
	"app/auth.py": `"""Authentication service."""
import hashlib

from app.util import normalize


class AuthService:
    """Checks user credentials."""

    def login(self, user, password):
        digest = hashlib.sha256(password.encode()).hexdigest()
        return normalize(user) == digest

    def logout(self, user):
        return None


def login_required(fn):
    return fn
`,
	"app/util.py":    "def normalize(name):\n    # Normalize a user name before comparing.\n    return name.strip().lower()\n",
	"cmd/main.go":    "package main\n\nimport \"fmt\"\n\n// Login prints a greeting.\nfunc Login(user string) {\n\tfmt.Println(\"login:\", user)\n}\n\nfunc main() {\n\tLogin(\"ÉCOLE\")\n}\n",
	"legacy/crlf.py": "def Login():\r\n    return 'LOGIN'\r\n\r\nx = 1\r\n",
	"data/blob.bin":  "\x00\x01login\x00\x02",
	"web/min.js":     "var a=1;" + strings.Repeat("x=x+1;", 300) + "function login(){return true}" + strings.Repeat("y=y+1;", 300) + "\n",
	// Not in the graph: auto_ingest material.
	"notes/new.py":   "def fresh():\n    return normalize('x')\n",
	"notes/other.py": "def other():\n    pass\n",
	"lab/deep/x.py":  "X = 1\n",
}

// fsNode declares a fixture node.
type fsNode struct {
	id, label string
	typ       graph.NodeType
	path      string
	from, to  uint32
}

var fsNodes = []fsNode{
	{"dir::app", "app", graph.Directory, "app", 0, 0},
	{"file::app/__init__.py", "__init__.py", graph.File, "app/__init__.py", 0, 0},
	{"file::app/auth.py", "auth.py", graph.File, "app/auth.py", 1, 19},
	{"file::app/auth.py::AuthService", "AuthService", graph.Class, "app/auth.py", 7, 15},
	{"file::app/auth.py::AuthService::login", "login", graph.Function, "app/auth.py", 10, 12},
	{"file::app/auth.py::AuthService::logout", "logout", graph.Function, "app/auth.py", 14, 15},
	{"file::app/auth.py::login_required", "login_required", graph.Function, "app/auth.py", 18, 19},
	{"file::app/util.py", "util.py", graph.File, "app/util.py", 1, 3},
	{"file::app/util.py::normalize", "normalize", graph.Function, "app/util.py", 1, 3},
	{"file::cmd/main.go", "main.go", graph.File, "cmd/main.go", 1, 12},
	{"file::cmd/main.go::Login", "Login", graph.Function, "cmd/main.go", 6, 8},
	{"file::cmd/main.go::main", "main", graph.Function, "cmd/main.go", 10, 12},
	{"file::legacy/crlf.py", "crlf.py", graph.File, "legacy/crlf.py", 1, 4},
	{"file::legacy/crlf.py::Login", "Login", graph.Function, "legacy/crlf.py", 1, 2},
	{"file::data/blob.bin", "blob.bin", graph.File, "data/blob.bin", 0, 0},
	{"file::web/min.js", "min.js", graph.File, "web/min.js", 1, 1},
	{"concept::authentication", "authentication", graph.Concept, "", 0, 0},
}

var fsEdges = [][3]string{
	{"dir::app", "file::app/auth.py", "contains"},
	{"dir::app", "file::app/util.py", "contains"},
	{"file::app/auth.py", "file::app/auth.py::AuthService", "contains"},
	{"file::app/auth.py::AuthService", "file::app/auth.py::AuthService::login", "contains"},
	{"file::app/auth.py::AuthService", "file::app/auth.py::AuthService::logout", "contains"},
	{"file::app/auth.py", "file::app/auth.py::login_required", "contains"},
	{"file::app/util.py", "file::app/util.py::normalize", "contains"},
	{"file::app/auth.py", "file::app/util.py", "imports"},
	{"file::app/auth.py::AuthService::login", "file::app/util.py::normalize", "calls"},
	{"file::cmd/main.go", "file::cmd/main.go::Login", "contains"},
	{"file::cmd/main.go", "file::cmd/main.go::main", "contains"},
	{"file::cmd/main.go::main", "file::cmd/main.go::Login", "calls"},
	{"file::legacy/crlf.py", "file::legacy/crlf.py::Login", "contains"},
	{"concept::authentication", "file::app/auth.py", "references"},
}

// fsSetup writes the fixture into a fresh directory and loads its graph
// into a new session. It returns the dispatcher and the root.
func FsSetup(t testing.TB) (*tools.Dispatcher, string) {
	t.Helper()
	base := t.TempDir()
	if r, err := filepath.EvalSymlinks(base); err == nil {
		base = r
	}
	root := filepath.Join(base, "repo")
	for rel, body := range fsFixture {
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	os.MkdirAll(filepath.Join(base, "outside"), 0o755)
	os.WriteFile(filepath.Join(base, "outside/secret.txt"), []byte("login secret\n"), 0o644)
	if err := os.Symlink(filepath.Join(base, "outside/secret.txt"), filepath.Join(root, "link_out.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(root, "app/util.py"), filepath.Join(root, "link_in.py")); err != nil {
		t.Fatal(err)
	}

	g := graph.New()
	for _, n := range fsNodes {
		if _, err := g.AddNode(graph.Node{ExternalID: n.id, Label: n.label, Type: n.typ,
			Provenance: graph.Provenance{SourcePath: n.path, LineStart: n.from, LineEnd: n.to, Namespace: "code"}}); err != nil {
			t.Fatal(err)
		}
	}
	for _, e := range fsEdges {
		if err := g.AddEdgeByID(e[0], e[1], graph.Edge{Relation: e[2], Weight: 1, CausalStrength: 0.5}); err != nil {
			t.Fatal(err)
		}
	}
	g.Finalize()

	st, err := session.Open(TestConfig(), t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	if _, err := st.Build("graph_replaced", func(*session.Bundle) (*graph.Graph, []session.Root, error) {
		return g, []session.Root{{Path: root, Adapter: "code", Mode: "replace"}}, nil
	}); err != nil {
		t.Fatal(err)
	}
	return &tools.Dispatcher{Registry: Builtin(), Session: st}, root
}

// fsCall runs a tool and returns its decoded JSON and whether it failed.
func fsCall(t testing.TB, d *tools.Dispatcher, tool string, args map[string]any) (map[string]any, bool) {
	t.Helper()
	if _, ok := args["agent_id"]; !ok {
		args["agent_id"] = "test"
	}
	return Call(t, d, tool, args)
}

func FsOK(t testing.TB, d *tools.Dispatcher, tool string, args map[string]any) map[string]any {
	t.Helper()
	out, isErr := fsCall(t, d, tool, args)
	if isErr {
		t.Fatalf("%s(%v) failed: %v", tool, args, out)
	}
	return out
}

// fsErr calls a tool that must fail and checks the teaching error.
func FsErr(t *testing.T, d *tools.Dispatcher, tool string, args map[string]any, wants ...string) map[string]any {
	t.Helper()
	out, isErr := fsCall(t, d, tool, args)
	if !isErr {
		t.Fatalf("%s(%v) succeeded: %v", tool, args, out)
	}
	msg, _ := out["error"].(string)
	hint, _ := out["hint"].(string)
	if msg == "" || hint == "" {
		t.Errorf("%s(%v): error without message or hint: %v", tool, args, out)
	}
	if _, ok := out["example"]; !ok {
		t.Errorf("%s(%v): error without an example call: %v", tool, args, out)
	}
	all := strings.ToLower(msg + " | " + hint + " | " + mustString(out["suggested_next_step"]) + " | " + mustString(out["details"]))
	for _, w := range wants {
		if !strings.Contains(all, strings.ToLower(w)) {
			t.Errorf("%s(%v): error %q does not mention %q", tool, args, all, w)
		}
	}
	return out
}

func mustString(v any) string {
	if v == nil {
		return ""
	}
	if s, ok := v.(string); ok {
		return s
	}
	b, _ := json.Marshal(v)
	return string(b)
}
