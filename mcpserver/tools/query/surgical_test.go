package query

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/m1nd-go/m1nd/mcpserver/edit"
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// TestSurgicalContext: one call gives the file's contents and hash, its
// symbols with lines and caller counts, who calls into it, and its tests.
func TestSurgicalContext(t *testing.T) {
	d, dir := tooltest.IngestedFixture(t)
	out := tooltest.MustCall(t, d, "surgical_context", map[string]any{"agent_id": "t", "file_path": "backend/session.py"})
	data, _ := os.ReadFile(filepath.Join(dir, "backend", "session.py"))
	if out["content"] != string(data) || out["sha256"] != edit.SHA256(data) || out["total_lines"] != 19.0 || out["line_endings"] != "lf" {
		t.Fatalf("content/sha/lines: %v %v %v", out["sha256"], out["total_lines"], out["line_endings"])
	}
	var syms []string
	for _, s := range out["symbols"].([]any) {
		m := s.(map[string]any)
		syms = append(syms, strings.Join([]string{m["label"].(string), m["type"].(string), strconv.Itoa(int(m["line_start"].(float64))), strconv.Itoa(int(m["line_end"].(float64))), strconv.Itoa(int(m["callers"].(float64)))}, " "))
	}
	want := []string{"SessionStore class 5 19 6", "__init__ function 6 8 0", "create function 10 13 1", "lookup function 15 19 2"}
	if d := cmp.Diff(want, syms); d != "" {
		t.Errorf("symbols (-want +got):\n%s", d)
	}
	var callers []string
	for _, c := range out["callers"].([]any) {
		m := c.(map[string]any)
		callers = append(callers, m["node_id"].(string)+" "+m["relation"].(string)+" "+strings.TrimPrefix(m["symbol"].(string), "file::backend/session.py"))
	}
	for _, w := range []string{"file::backend/auth.py::AuthService::login calls ::SessionStore::create", "file::backend/middleware.py::require_session calls ::SessionStore::lookup"} {
		if !slices.Contains(callers, w) {
			t.Errorf("callers lack %q: %v", w, callers)
		}
	}
	tests := out["tests"].([]any)
	if len(tests) != 1 || tests[0].(map[string]any)["file"] != "tests/test_session.py" || tests[0].(map[string]any)["via"] != "tests" {
		t.Errorf("tests %v", tests)
	}
	if out["proof_state"] != "ready_to_edit" || out["next_suggested_tool"] != "surgical_context_v2" || out["connected_files"] != nil {
		t.Errorf("guidance %v %v, connected_files %v", out["proof_state"], out["next_suggested_tool"], out["connected_files"])
	}
}

// TestSurgicalContextV2: the connected files come with the regions that
// call in — callers first — each line numbered, within the budgets.
func TestSurgicalContextV2(t *testing.T) {
	d, _ := tooltest.IngestedFixture(t)
	out := tooltest.MustCall(t, d, "surgical_context_v2", map[string]any{"agent_id": "t", "file_path": "file::backend/session.py", "context_lines": 0})
	files := out["connected_files"].([]any)
	var got []string
	for _, f := range files {
		m := f.(map[string]any)
		got = append(got, m["file_path"].(string)+" "+m["role"].(string))
	}
	if d := cmp.Diff([]string{"backend/auth.py caller", "backend/middleware.py caller", "tests/test_session.py test"}, got); d != "" {
		t.Fatalf("connected files (-want +got):\n%s", d)
	}
	auth := files[0].(map[string]any)["regions"].([]any)
	var regions []string
	for _, r := range auth {
		m := r.(map[string]any)
		regions = append(regions, strconv.Itoa(int(m["start_line"].(float64)))+"-"+strconv.Itoa(int(m["end_line"].(float64))))
	}
	if d := cmp.Diff([]string{"2-2", "9-10", "16-19"}, regions); d != "" {
		t.Errorf("auth.py regions (-want +got):\n%s", d)
	}
	if c := auth[2].(map[string]any)["content"].(string); !strings.Contains(c, "    19\t        return self.store.create(user)\n") {
		t.Errorf("login region:\n%s", c)
	}
	if out["next_suggested_tool"] != "apply_batch" {
		t.Errorf("next %v", out["next_suggested_tool"])
	}

	// Budgets: the file's content and the excerpts are cut, and say so.
	small := tooltest.MustCall(t, d, "surgical_context_v2", map[string]any{"agent_id": "t", "file_path": "backend/session.py", "max_source_bytes": 1024, "max_excerpt_bytes": 1024, "max_connected_files": 1})
	if small["excerpt_truncated"] != true || len(small["connected_files"].([]any)) != 1 || small["excerpt_bytes"].(float64) > 1024 {
		t.Errorf("budgets: truncated %v, %d files, %v bytes", small["excerpt_truncated"], len(small["connected_files"].([]any)), small["excerpt_bytes"])
	}
}

// A test file among the callers is a test; the files after it keep
// their own role.
func TestSurgicalContextV2Roles(t *testing.T) {
	d, _ := tooltest.FixtureRepo(t, map[string]string{
		"lib/store.py":    "class Store:\n    def get(self, k):\n        return k\n",
		"a/test_store.py": "from lib.store import Store\n\ndef test_get():\n    assert Store().get(1) == 1\n",
		"b/use.py":        "from lib.store import Store\n\ndef use():\n    return Store().get(2)\n",
		"c/also_use.py":   "from lib.store import Store\n\ndef also():\n    return Store().get(3)\n",
	})
	out := tooltest.MustCall(t, d, "surgical_context_v2", map[string]any{"agent_id": "t", "file_path": "lib/store.py"})
	roles := map[string]any{}
	for _, f := range out["connected_files"].([]any) {
		m := f.(map[string]any)
		roles[m["file_path"].(string)] = m["role"]
	}
	if d := cmp.Diff(map[string]any{"a/test_store.py": "test", "b/use.py": "caller", "c/also_use.py": "caller"}, roles); d != "" {
		t.Errorf("roles (-want +got):\n%s", d)
	}
}

func TestSurgicalContextTeaches(t *testing.T) {
	d, dir := tooltest.IngestedFixture(t)
	os.Symlink(t.TempDir(), filepath.Join(dir, "elsewhere"))
	for _, c := range []struct{ path, want string }{
		{"backend/sesion.py", "does not exist"},
		{"backend", "is a directory"},
		{"../../etc/passwd", "climbs out"},
		{"/etc/passwd", "outside every ingest root"},
		{"elsewhere/x.py", "symlink"},
		{"", "empty"},
	} {
		for _, tool := range []string{"surgical_context", "surgical_context_v2"} {
			out, isErr := tooltest.Call(t, d, tool, map[string]any{"agent_id": "t", "file_path": c.path})
			if !isErr || !strings.Contains(out["error"].(string), c.want) || out["hint"] == "" {
				t.Errorf("%s(%q): %v", tool, c.path, out)
			}
		}
	}
	out, _ := tooltest.Call(t, d, "surgical_context", map[string]any{"agent_id": "t", "file_path": "backend/sesion.py"})
	if !strings.Contains(out["hint"].(string), "backend/session.py") {
		t.Errorf("a typo gets no suggestion: %v", out)
	}
}
