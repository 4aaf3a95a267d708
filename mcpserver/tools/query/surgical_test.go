package query

import (
	"fmt"
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
	t.Parallel()
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
	want := []string{"SessionStore class 5 19 6", "__init__ function 6 8 1", "create function 10 13 1", "lookup function 15 19 2"}
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
	t.Parallel()
	d, _ := tooltest.IngestedFixture(t)
	out := tooltest.MustCall(t, d, "surgical_context_v2", map[string]any{"agent_id": "t", "file_path": "file::backend/session.py", "context_lines": 0, "detail": "full"})
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
	if d := cmp.Diff([]string{"2-2", "9-10", "17-20"}, regions); d != "" {
		t.Errorf("auth.py regions (-want +got):\n%s", d)
	}
	if c := auth[2].(map[string]any)["content"].(string); !strings.Contains(c, "    20\t        return self.store.create(user)\n") {
		t.Errorf("login region:\n%s", c)
	}
	if out["next_suggested_tool"] != "apply_batch" {
		t.Errorf("next %v", out["next_suggested_tool"])
	}

	// Budgets: the file's content and the excerpts are cut, and say so.
	small := tooltest.MustCall(t, d, "surgical_context_v2", map[string]any{"agent_id": "t", "file_path": "backend/session.py", "max_source_bytes": 1024, "max_excerpt_bytes": 1024, "max_connected_files": 1, "detail": "full"})
	if small["excerpt_truncated"] != true || len(small["connected_files"].([]any)) != 1 || small["excerpt_bytes"].(float64) > 1024 {
		t.Errorf("budgets: truncated %v, %d files, %v bytes", small["excerpt_truncated"], len(small["connected_files"].([]any)), small["excerpt_bytes"])
	}
}

// TestSurgicalContextV2Brief: by default the connected files stand for
// the callers, callees and tests lists — each with its role, links,
// relations, the symbols it uses and its lines — and the closest are
// excerpted within the brief budgets.
func TestSurgicalContextV2Brief(t *testing.T) {
	t.Parallel()
	d, _ := tooltest.IngestedFixture(t)
	out := tooltest.MustCall(t, d, "surgical_context_v2", map[string]any{"agent_id": "t", "file_path": "backend/session.py", "context_lines": 0})
	for _, k := range []string{"callers", "callees", "tests"} {
		if _, ok := out[k]; ok {
			t.Errorf("brief answer has %s", k)
		}
	}
	if out["content"] == "" || out["sha256"] == "" || len(out["symbols"].([]any)) != 4 || out["detail"] == nil {
		t.Errorf("brief answer lacks the file: %v", out)
	}
	full := tooltest.MustCall(t, d, "surgical_context_v2", map[string]any{"agent_id": "t", "file_path": "backend/session.py", "detail": "full"})
	nl := out["not_listed"].(map[string]any)
	if nl["callers"] != float64(len(full["callers"].([]any))) || nl["tests"] != float64(len(full["tests"].([]any))) {
		t.Errorf("not_listed %v, full lists %d callers, %d tests", nl, len(full["callers"].([]any)), len(full["tests"].([]any)))
	}
	var got []string
	for _, f := range out["connected_files"].([]any) {
		m := f.(map[string]any)
		var regions []string
		for _, r := range m["regions"].([]any) {
			rm := r.(map[string]any)
			regions = append(regions, strconv.Itoa(int(rm["start_line"].(float64)))+"-"+strconv.Itoa(int(rm["end_line"].(float64))))
		}
		got = append(got, fmt.Sprintf("%s %s links=%v rel=%v sym=%v lines=%v regions=%v", m["file_path"], m["role"], m["links"], m["relations"], m["symbols"], m["lines"], regions))
	}
	want := []string{
		"backend/auth.py caller links=4 rel=[imports references calls] sym=[SessionStore SessionStore::create] lines=[2 9 20] regions=[2-2 9-10 17-20]",
		"backend/middleware.py caller links=4 rel=[imports references calls] sym=[SessionStore SessionStore::lookup] lines=[2 5 6] regions=[2-2 5-10]",
		"tests/test_session.py test links=5 rel=[imports calls tests] sym=[SessionStore SessionStore::__init__ SessionStore::lookup] lines=[1 4 5] regions=[1-1 4-6]",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("connected files (-want +got):\n%s", d)
	}
	if out["excerpt_bytes"].(float64) > surgicalBriefExcerptBytes {
		t.Errorf("excerpt_bytes %v", out["excerpt_bytes"])
	}
}

// fitRegions keeps whole regions while they fit and cuts the first at a
// line when it alone does not.
func TestFitRegions(t *testing.T) {
	t.Parallel()
	r := func(start int, lines ...string) excerptRegion {
		var b strings.Builder
		for i, l := range lines {
			fmt.Fprintf(&b, "%6d\t%s\n", start+i, l)
		}
		return excerptRegion{StartLine: start, EndLine: start + len(lines) - 1, Content: b.String()}
	}
	a, b := r(1, "aaaa", "bbbb", "cccc"), r(10, "dddd")
	kept, used, cut := fitRegions([]excerptRegion{a, b}, 1000)
	if len(kept) != 2 || used != len(a.Content)+len(b.Content) || cut {
		t.Errorf("all fit: %v %d %v", kept, used, cut)
	}
	kept, used, cut = fitRegions([]excerptRegion{a, b}, len(a.Content))
	if len(kept) != 1 || used != len(a.Content) || !cut {
		t.Errorf("one fits: %v %d %v", kept, used, cut)
	}
	kept, used, cut = fitRegions([]excerptRegion{a, b}, 25)
	if len(kept) != 1 || kept[0].EndLine != 2 || kept[0].Content != "     1\taaaa\n     2\tbbbb\n" || used != 24 || !cut {
		t.Errorf("first cut: %+v %d %v", kept, used, cut)
	}
	if kept, used, cut = fitRegions([]excerptRegion{a}, 5); len(kept) != 0 || used != 0 || !cut {
		t.Errorf("nothing fits: %v %d %v", kept, used, cut)
	}
}

// A test file among the callers is a test; the files after it keep
// their own role.
func TestSurgicalContextV2Roles(t *testing.T) {
	t.Parallel()
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
	t.Parallel()
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
