package session

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// MarkFresh stands for a check made at its time: a later MarkFresh or
// check wins, an older one changes nothing, and StalenessNow always looks.
func TestMarkFresh(t *testing.T) {
	root := t.TempDir()
	p := filepath.Join(root, "a.go")
	os.WriteFile(p, []byte("package a\n"), 0o644)
	fi, _ := os.Stat(p)
	b := &Bundle{Files: []RootFiles{{Root: root, Prefix: "file::", Files: []FileStamp{{Rel: "a.go", Size: fi.Size(), MTimeNS: fi.ModTime().UnixNano()}}}}}
	s := &State{}
	os.WriteFile(p, []byte("package a // changed\n"), 0o644)
	if st := s.StalenessNow(b); len(st.Modified) != 1 {
		t.Fatalf("StalenessNow after a write: %+v", st)
	}
	s.MarkFresh(b, time.Now().Add(-time.Hour)) // older than the check: ignored
	if st := s.Staleness(b); len(st.Modified) != 1 {
		t.Fatalf("an older MarkFresh replaced a newer check: %+v", st)
	}
	s.MarkFresh(b, time.Now())
	if st := s.Staleness(b); st.Stale() || !st.Known {
		t.Fatalf("after MarkFresh: %+v", st)
	}
	if st := s.StalenessNow(b); len(st.Modified) != 1 {
		t.Fatalf("StalenessNow after MarkFresh must look again: %+v", st)
	}
}
