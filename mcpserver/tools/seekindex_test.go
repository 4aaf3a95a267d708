package tools

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/m1nd-go/m1nd/ingest/walk"
)

// TestReadUpTo checks the seek index's reader against what it replaced:
// at most n bytes, the whole file when shorter.
func TestReadUpTo(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name string
		size int
		n    int64
	}{
		{"empty", 0, 10},
		{"shorter", 5, 10},
		{"one short", 9, 10},
		{"exactly n", 10, 10},
		{"longer", 25, 10},
		{"much longer", 70000, 4097},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := bytes.Repeat([]byte("abcdefg\n"), tc.size/8+1)[:tc.size]
			p := filepath.Join(dir, tc.name)
			if err := os.WriteFile(p, data, 0o644); err != nil {
				t.Fatal(err)
			}
			f, err := os.Open(p)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			got, err := walk.ReadOpened(f, tc.n)
			if err != nil {
				t.Fatal(err)
			}
			if want := data[:min(int64(len(data)), tc.n)]; !bytes.Equal(got, want) {
				t.Errorf("read %d bytes, want the first %d", len(got), len(want))
			}
		})
	}
}
