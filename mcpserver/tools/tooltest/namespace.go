package tooltest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// writeRepo writes files under a new directory named name.
func WriteRepo(t *testing.T, name string, files map[string]string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), name)
	for p, body := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func ToText(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
