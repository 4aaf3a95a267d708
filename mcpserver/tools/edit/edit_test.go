package edit

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/m1nd-go/m1nd/mcpserver/edit"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

func readFile(t testing.TB, p string) string {
	t.Helper()
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestApplyWritesAndRefreshesTheGraph: apply writes the file, keeps its
// conventions, and the next query sees the new function.
func TestApplyWritesAndRefreshesTheGraph(t *testing.T) {
	t.Parallel()
	d, dir := tooltest.IngestedFixture(t)
	p := filepath.Join(dir, "backend", "payments.py")
	old := readFile(t, p)
	sum := edit.SHA256([]byte(old))
	next := strings.TrimSuffix(old, "\n") + "\n\ndef refund(user, amount):\n    return charge(user, -amount)"
	out := tooltest.MustCall(t, d, "apply", map[string]any{"agent_id": "t", "file_path": "backend/payments.py", "new_content": next, "expected_sha256": sum, "detail": "full"})
	if got := readFile(t, p); got != next+"\n" {
		t.Fatalf("file after apply:\n%s", got)
	}
	res := out["results"].([]any)[0].(map[string]any)
	if res["action"] != "modified" || res["format"].(map[string]any)["trailing_newline_added"] != true || res["old_sha256"] != sum {
		t.Errorf("result %v", res)
	}
	if !slices.Contains(tooltest.ToStrings(out["updated_node_ids"]), "file::backend/payments.py::refund") {
		t.Errorf("updated_node_ids %v lack the new function", out["updated_node_ids"])
	}
	if _, ok := d.Session.Current().Graph.Lookup("file::backend/payments.py::refund"); !ok {
		t.Error("the served graph does not have the new function")
	}
	if out["reingest"].(map[string]any)["patched"] != true {
		t.Errorf("reingest %v, want the incremental patch", out["reingest"])
	}
	// The new contents were parsed beside the write, and the reingest took
	// that extraction instead of parsing them again.
	if ri := out["reingest"].(map[string]any); ri["prepared_files"] != 1.0 || ri["walk_skipped"] != true {
		t.Errorf("reingest %v, want the prepared file taken and no walk", ri)
	}
	if out["active_phase"] != "done" || out["progress_pct"] != 100.0 || out["batch_id"] == "" {
		t.Errorf("progress state %v %v %v", out["active_phase"], out["progress_pct"], out["batch_id"])
	}
	// The hash it returned is the next write's expected_sha256; the old
	// one is refused, teaching, with nothing written.
	_, isErr := tooltest.Call(t, d, "apply", map[string]any{"agent_id": "t", "file_path": "backend/payments.py", "new_content": "x", "expected_sha256": sum})
	if !isErr || readFile(t, p) != next+"\n" {
		t.Fatal("a stale expected_sha256 was accepted")
	}
	tooltest.MustCall(t, d, "apply", map[string]any{"agent_id": "t", "file_path": "backend/payments.py", "new_content": old, "expected_sha256": res["new_sha256"]})
}

// An agent that read only some lines passes them instead of the hash:
// the write lands while they are still there, and is refused (teaching,
// nothing written) once they moved.
func TestApplyExpectedLines(t *testing.T) {
	t.Parallel()
	d, dir := tooltest.IngestedFixture(t)
	p := filepath.Join(dir, "backend", "config.py")
	old := readFile(t, p)
	first := strings.SplitN(old, "\n", 2)[0]
	seen := map[string]any{"start_line": 1, "text": first + "\n"}
	next := old + "TIMEOUT = 30\n"
	tooltest.MustCall(t, d, "apply_batch", map[string]any{"agent_id": "t", "edits": []any{
		map[string]any{"file_path": "backend/config.py", "new_content": next, "expected_lines": seen}}})
	moved := map[string]any{"start_line": 2, "text": first}
	out, isErr := tooltest.Call(t, d, "apply", map[string]any{"agent_id": "t", "file_path": "backend/config.py", "new_content": "x = 1\n", "expected_lines": moved})
	if !isErr || readFile(t, p) != next || !strings.Contains(out["error"].(string), "lines 2–2 differ") {
		t.Fatalf("stale expected_lines: error %v, file now %q", out, readFile(t, p))
	}
	if _, isErr := tooltest.Call(t, d, "apply_batch", map[string]any{"agent_id": "t", "edits": []any{
		map[string]any{"file_path": "backend/config.py", "new_content": "x", "expected_lines": "line 1"}}}); !isErr {
		t.Error("expected_lines that is not an object was accepted")
	}
}

// TestApplyBatchProgress: the events name the batch, move through the
// phases in order and end complete; the client gets them as
// notifications too.
func TestApplyBatchProgress(t *testing.T) {
	t.Parallel()
	d, _ := tooltest.IngestedFixture(t)
	var mu sync.Mutex
	var notes []string
	raw, _ := json.Marshal(map[string]any{"agent_id": "t", "detail": "full", "edits": []any{
		map[string]any{"file_path": "backend/a.py", "new_content": "def a():\n    return 1\n"},
		map[string]any{"file_path": "backend/b.py", "new_content": "from backend.a import a\n\n\ndef b():\n    return a() + 1\n"},
	}})
	res := d.Call(context.Background(), "apply_batch", raw, func(done, total float64, msg string) {
		mu.Lock()
		notes = append(notes, fmt.Sprintf("%v/%v %s", done, total, msg))
		mu.Unlock()
	})
	if res.IsError {
		t.Fatal(res.Text())
	}
	var out applyOutput
	json.Unmarshal([]byte(res.Text()), &out)
	var seq []string
	for _, e := range out.ProgressEvents {
		if e.BatchID != out.BatchID {
			t.Fatalf("event of another batch: %+v", e)
		}
		seq = append(seq, e.Event+":"+e.Phase)
	}
	want := []string{"phase_started:validate", "phase_completed:validate", "phase_started:write", "file_written:write", "file_written:write", "phase_completed:write",
		"phase_started:reingest", "phase_completed:reingest", "phase_started:done", "batch_completed:done"}
	if d := cmp.Diff(want, seq); d != "" {
		t.Errorf("event sequence (-want +got):\n%s", d)
	}
	last := out.ProgressEvents[len(out.ProgressEvents)-1]
	if last.ProgressPct != 100 || last.RemainingPhaseCount != 0 || last.ProofState == "" || out.PhaseCount != 4 {
		t.Errorf("last event %+v", last)
	}
	if len(notes) != len(out.ProgressEvents) || !strings.Contains(notes[0], out.BatchID) {
		t.Errorf("notifications %v", notes)
	}
	if _, ok := d.Session.Current().Graph.Lookup("file::backend/b.py::b"); !ok {
		t.Error("new files are not in the graph")
	}
}

// calcFiles are a Go module with tests and a Python package with
// unittest tests: the checks layers B and D run are the real toolchains'.
var calcFiles = map[string]string{
	"go.mod":               "module example.com/m\n\ngo 1.22\n",
	"calc/calc.go":         "package calc\n\n// Add adds.\nfunc Add(a, b int) int { return a + b }\n\n// Sum adds them all.\nfunc Sum(xs []int) int {\n\tt := 0\n\tfor _, x := range xs {\n\t\tt = Add(t, x)\n\t}\n\treturn t\n}\n",
	"calc/calc_test.go":    "package calc\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) {\n\tif Add(2, 3) != 5 {\n\t\tt.Fatal(\"Add(2, 3)\")\n\t}\n}\n\nfunc TestSum(t *testing.T) {\n\tif Sum([]int{1, 2, 3}) != 6 {\n\t\tt.Fatal(\"Sum\")\n\t}\n}\n",
	"app/app.go":           "package app\n\nimport \"example.com/m/calc\"\n\n// Total is the sum of the order lines.\nfunc Total(lines []int) int { return calc.Sum(lines) }\n",
	"py/pkg/__init__.py":   "",
	"py/pkg/mod.py":        "def double(x):\n    y = x + x\n    return y\n",
	"py/tests/test_mod.py": "import unittest\n\nfrom pkg.mod import double\n\n\nclass DoubleTest(unittest.TestCase):\n    def test_double(self):\n        self.assertEqual(double(4), 8)\n",
}

func calcFixture(t *testing.T) (*tools.Dispatcher, string) {
	t.Helper()
	dir := t.TempDir()
	for rel, body := range calcFiles {
		p := filepath.Join(dir, rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	d := tooltest.NewDispatcher(t, tooltest.TestConfig())
	tooltest.MustCall(t, d, "ingest", map[string]any{"agent_id": "t", "path": dir})
	return d, dir
}

func tree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.WalkDir(dir, func(p string, de os.DirEntry, err error) error {
		if err != nil || de.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		fi, _ := de.Info()
		if !fi.Mode().IsRegular() {
			out[rel] = fi.Mode().String()
			return nil
		}
		out[rel] = fi.Mode().String() + " " + readFile(t, p)
		return nil
	})
	return out
}

func verdictOf(t *testing.T, out map[string]any) (string, map[string]any) {
	t.Helper()
	v, ok := out["verification"].(map[string]any)
	if !ok {
		t.Fatalf("no verification in %v", out)
	}
	return v["verdict"].(string), v
}

// TestApplyBatchVerify runs the verdicts on real toolchains: a change
// that builds and passes (SAFE), one that breaks the build and one that
// stubs out logic (BROKEN: every file restored byte for byte, the graph
// back as it was), and one whose tests fail (RISKY, kept).
func TestApplyBatchVerify(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs go build and go test")
	}
	d, dir := calcFixture(t)
	calc := calcFiles["calc/calc.go"]
	batch := func(t *testing.T, edits ...[2]string) map[string]any {
		var es []any
		for _, e := range edits {
			es = append(es, map[string]any{"file_path": e[0], "new_content": e[1]})
		}
		return tooltest.MustCall(t, d, "apply_batch", map[string]any{"agent_id": "t", "verify": true, "edits": es, "detail": "full"})
	}

	t.Run("safe", func(t *testing.T) {
		out := batch(t, [2]string{"calc/calc.go", calc + "\n// Mul multiplies.\nfunc Mul(a, b int) int { return a * b }\n"},
			[2]string{"app/app.go", "package app\n\nimport \"example.com/m/calc\"\n\n// Total is the sum of the order lines.\nfunc Total(lines []int) int { return calc.Sum(lines) }\n\n// Twice doubles the total.\nfunc Twice(lines []int) int { return calc.Mul(2, Total(lines)) }\n"})
		v, rep := verdictOf(t, out)
		if v != edit.Safe || out["status"] != "applied" || out["tests_run"] != 2.0 || out["tests_failed"] != nil {
			t.Fatalf("verdict %s, status %v, tests %v/%v: %v %v", v, out["status"], out["tests_run"], out["tests_failed"], rep["reasons"], out["compile_check"])
		}
		if _, ok := d.Session.Current().Graph.Lookup("file::app/app.go::Twice"); !ok {
			t.Error("the graph lacks the new function")
		}
		if tf := tooltest.ToStrings(rep["layer_c_blast_radius"].(map[string]any)["test_files"]); !slices.Contains(tf, "calc/calc_test.go") {
			t.Errorf("layer C test files %v", tf)
		}
		// The brief answer (the default) of this two-file verified batch
		// stays within 4 KB, every layer passed.
		b := briefOf(t, out)
		if n := len(toJSONString(b)); n > 4096 {
			t.Errorf("brief answer of %d bytes: %s", n, toJSONString(b))
		}
		for _, l := range []string{"A", "B", "C", "D", "E"} {
			if st := layerOf(t, b, l)["status"]; st != "passed" {
				t.Errorf("layer %s: %v", l, layerOf(t, b, l))
			}
		}
	})

	for _, c := range []struct {
		name, content, reason string
		layer, first          string // the brief answer's failed layer and its first failure
	}{
		{"broken build", strings.Replace(calc, "return a + b", "return a +", 1), "B: go build ./... failed", "B", "calc/calc.go:4"},
		{"stub", strings.Replace(calc, "\tt := 0\n\tfor _, x := range xs {\n\t\tt = Add(t, x)\n\t}\n\treturn t\n", "\treturn 0\n", 1), "A: calc/calc.go: Sum had real logic", "A", "Sum had real logic"},
	} {
		t.Run(c.name, func(t *testing.T) {
			before := tree(t, dir)
			nodes := d.Session.Current().Graph.NumNodes()
			out := batch(t, [2]string{"calc/calc.go", c.content}, [2]string{"py/pkg/mod.py", "def double(x):\n    return x * 2\n"}, [2]string{"calc/new.go", "package calc\n\nfunc New() int { return Add(1, 1) }\n"})
			v, rep := verdictOf(t, out)
			if v != edit.Broken || out["status"] != "restored" || !strings.Contains(strings.Join(tooltest.ToStrings(rep["reasons"]), "\n"), c.reason) {
				t.Fatalf("verdict %s, status %v, reasons %v", v, out["status"], rep["reasons"])
			}
			if diff := cmp.Diff(before, tree(t, dir)); diff != "" {
				t.Fatalf("not restored byte for byte (-before +after):\n%s", diff)
			}
			if got := d.Session.Current().Graph.NumNodes(); got != nodes {
				t.Errorf("graph has %d nodes after the restore, %d before", got, nodes)
			}
			for _, r := range out["results"].([]any) {
				if r.(map[string]any)["restored"] != true {
					t.Errorf("result not marked restored: %v", r)
				}
			}
			b := briefOf(t, out)
			if l := layerOf(t, b, c.layer); l["status"] != "failed" || !strings.Contains(l["first_failure"].(string), c.first) {
				t.Errorf("brief layer %s: %v", c.layer, l)
			}
			for _, r := range b["results"].([]any) {
				if r.(map[string]any)["restored"] != true {
					t.Errorf("brief result not marked restored: %v", r)
				}
			}
		})
	}

	t.Run("risky", func(t *testing.T) {
		now := readFile(t, filepath.Join(dir, "calc", "calc.go"))
		out := batch(t, [2]string{"calc/calc.go", strings.Replace(now, "return a + b", "return a - b", 1)})
		v, rep := verdictOf(t, out)
		if v != edit.Risky || out["status"] != "applied" || out["tests_failed"] != 2.0 || !strings.Contains(out["test_output"].(string), "Add(2, 3)") {
			t.Fatalf("verdict %s, tests failed %v, output %q, reasons %v", v, out["tests_failed"], out["test_output"], rep["reasons"])
		}
		if !strings.Contains(readFile(t, filepath.Join(dir, "calc", "calc.go")), "a - b") {
			t.Error("a RISKY write was not kept")
		}
		if l := layerOf(t, briefOf(t, out), "D"); l["status"] != "warning" || l["failed"] != 1.0 || !strings.Contains(l["first_failure"].(string), "Add(2, 3)") {
			t.Errorf("brief layer D: %v", l)
		}
	})

	t.Run("python", func(t *testing.T) {
		before := tree(t, dir)
		out := batch(t, [2]string{"py/pkg/mod.py", "def double(x):\n    return x *\n"})
		if v, rep := verdictOf(t, out); v != edit.Broken || !strings.Contains(out["compile_check"].(map[string]any)["output"].(string), "mod.py:2") {
			t.Fatalf("verdict %s, compile %v, reasons %v", v, out["compile_check"], rep["reasons"])
		}
		if l := layerOf(t, briefOf(t, out), "B"); l["status"] != "failed" || !strings.Contains(l["first_failure"].(string), "mod.py") {
			t.Errorf("brief layer B: %v", l)
		}
		if diff := cmp.Diff(before, tree(t, dir)); diff != "" {
			t.Fatal(diff)
		}
		out = batch(t, [2]string{"py/pkg/mod.py", "def double(x):\n    return x * 3\n"})
		if v, _ := verdictOf(t, out); v != edit.Risky || out["tests_failed"] != 1.0 {
			t.Fatalf("a failing unittest: verdict %s, %v failed", v, out["tests_failed"])
		}
	})
}

// TestWritesRefusedTeachAndWriteNothing: each bad edit is a teaching
// error, and a batch with one bad edit writes none of its good ones.
func TestWritesRefusedTeachAndWriteNothing(t *testing.T) {
	t.Parallel()
	d, dir := tooltest.IngestedFixture(t)
	outside := t.TempDir()
	os.Symlink(outside, filepath.Join(dir, "out"))
	good := map[string]any{"file_path": "backend/new.py", "new_content": "x = 1\n"}
	cases := []struct {
		name string
		bad  map[string]any
		want string
	}{
		{"outside the roots", map[string]any{"file_path": filepath.Join(outside, "x.py"), "new_content": "x"}, "outside every ingest root"},
		{"dotdot", map[string]any{"file_path": "../x.py", "new_content": "x"}, "climbs out"},
		{"symlink escape", map[string]any{"file_path": "out/x.py", "new_content": "x"}, "symlink"},
		{"directory", map[string]any{"file_path": "backend", "new_content": "x"}, "is a directory"},
		{"git metadata", map[string]any{"file_path": ".git/hooks/pre-commit", "new_content": "x"}, ".git"},
		{"parent is a file", map[string]any{"file_path": "README.md/x.py", "new_content": "x"}, "is a file, not a directory"},
		{"stale", map[string]any{"file_path": "backend/auth.py", "new_content": "x", "expected_sha256": strings.Repeat("a", 64)}, "changed since you read it"},
		{"unknown field", map[string]any{"file_path": "backend/auth.py", "content": "x"}, "unknown field \"content\""},
		{"no content", map[string]any{"file_path": "backend/auth.py"}, "has no new_content"},
		{"duplicate", map[string]any{"file_path": "./backend/new.py", "new_content": "y"}, "both write"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := tree(t, dir)
			out, isErr := tooltest.Call(t, d, "apply_batch", map[string]any{"agent_id": "t", "edits": []any{good, c.bad}})
			if !isErr || !strings.Contains(out["error"].(string), c.want) || out["hint"] == "" || out["suggested_next_step"] == "" {
				t.Fatalf("got %v", out)
			}
			if diff := cmp.Diff(before, tree(t, dir)); diff != "" {
				t.Fatalf("a refused batch wrote:\n%s", diff)
			}
			if ents, _ := os.ReadDir(outside); len(ents) != 0 {
				t.Fatalf("wrote outside the roots: %v", ents)
			}
		})
	}
	if out, isErr := tooltest.Call(t, d, "apply", map[string]any{"agent_id": "t", "file_path": "backend", "new_content": "x"}); !isErr || strings.HasPrefix(out["error"].(string), "edit 0") {
		t.Errorf("apply names its one edit plainly: %v", out)
	}
	empty := tooltest.NewDispatcher(t, tooltest.TestConfig())
	if out, isErr := tooltest.Call(t, empty, "apply", map[string]any{"agent_id": "t", "file_path": "a.py", "new_content": "x"}); !isErr || !strings.Contains(out["suggested_next_step"].(string), "ingest") {
		t.Errorf("apply before any ingest: %v", out)
	}
}

// TestApplyKeepsFormatAndMode: CRLF stays CRLF, the trailing newline and
// the executable bit stay, unless preserve_format is false.
func TestApplyKeepsFormatAndMode(t *testing.T) {
	t.Parallel()
	d, dir := tooltest.IngestedFixture(t)
	p := filepath.Join(dir, "backend", "tool.py")
	os.WriteFile(p, []byte("#!/usr/bin/env python3\r\nprint('a')\r\n"), 0o755)
	os.Chmod(p, 0o755)
	out := tooltest.MustCall(t, d, "apply", map[string]any{"agent_id": "t", "file_path": "backend/tool.py", "new_content": "#!/usr/bin/env python3\nprint('b')", "detail": "full"})
	fi, _ := os.Stat(p)
	if got := readFile(t, p); got != "#!/usr/bin/env python3\r\nprint('b')\r\n" || fi.Mode().Perm() != 0o755 {
		t.Fatalf("after apply: %q %v", got, fi.Mode())
	}
	res := out["results"].([]any)[0].(map[string]any)
	if res["mode"] != "0755" || res["format"].(map[string]any)["line_endings"] != "crlf" {
		t.Errorf("result %v", res)
	}
	tooltest.MustCall(t, d, "apply", map[string]any{"agent_id": "t", "file_path": "backend/tool.py", "new_content": "raw\n", "preserve_format": false})
	if got := readFile(t, p); got != "raw\n" {
		t.Errorf("preserve_format false: %q", got)
	}
}

// TestApplyCancelledRestores: a client cancel between two files stops the
// batch and restores what it wrote.
func TestApplyCancelledRestores(t *testing.T) {
	t.Parallel()
	d, dir := tooltest.IngestedFixture(t)
	before := tree(t, dir)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	raw, _ := json.Marshal(map[string]any{"agent_id": "t", "edits": []any{
		map[string]any{"file_path": "backend/auth.py", "new_content": "x = 1\n"},
		map[string]any{"file_path": "backend/session.py", "new_content": "y = 2\n"},
		map[string]any{"file_path": "backend/z.py", "new_content": "z = 3\n"},
	}})
	res := d.Call(ctx, "apply_batch", raw, func(_, _ float64, msg string) {
		if strings.Contains(msg, "wrote ") {
			cancel()
		}
	})
	if !res.IsError || !strings.Contains(res.Text(), "cancelled") {
		t.Fatalf("cancelled batch answered %s", res.Text())
	}
	if diff := cmp.Diff(before, tree(t, dir)); diff != "" {
		t.Fatalf("a cancelled batch left changes:\n%s", diff)
	}
}

// TestApplyCancelledDuringVerifyRestores: a client that gives up while
// the checks run never sees the verdict; the files and the graph go back.
func TestApplyCancelledDuringVerifyRestores(t *testing.T) {
	t.Parallel()
	d, dir := tooltest.IngestedFixture(t)
	before := tree(t, dir)
	nodes := d.Session.Current().Graph.NumNodes()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	raw, _ := json.Marshal(map[string]any{"agent_id": "t", "verify": true, "edits": []any{
		map[string]any{"file_path": "backend/config.py", "new_content": "DEBUG = True\n\n\ndef extra():\n    return DEBUG\n"},
	}})
	res := d.Call(ctx, "apply_batch", raw, func(_, _ float64, msg string) {
		if strings.Contains(msg, "verify started") {
			cancel()
		}
	})
	if !res.IsError || !strings.Contains(res.Text(), "cancelled during verification") {
		t.Fatalf("answered %s", res.Text())
	}
	if diff := cmp.Diff(before, tree(t, dir)); diff != "" {
		t.Fatalf("not restored:\n%s", diff)
	}
	if got := d.Session.Current().Graph.NumNodes(); got != nodes {
		t.Errorf("graph: %d nodes, %d before", got, nodes)
	}
}

// TestEditPreviewCommit: a preview shows the diff and changes nothing; the
// commit writes it; a file changed since the preview is refused, naming
// the change; previews are used once, need confirm, and expire.
func TestEditPreviewCommit(t *testing.T) {
	t.Parallel()
	d, dir := tooltest.IngestedFixture(t)
	p := filepath.Join(dir, "backend", "config.py")
	old := readFile(t, p)
	next := old + "TIMEOUT = 30\n"
	pv := tooltest.MustCall(t, d, "edit_preview", map[string]any{"agent_id": "t", "file_path": "backend/config.py", "new_content": next, "description": "add a timeout"})
	if readFile(t, p) != old {
		t.Fatal("edit_preview wrote the file")
	}
	if pv["base_sha256"] != edit.SHA256([]byte(old)) || pv["action"] != "modify" || pv["lines_added"] != 1.0 || !strings.Contains(pv["diff"].(string), "+TIMEOUT = 30\n") || pv["next_suggested_tool"] != "edit_commit" {
		t.Fatalf("preview %v", pv)
	}
	id := pv["preview_id"].(string)
	if out, isErr := tooltest.Call(t, d, "edit_commit", map[string]any{"agent_id": "t", "preview_id": id, "confirm": false}); !isErr || !strings.Contains(out["error"].(string), "confirm is false") {
		t.Fatalf("confirm false: %v", out)
	}
	out := tooltest.MustCall(t, d, "edit_commit", map[string]any{"agent_id": "t", "preview_id": id, "confirm": true})
	if readFile(t, p) != next || out["preview_id"] != id || out["status"] != "applied" {
		t.Fatalf("commit: %v", out)
	}
	if out, isErr := tooltest.Call(t, d, "edit_commit", map[string]any{"agent_id": "t", "preview_id": id, "confirm": true}); !isErr || !strings.Contains(out["error"].(string), "already committed") {
		t.Fatalf("second commit: %v", out)
	}

	// Stale: the file moves after the preview.
	pv = tooltest.MustCall(t, d, "edit_preview", map[string]any{"agent_id": "t", "file_path": "backend/config.py", "new_content": "A = 1\n"})
	os.WriteFile(p, []byte(next+"RETRIES = 3\n"), 0o644)
	stale, isErr := tooltest.Call(t, d, "edit_commit", map[string]any{"agent_id": "t", "preview_id": pv["preview_id"], "confirm": true})
	if !isErr || !strings.Contains(stale["error"].(string), "changed since preview") || !strings.Contains(stale["error"].(string), "+1 −0 lines") ||
		!strings.Contains(stale["details"].(map[string]any)["changed_since_preview"].(string), "+RETRIES = 3") {
		t.Fatalf("stale commit: %v", stale)
	}
	if readFile(t, p) != next+"RETRIES = 3\n" {
		t.Fatal("a stale commit wrote")
	}

	// Expiry.
	ps := previewStore(d.Session)
	pv = tooltest.MustCall(t, d, "edit_preview", map[string]any{"agent_id": "t", "file_path": "backend/new_module.py", "new_content": "B = 2\n"})
	if pv["base_sha256"] != "absent" || pv["action"] != "create" {
		t.Fatalf("preview of a new file: %v", pv)
	}
	later := time.Now().Add(previewTTL + time.Minute)
	ps.SetClock(func() time.Time { return later })
	if out, isErr := tooltest.Call(t, d, "edit_commit", map[string]any{"agent_id": "t", "preview_id": pv["preview_id"], "confirm": true}); !isErr || !strings.Contains(out["error"].(string), "expired") {
		t.Fatalf("expired preview: %v", out)
	}
	if _, err := os.Stat(filepath.Join(dir, "backend", "new_module.py")); err == nil {
		t.Fatal("an expired preview was written")
	}
}

// A file whose commits speed up is a tremor hotspot: a write to it says so,
// and with the daemon watching the insight also becomes an alert — once,
// while unacknowledged.
func TestApplyTremorInsightBecomesAlert(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	git := func(date string, args ...string) {
		t.Helper()
		tooltest.Git(t, dir, date, args...)
	}
	put := func(rel, body string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, rel), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git("2025-01-01T10:00:00Z", "init", "-q")
	put("hot.py", "def hot():\n    return 0\n")
	put("calm.py", "def calm():\n    return 0\n")
	git("2025-01-01T10:00:00Z", "add", ".")
	git("2025-01-01T10:00:00Z", "commit", "-q", "-m", "start")
	for i, day := range []string{"2026-06-05", "2026-06-12", "2026-06-20", "2026-06-28"} {
		put("hot.py", fmt.Sprintf("def hot():\n    return %d\n", i+1))
		git(day+"T10:00:00Z", "commit", "-q", "-am", "speed up")
	}
	cfg := tooltest.TestConfig()
	cfg.RuntimeDir = t.TempDir()
	d := tooltest.NewDispatcher(t, cfg)
	tooltest.MustCall(t, d, "ingest", map[string]any{"agent_id": "t", "path": dir})
	tooltest.MustCall(t, d, "daemon_start", map[string]any{"agent_id": "t"})
	defer tooltest.MustCall(t, d, "daemon_stop", map[string]any{"agent_id": "t"})

	kinds := func(out map[string]any, file string) []string {
		var ks []string
		for _, in := range out["proactive_insights"].([]any) {
			if m := in.(map[string]any); m["file"] == file {
				ks = append(ks, m["kind"].(string))
			}
		}
		return ks
	}
	out := tooltest.MustCall(t, d, "apply", map[string]any{"agent_id": "t", "file_path": "hot.py", "new_content": "def hot():\n    return 9\n"})
	if !slices.Contains(kinds(out, "hot.py"), "tremor_hotspot") {
		t.Fatalf("no tremor_hotspot for hot.py: %v", out["proactive_insights"])
	}
	out = tooltest.MustCall(t, d, "apply", map[string]any{"agent_id": "t", "file_path": "calm.py", "new_content": "def calm():\n    return 9\n"})
	if slices.Contains(kinds(out, "calm.py"), "tremor_hotspot") {
		t.Fatalf("calm.py changed once: no tremor, got %v", out["proactive_insights"])
	}
	tooltest.MustCall(t, d, "apply", map[string]any{"agent_id": "t", "file_path": "hot.py", "new_content": "def hot():\n    return 10\n"})
	list := tooltest.MustCall(t, d, "alerts_list", map[string]any{"agent_id": "t"})
	n := 0
	for _, a := range list["alerts"].([]any) {
		if m := a.(map[string]any); m["kind"] == "tremor_hotspot" {
			n++
			if !strings.Contains(m["message"].(string), "hot.py changed in 4 commits") {
				t.Errorf("alert message %q", m["message"])
			}
		}
	}
	if n != 1 {
		t.Fatalf("%d tremor_hotspot alerts after two writes to hot.py, want 1: %v", n, list["alerts"])
	}
}
