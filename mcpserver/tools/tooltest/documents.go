package tooltest

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// docFixtures are the universal lane's fixtures (they name the fixture
// backend's files and symbols).
// docFixtures are the document adapters' test documents (ingest/document).
var docFixtures = func() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "..", "ingest", "document", "testdata", "universal")
}()

// copyDocs writes the document fixtures into a repository root.
func CopyDocs(t testing.TB, root string) {
	t.Helper()
	err := filepath.Walk(docFixtures, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(docFixtures, p)
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		dst := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		return os.WriteFile(dst, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}
