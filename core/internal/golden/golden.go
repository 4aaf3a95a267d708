// Package golden compares a test's output with a file under testdata: the
// one place core's golden tests read, rewrite and diff their files.
package golden

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Check fails t when data (a newline is added) differs from the file at
// path; with update it writes data there first, making its directory.
// what names the compared thing in the failure ("learned state").
func Check(t testing.TB, path string, data []byte, update bool, what string) {
	t.Helper()
	data = append(data, '\n')
	if update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to write it)", err)
	}
	if d := cmp.Diff(string(want), string(data)); d != "" {
		t.Errorf("%s differs from %s (-want +got):\n%s", what, path, d)
	}
}
