package code

import (
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/m1nd-go/m1nd/ingest/adapter"
)

// TestOnSource: the parse workers hand every file they read to
// Request.OnSource with its bytes, its walk stamp and its entities' lines
// (none for binary contents); files taken from the cache are not read.
// The bytes may be kept: they are still the file's after the ingest.
func TestOnSource(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"pkg/a.go":  "package pkg\n\n// F is f.\nfunc F() int {\n\treturn 1\n}\n",
		"logo.bin":  "\x89PNG\x00\x00binary",
		"README.md": "# title\n",
	}
	writeFiles(t, dir, files)
	var mu sync.Mutex
	got := map[string]adapter.Source{}
	req := adapter.Request{Root: dir, NoGit: true, CacheDir: t.TempDir(), OnSource: func(s adapter.Source) {
		mu.Lock()
		defer mu.Unlock()
		// (kept as handed: the bytes stay the file's after the ingest)
		got[s.Rel] = s
	}}
	ingest(t, req)
	for p, src := range files {
		s, ok := got[p]
		if !ok || string(s.Data) != src || s.Size != int64(len(src)) || s.MTimeNS == 0 {
			t.Errorf("%s: handed %v (%d bytes, stamp %d:%d)", p, ok, len(s.Data), s.Size, s.MTimeNS)
		}
	}
	if d := cmp.Diff([][2]uint32{{4, 6}}, got["pkg/a.go"].Lines); d != "" {
		t.Errorf("a.go's entity lines (-want +got):\n%s", d)
	}
	if got["logo.bin"].Lines != nil {
		t.Errorf("binary file with lines %v", got["logo.bin"].Lines)
	}
	clear(got)
	req.Incremental = true
	ingest(t, req)
	if len(got) != 0 {
		t.Errorf("an unchanged tree's files handed again: %d", len(got))
	}
}
