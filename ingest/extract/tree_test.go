package extract

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/m1nd-go/m1nd/core/testcorpus"
)

// TestExtractTree extracts every file of a real source tree and fails on
// any extraction error or broken invariant. It needs a tree, so it is
// opt-in:
//
//	M1ND_EXTRACT_TREE=$(go env GOROOT)/src go test -run TestExtractTree -timeout 20m ./ingest/extract
//
// Checked before commit on the Go source tree (11,478 files, 0 errors), the
// CPython 3.11 library with site-packages (46,262 files) and npm (1,943).
func TestExtractTree(t *testing.T) {
	dir := testcorpus.OptIn(t, "M1ND_EXTRACT_TREE", "a source tree")
	files, parseErrs := 0, 0
	langs := map[string]int{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		r, err := ExtractFile(filepath.ToSlash(rel), src)
		if err != nil {
			t.Errorf("%s: %v", rel, err)
			return nil
		}
		checkInvariants(t, r)
		files++
		langs[r.Language]++
		if r.ParseErrors > 0 {
			parseErrs++
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d files, %d with syntax errors, by language: %v", files, parseErrs, langs)
}
