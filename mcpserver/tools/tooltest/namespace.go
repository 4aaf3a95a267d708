package tooltest

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/m1nd-go/m1nd/core/testcorpus"
)

// writeRepo writes files under a new directory named name.
func WriteRepo(t *testing.T, name string, files map[string]string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), name)
	if err := testcorpus.Write(dir, files); err != nil {
		t.Fatal(err)
	}
	return dir
}

func ToText(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
