package documents

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/m1nd-go/m1nd/core/testcorpus"
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// linesRepo: a module of two functions, a guide naming both, and a
// mkdocstrings reference page rendering one.
var linesRepo = map[string]string{
	"src/shop/__init__.py": "",
	"src/shop/tools.py":    "def alpha(x):\n    return x + 1\n\n\ndef beta(y):\n    return y * 2\n",
	"docs/guide.md":        "# Guide\n\nCall `shop.tools.alpha` to add one; `shop.tools.beta` doubles.\n",
	"docs/reference.md":    "# Reference\n\nThe functions, from their docstrings:\n\n::: shop.tools.beta\n    options:\n        show_source: true\n",
}

// A symbol is dated by its own lines: beta's edit after the guide makes
// the guide stale about beta, not about alpha, although both live in the
// same file; the reference page renders beta and is skipped.
func TestDocumentDriftDatesASymbolByItsOwnLines(t *testing.T) {
	t.Parallel()
	dir := srcCommitted(t, linesRepo)
	commitAt(t, dir, "2024-01-01T00:00:00Z", "docs")
	// beta takes a new required parameter; alpha is untouched.
	tools := "def alpha(x):\n    return x + 1\n\n\ndef beta(y, factor):\n    z = y * factor\n    return z\n"
	if err := os.WriteFile(filepath.Join(dir, "src/shop/tools.py"), []byte(tools), 0o644); err != nil {
		t.Fatal(err)
	}
	commitAt(t, dir, "2024-06-01T00:00:00Z", "src/shop/tools.py")

	d := driftServer(t, dir)
	out := tooltest.MustCall(t, d, "document_drift", map[string]any{"agent_id": "t", "lower_confidence": true, "unchecked": true})
	type finding struct{ Doc, Kind, Mention, At, DatedBy string }
	var got []finding
	for _, doc := range out["documents"].([]any) {
		dm := doc.(map[string]any)
		for _, f := range dm["findings"].([]any) {
			m := f.(map[string]any)
			at, _ := m["code_changed_at"].(string)
			by, _ := m["dated_by"].(string)
			got = append(got, finding{dm["source_path"].(string), m["kind"].(string), m["mention"].(string), at, by})
		}
	}
	want := []finding{{"docs/guide.md", "code_change_unreflected", "shop.tools.beta", "2024-06-01T00:00:00Z", "signature in lines 5-5"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
	sum := out["summary"].(map[string]any)
	for k, v := range map[string]float64{"skipped_generated": 1, "cleared_by_lines": 1, "dated_by_file": 0, "stale_bindings": 1} {
		if sum[k] != v {
			t.Errorf("summary %s = %v, want %v", k, sum[k], v)
		}
	}
}

// A sweep (one commit reformatting many files) after the guide does not
// make it stale about alpha, whose own lines only the sweep touched;
// beta, changed on its own before the sweep and after the guide, stays
// stale and is dated by its own change.
func TestDocumentDriftPassesOverSweeps(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	files := map[string]string{}
	for k, v := range linesRepo {
		files[k] = v
	}
	for i := range sweepFiles {
		files[fmt.Sprintf("src/shop/m%d.py", i)] = "def f():\n    return 0\n"
	}
	if err := testcorpus.Write(dir, files); err != nil {
		t.Fatal(err)
	}
	gitAt(t, dir, "2023-01-01T00:00:00Z", "init", "-q", "-b", "main")
	commitAt(t, dir, "2023-01-01T00:00:00Z", "src")
	commitAt(t, dir, "2024-01-01T00:00:00Z", "docs")
	write := func(p, text string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, p), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("src/shop/tools.py", "def alpha(x):\n    return x + 1\n\n\ndef beta(y, k):\n    return y * k\n")
	commitAt(t, dir, "2024-03-01T00:00:00Z", "src/shop/tools.py")
	write("src/shop/tools.py", "def alpha(x):\n    return (x + 1)\n\n\ndef beta(y, k):  # scaled\n    return (y * k)\n")
	for i := range sweepFiles {
		write(fmt.Sprintf("src/shop/m%d.py", i), "def f():\n    return (0)\n")
	}
	commitAt(t, dir, "2024-06-01T00:00:00Z", "src")

	d := driftServer(t, dir)
	out := tooltest.MustCall(t, d, "document_drift", map[string]any{"agent_id": "t", "lower_confidence": true, "unchecked": true, "path": "docs/guide.md"})
	var got []string
	for _, f := range out["documents"].([]any)[0].(map[string]any)["findings"].([]any) {
		m := f.(map[string]any)
		got = append(got, m["mention"].(string)+" "+m["code_changed_at"].(string)+" "+m["dated_by"].(string))
	}
	want := []string{"shop.tools.beta 2024-03-01T00:00:00Z signature in lines 5-5, 1 later sweep(s) of ≥10 files or type-only edit(s) passed over"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
	if n := out["summary"].(map[string]any)["cleared_by_sweeps"]; n != 1.0 {
		t.Errorf("cleared_by_sweeps = %v, want 1 (alpha)", n)
	}
}

// A section that shows a file through a literal include renders that
// file's code: a later change of it is on the page already (marshmallow's
// and loguru's example pages were dated stale).
func TestDocumentDriftSkipsALiteralInclude(t *testing.T) {
	t.Parallel()
	dir := srcCommitted(t, map[string]string{
		"src/shop/__init__.py": "",
		"src/shop/app.py":      "def run():\n    return 1\n",
		"docs/guide.md":        "# Guide\n\nCall `shop.app.run`:\n\n```{literalinclude} ../src/shop/app.py\n```\n",
	})
	commitAt(t, dir, "2024-01-01T00:00:00Z", "docs")
	if err := os.WriteFile(filepath.Join(dir, "src/shop/app.py"), []byte("def run():\n    return 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	commitAt(t, dir, "2024-06-01T00:00:00Z", "src/shop/app.py")
	d := driftServer(t, dir)
	out := tooltest.MustCall(t, d, "document_drift", map[string]any{"agent_id": "t", "lower_confidence": true, "unchecked": true, "path": "docs/guide.md"})
	if fs := out["documents"].([]any)[0].(map[string]any)["findings"].([]any); len(fs) != 0 {
		t.Errorf("findings on a page that includes the code: %s", tooltest.ToJSON(fs))
	}
	if n := out["summary"].(map[string]any)["skipped_generated"]; n != 1.0 {
		t.Errorf("skipped_generated = %v, want 1", n)
	}
}
