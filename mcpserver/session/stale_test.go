package session

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/m1nd-go/m1nd/core/graph/graphtest"
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

// oneFileRoot is a root holding a.go, and a bundle stamped from it (files
// and directories).
func oneFileRoot(t *testing.T) (string, *Bundle) {
	t.Helper()
	root := t.TempDir()
	p := filepath.Join(root, "a.go")
	os.WriteFile(p, []byte("package a\n"), 0o644)
	fi, _ := os.Stat(p)
	files := []FileStamp{{Rel: "a.go", Size: fi.Size(), MTimeNS: fi.ModTime().UnixNano()}}
	return root, &Bundle{Files: []RootFiles{{Root: root, Prefix: "file::", Files: files, Dirs: StampDirs(root, files)}}}
}

// A check records what it saw of modified files, and whether any
// directory's entries moved.
func TestStalenessRestat(t *testing.T) {
	root, b := oneFileRoot(t)
	p := filepath.Join(root, "a.go")
	s := &State{}
	os.WriteFile(p, []byte("package a // longer\n"), 0o644)
	st := s.StalenessNow(b)
	if got := st.Restat["file::a.go"]; got.Size != int64(len("package a // longer\n")) || st.DirsMoved {
		t.Fatalf("after an edit: restat %+v, dirs moved %v", st.Restat, st.DirsMoved)
	}
	time.Sleep(10 * time.Millisecond) // a directory mtime step
	os.WriteFile(filepath.Join(root, "b.go"), []byte("package a\n"), 0o644)
	if st := s.StalenessNow(b); !st.DirsMoved || len(st.Added) != 1 {
		t.Fatalf("after an addition: %+v", st)
	}
}

// Files in new directories are found too (their directories are read
// whole), skipped and hidden directories are not entered, and a new tree
// larger than the check reads is left to a walk (NewDirs).
func TestStalenessNewDirectories(t *testing.T) {
	root, b := oneFileRoot(t)
	time.Sleep(10 * time.Millisecond) // a directory mtime step
	for _, rel := range []string{"x/y/b.go", "x/c.go", "node_modules/m/i.js", ".hidden/d.go"} {
		os.MkdirAll(filepath.Join(root, filepath.Dir(rel)), 0o755)
		os.WriteFile(filepath.Join(root, rel), []byte("package x\n"), 0o644)
	}
	st := (&State{}).StalenessNow(b)
	if want := []string{"file::x/c.go", "file::x/y/b.go"}; !slices.Equal(st.Added, want) || st.NewDirs {
		t.Fatalf("added %v (new dirs %v), want %v", st.Added, st.NewDirs, want)
	}
	added, over := addedIn(root, ".", map[string]bool{"a.go": true}, map[string]bool{".": true}, 1)
	if len(added) != 1 || !over {
		t.Fatalf("budget 1: added %v, over %v", added, over)
	}
}

// A large root is stat'ed in parallel runs; findings stay in file order.
func TestStalenessLargeRootInOrder(t *testing.T) {
	root := t.TempDir()
	var files []FileStamp
	for i := range 2000 {
		rel := fmt.Sprintf("f%04d.go", i)
		p := filepath.Join(root, rel)
		os.WriteFile(p, []byte("package a\n"), 0o644)
		fi, _ := os.Stat(p)
		files = append(files, FileStamp{Rel: rel, Size: fi.Size(), MTimeNS: fi.ModTime().UnixNano()})
	}
	b := &Bundle{Files: []RootFiles{{Root: root, Prefix: "file::", Files: files}}}
	var wantMod, wantDel []string
	for i := 0; i < 2000; i += 97 {
		rel := fmt.Sprintf("f%04d.go", i)
		if i%2 == 0 {
			os.WriteFile(filepath.Join(root, rel), []byte("package a // changed\n"), 0o644)
			wantMod = append(wantMod, "file::"+rel)
		} else {
			os.Remove(filepath.Join(root, rel))
			wantDel = append(wantDel, "file::"+rel)
		}
	}
	st := (&State{}).StalenessNow(b)
	if !slices.Equal(st.Modified, wantMod) || !slices.Equal(st.Deleted, wantDel) || len(st.Restat) != len(wantMod) {
		t.Fatalf("modified %v (want %v), deleted %v (want %v), restat %d", st.Modified, wantMod, st.Deleted, wantDel, len(st.Restat))
	}
}

// After Close, a background save (the daemon's quiet save firing late)
// writes nothing: the runtime directory's lock is released.
func TestNoPersistAfterClose(t *testing.T) {
	dir := t.TempDir()
	s := openAt(t, dir)
	publish(t, s, graphtest.PowerLaw(50, 150, 1))
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(filepath.Join(dir, "graph.bin"))
	if err != nil {
		t.Fatalf("Close did not save: %v", err)
	}
	res, err := s.Persist("daemon")
	if err != nil || res.Skipped == "" {
		t.Fatalf("a persist after Close ran: %+v, %v", res, err)
	}
	if fi2, _ := os.Stat(filepath.Join(dir, "graph.bin")); !fi2.ModTime().Equal(fi.ModTime()) {
		t.Fatal("graph.bin was rewritten after Close")
	}
}
