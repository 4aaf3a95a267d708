package edit

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// TestWritesLandInTheRootThePathBelongsTo: with a docs folder ingested
// before a code root and a docs root nested in the code root, a relative
// path is written under the root that holds its parent directory — never
// "the first root where it fits" — and a path whose parent is a file is
// refused, creating nothing anywhere. Every answer names the root.
func TestWritesLandInTheRootThePathBelongsTo(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	notes, code := filepath.Join(base, "notes"), filepath.Join(base, "flask")
	files := map[string]string{
		"notes/refs.bib":              "@book{x, title={X}}\n",
		"notes/README.md":             "# Notes\n\nAbout signals.\n",
		"flask/src/flask/__init__.py": "from .signals import *\n",
		"flask/src/flask/signals.py":  "def send():\n    return 1\n",
		"flask/docs/index.rst":        "Flask\n=====\n",
		"flask/pyproject.toml":        "[project]\nname = \"flask\"\n",
	}
	for rel, body := range files {
		p := filepath.Join(base, rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	d := tooltest.NewDispatcher(t, session.Config{})
	tooltest.MustCall(t, d, "ingest", map[string]any{"agent_id": "t", "path": notes, "adapter": "universal"})
	tooltest.MustCall(t, d, "ingest", map[string]any{"agent_id": "t", "path": code, "mode": "merge"})
	tooltest.MustCall(t, d, "ingest", map[string]any{"agent_id": "t", "path": filepath.Join(code, "docs"), "adapter": "universal", "mode": "merge"})

	out, isErr := tooltest.Call(t, d, "apply_batch", map[string]any{"agent_id": "t", "edits": []any{
		map[string]any{"file_path": "src/flask/signals.py/sub.py", "new_content": "x = 1\n"},
	}})
	if !isErr || !strings.Contains(out["error"].(string), "signals.py is a file") {
		t.Fatalf("a path under a file: %v", out)
	}
	if _, err := os.Stat(filepath.Join(notes, "src")); err == nil {
		t.Fatal("the refused write created directories in the docs root")
	}

	out = tooltest.MustCall(t, d, "apply", map[string]any{"agent_id": "t", "file_path": "src/flask/new_mod.py", "new_content": "def f():\n    return 2\n", "detail": "full"})
	r := out["results"].([]any)[0].(map[string]any)
	if r["root"] != code || r["absolute_path"] != filepath.Join(code, "src", "flask", "new_mod.py") {
		t.Fatalf("new module written to %v under %v, want the code root %s", r["absolute_path"], r["root"], code)
	}
	if _, err := os.Stat(filepath.Join(notes, "src")); err == nil {
		t.Fatal("the write created directories in the docs root")
	}

	out = tooltest.MustCall(t, d, "edit_preview", map[string]any{"agent_id": "t", "file_path": "src/flask/other.py", "new_content": "y = 3\n"})
	if out["root"] != code || !strings.HasPrefix(out["absolute_path"].(string), code+string(filepath.Separator)) {
		t.Fatalf("preview of a new module placed under %v (%v), want %s", out["root"], out["absolute_path"], code)
	}

	// A new file none of whose directories exists anywhere goes to the
	// only code root; a document beside the docs folder's files to it.
	out = tooltest.MustCall(t, d, "apply", map[string]any{"agent_id": "t", "file_path": "tools/gen.py", "new_content": "z = 4\n", "detail": "full"})
	if r := out["results"].([]any)[0].(map[string]any); r["root"] != code {
		t.Fatalf("a new top-level directory went to %v, want the code root", r["root"])
	}
	out = tooltest.MustCall(t, d, "apply", map[string]any{"agent_id": "t", "file_path": "refs2.bib", "new_content": "@book{y, title={Y}}\n", "detail": "full"})
	if r := out["results"].([]any)[0].(map[string]any); r["root"] != code {
		t.Fatalf("a new top-level file went to %v, want the code root (the root itself exists everywhere; code first)", r["root"])
	}
}

// TestNewFileOfNoRootIsRefused: with two code roots (namespaced), a new
// file none of whose directories exists in either is not given to the
// first: the answer asks which one, with the spellings that say it.
func TestNewFileOfNoRootIsRefused(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	for _, rel := range []string{"api/server/main.go", "web/app/main.go"} {
		p := filepath.Join(base, rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte("package main\n\nfunc main() {}\n"), 0o644)
	}
	d := tooltest.NewDispatcher(t, session.Config{})
	tooltest.MustCall(t, d, "ingest", map[string]any{"agent_id": "t", "path": filepath.Join(base, "api")})
	tooltest.MustCall(t, d, "ingest", map[string]any{"agent_id": "t", "path": filepath.Join(base, "web"), "mode": "merge"})
	out, isErr := tooltest.Call(t, d, "apply", map[string]any{"agent_id": "t", "file_path": "tools/gen.go", "new_content": "package tools\n"})
	if !isErr {
		t.Fatalf("a new file of no root was written: %v", out)
	}
	details, _ := out["details"].(map[string]any)
	cands, _ := details["candidates"].([]any)
	if len(cands) != 2 || cands[0] != "api/tools/gen.go" || cands[1] != "web/tools/gen.go" {
		t.Fatalf("candidates %v, want the namespaced spellings; answer %v", cands, out)
	}
	for _, r := range []string{"api", "web"} {
		if _, err := os.Stat(filepath.Join(base, r, "tools")); err == nil {
			t.Fatalf("the refused write created %s/tools", r)
		}
	}
	out = tooltest.MustCall(t, d, "apply", map[string]any{"agent_id": "t", "file_path": "web/tools/gen.go", "new_content": "package tools\n", "detail": "full"})
	if r := out["results"].([]any)[0].(map[string]any); r["root"] != filepath.Join(base, "web") {
		t.Fatalf("namespaced write went to %v", r["root"])
	}
	// A path one root holds the parent of needs no namespace.
	out = tooltest.MustCall(t, d, "apply", map[string]any{"agent_id": "t", "file_path": "server/extra.go", "new_content": "package main\n", "detail": "full"})
	if r := out["results"].([]any)[0].(map[string]any); r["root"] != filepath.Join(base, "api") {
		t.Fatalf("server/extra.go went to %v, want api (it holds server/)", r["root"])
	}
}
