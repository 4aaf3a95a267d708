package query

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

func TestBatchViewGolden(t *testing.T) {
	t.Parallel()
	d, root := tooltest.FsSetup(t)
	for _, tc := range []struct {
		name string
		args map[string]any
	}{
		{"batch_view_files", map[string]any{"files": []string{"app/auth.py", "app/*.py", "cmd/main.go"}, "max_lines_per_file": 6}},
		{"batch_view_summary", map[string]any{"files": []string{"app/auth.py", "cmd/main.go", "legacy/crlf.py"}, "summary_mode": true}},
		{"batch_view_errors", map[string]any{"files": []string{"app/util.py", "app/auht.py", "../outside/secret.txt", "link_out.txt", "data/blob.bin", "app", "nothing/*.rs"}, "auto_ingest": false}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// The fixture's parent holds the directory symlinks lead out to.
			tooltest.CheckGolden(t, tc.name, tooltest.FsOK(t, d, "batch_view", tc.args), filepath.Dir(root))
		})
	}
}

// Per-file failures are reported per file and never fail the batch: a
// missing file names the closest paths, ../ escapes and symlinks out of
// the root are refused like view refuses them.
func TestBatchViewPerFileErrors(t *testing.T) {
	t.Parallel()
	d, root := tooltest.FsSetup(t)
	gen := d.Session.Current().Gen
	out := tooltest.FsOK(t, d, "batch_view", map[string]any{"files": []string{
		"app/util.py", "app/auht.py", "../outside/secret.txt", "app/../../outside/secret.txt",
		root + "/../outside/secret.txt", "/etc/passwd", "link_out.txt", "data/blob.bin", "app", "link_in.py",
	}})
	want := map[string][]string{
		"app/util.py":                   {"ok"},
		"app/auht.py":                   {"error", "does not exist", "app/auth.py"},
		"../outside/secret.txt":         {"error", "climbs out"},
		"app/../../outside/secret.txt":  {"error", "climbs out"},
		root + "/../outside/secret.txt": {"error", `".."`},
		"/etc/passwd":                   {"error", "outside every ingest root"},
		"link_out.txt":                  {"error", "symlink"},
		"data/blob.bin":                 {"error", "binary"},
		"app":                           {"error", "directory"},
	}
	// link_in.py is app/util.py through a symlink inside the root: the
	// same file, shown once.
	files := tooltest.BatchFiles(t, out)
	if len(files) != len(want) {
		t.Fatalf("%d entries, want %d: %v", len(files), len(want), files)
	}
	for _, f := range files {
		w, ok := want[f["input"].(string)]
		if !ok {
			t.Errorf("unexpected entry %v", f)
			continue
		}
		text := strings.ToLower(fmt.Sprint(f["status"], " ", f["error"], " ", f["hint"], " ", f["did_you_mean"]))
		for _, s := range w {
			if !strings.Contains(text, strings.ToLower(s)) {
				t.Errorf("%s: %q does not mention %q", f["input"], text, s)
			}
		}
		if f["status"] != "ok" && f["content"] != nil {
			t.Errorf("%s: failed entry shows content %q", f["input"], f["content"])
		}
	}
	if out["shown"] != 1.0 || out["errors"] != 8.0 || out["requested"] != 10.0 {
		t.Errorf("shown %v errors %v requested %v, want 1, 8 and 10", out["shown"], out["errors"], out["requested"])
	}
	if strings.Contains(fmt.Sprint(out), "login secret") {
		t.Error("content from outside the root was shown")
	}
	if d.Session.Current().Gen != gen {
		t.Error("refused paths changed the graph")
	}
}

func TestBatchViewBadInput(t *testing.T) {
	t.Parallel()
	d, _ := tooltest.FsSetup(t)
	many := make([]string, batchViewMaxFiles+1)
	for i := range many {
		many[i] = fmt.Sprintf("f%d.py", i)
	}
	for _, tc := range []struct {
		args  map[string]any
		wants []string
	}{
		{map[string]any{}, []string{"missing required parameter", "files"}},
		{map[string]any{"files": []string{}}, []string{"files is empty", "glob"}},
		{map[string]any{"files": []string{" ", ""}}, []string{"files is empty"}},
		{map[string]any{"files": many}, []string{"at most 50"}},
		{map[string]any{"files": "app/util.py", "max_total_bytes": 10}, []string{">= 1000"}},
		{map[string]any{"files": []string{"app/util.py"}, "max_lines_per_file": 0}, []string{">= 1"}},
		{map[string]any{"files": []any{1}}, []string{"array of strings"}},
	} {
		tooltest.FsErr(t, d, "batch_view", tc.args, tc.wants...)
	}
	// Nothing ingested: the call teaches to ingest.
	empty := tooltest.NewDispatcher(t, tooltest.TestConfig())
	tooltest.FsErr(t, empty, "batch_view", map[string]any{"files": []string{"a.py"}}, "ingest")
}

// The byte budget cuts a file at a line (next_offset continues it) and
// omits the files after it; the lines per file bound each file.
func TestBatchViewBudget(t *testing.T) {
	t.Parallel()
	d, root := tooltest.FsSetup(t)
	long := strings.Repeat("value = compute(value)  # padding to make the line longer\n", 100)
	if err := os.WriteFile(filepath.Join(root, "notes", "long.py"), []byte(long), 0o644); err != nil {
		t.Fatal(err)
	}
	out := tooltest.FsOK(t, d, "batch_view", map[string]any{"files": []string{"web/min.js", "app/util.py", "notes/long.py", "app/auth.py"}, "max_total_bytes": 1000, "auto_ingest": false})
	if out["truncated"] != true || out["used_bytes"].(float64) > 1000 || out["shown"] != 2.0 || out["omitted"] != 2.0 {
		t.Fatalf("budget not applied: %v", out)
	}
	st := map[string]map[string]any{}
	for _, f := range tooltest.BatchFiles(t, out) {
		st[f["file_path"].(string)] = f
	}
	// min.js is one 2 KB (clipped) line: it cannot be cut at a line, so it
	// is omitted and costs nothing; util.py fits; long.py is cut at a
	// line; auth.py comes after the budget is spent.
	if st["web/min.js"]["status"] != "omitted" || st["app/util.py"]["truncated"] != nil || st["app/auth.py"]["status"] != "omitted" {
		t.Errorf("statuses: %v", st)
	}
	cut := st["notes/long.py"]
	if cut["status"] != "ok" || cut["truncated"] != true || cut["next_offset"] != cut["end_line"].(float64)+1 {
		t.Errorf("long.py not cut at a line with next_offset: %v", cut)
	}
	if strings.Count(cut["content"].(string), "\n") != int(cut["end_line"].(float64)) {
		t.Errorf("long.py content does not end at end_line: %q", cut["content"])
	}
	if out["next_suggested_tool"] != "view" || out["next_suggested_target"] != "notes/long.py" {
		t.Errorf("guidance %v %v", out["next_suggested_tool"], out["next_suggested_target"])
	}
	out = tooltest.FsOK(t, d, "batch_view", map[string]any{"files": []string{"app/auth.py"}, "max_lines_per_file": 3})
	f := tooltest.BatchFiles(t, out)[0]
	if f["end_line"] != 3.0 || f["next_offset"] != 4.0 || out["next_suggested_tool"] != "view" {
		t.Errorf("max_lines_per_file: %v / %v", f, out["next_suggested_tool"])
	}
	// Nothing fits: the guidance says how to make room.
	out = tooltest.FsOK(t, d, "batch_view", map[string]any{"files": []string{"web/min.js"}, "max_total_bytes": 1000})
	if out["shown"] != 0.0 || !strings.Contains(out["next_step_hint"].(string), "max_total_bytes") {
		t.Errorf("nothing fits: %v", out)
	}
}

// Files the graph lacks are merged in one build: one new generation.
func TestBatchViewAutoIngest(t *testing.T) {
	t.Parallel()
	d, _ := tooltest.FsSetup(t)
	before := d.Session.Current().Gen
	out := tooltest.FsOK(t, d, "batch_view", map[string]any{"files": []string{"notes/*.py", "notes/new.py", "notes/other.py", "lab/deep/x.py", "app/util.py"}})
	if out["auto_ingested"] != 3.0 {
		t.Fatalf("auto_ingested %v, want 3 (the glob matches no indexed file): %v", out["auto_ingested"], out["files"])
	}
	if g := d.Session.Current().Gen; g != before+1 {
		t.Errorf("generation %d -> %d, want one build for the batch", before, g)
	}
	for _, id := range []string{"file::notes/new.py::fresh", "file::notes/other.py", "file::lab/deep/x.py"} {
		if _, ok := d.Session.Current().Graph.Lookup(id); !ok {
			t.Errorf("%s not in the graph", id)
		}
	}
	// The glob now matches the ingested files.
	out = tooltest.FsOK(t, d, "batch_view", map[string]any{"files": []string{"notes/*.py"}, "summary_mode": true})
	var paths []string
	for _, f := range tooltest.BatchFiles(t, out) {
		paths = append(paths, f["file_path"].(string))
		if f["summary"] == nil || f["content"] != nil {
			t.Errorf("summary mode: %v", f)
		}
	}
	if !slices.Equal(paths, []string{"notes/new.py", "notes/other.py"}) {
		t.Errorf("glob expanded to %v", paths)
	}
}

// A symlink placed after the ingest, pointing out of the root, is refused
// per file.
func TestBatchViewSymlinkSwap(t *testing.T) {
	t.Parallel()
	d, root := tooltest.FsSetup(t)
	p := filepath.Join(root, "app", "util.py")
	if err := os.Remove(p); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(root, "..", "outside", "secret.txt"), p); err != nil {
		t.Fatal(err)
	}
	out := tooltest.FsOK(t, d, "batch_view", map[string]any{"files": []string{"app/util.py", "cmd/main.go"}})
	files := tooltest.BatchFiles(t, out)
	if files[0]["status"] != "error" || !strings.Contains(files[0]["error"].(string), "symlink") || files[1]["status"] != "ok" {
		t.Errorf("swapped symlink: %v", files)
	}
}

func BenchmarkBatchView5(b *testing.B) {
	d, _ := tooltest.FsSetup(b)
	args := map[string]any{"agent_id": "bench", "files": []string{"app/auth.py", "app/util.py", "cmd/main.go", "legacy/crlf.py", "web/min.js"}}
	for b.Loop() {
		tooltest.MustCall(b, d, "batch_view", args)
	}
}
