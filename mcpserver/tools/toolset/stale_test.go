package toolset_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// An edit one moment after an ingest — after an answer has already been
// checked — is flagged on the next answer naming the file; a changed file
// the answer does not name is not; a deletion follows the modifications.
func TestEditAfterIngestIsFlagged(t *testing.T) {
	d, dir := tooltest.IngestedFixture(t)
	glob := map[string]any{"agent_id": "t", "pattern": "backend/*.py"}
	staleOf := func() []string {
		out := tooltest.MustCall(t, d, "glob", glob)
		sf, _ := out["stale_files"].(map[string]any)
		if sf == nil {
			return nil
		}
		return tooltest.ToStrings(sf["files"])
	}
	if got := staleOf(); got != nil {
		t.Fatalf("right after the ingest: stale_files %q", got)
	}
	for _, rel := range []string{"backend/session.py", "README.md"} {
		if err := os.WriteFile(filepath.Join(dir, rel), []byte("# rewritten\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if got, want := staleOf(), []string{"file::backend/session.py"}; !slices.Equal(got, want) {
		t.Fatalf("after an edit: stale_files %q, want %q", got, want)
	}
	os.Remove(filepath.Join(dir, "backend", "auth.py"))
	if got, want := staleOf(), []string{"file::backend/session.py", "file::backend/auth.py"}; !slices.Equal(got, want) {
		t.Fatalf("after a deletion: stale_files %q, want %q", got, want)
	}
}
