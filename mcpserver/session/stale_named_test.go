package session

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// stampedRoot writes files under a new directory and stamps them as an
// ingest would.
func stampedRoot(t *testing.T, prefix string, rels ...string) RootFiles {
	t.Helper()
	root := t.TempDir()
	r := RootFiles{Root: root, Prefix: prefix}
	for _, rel := range rels {
		p := filepath.Join(root, filepath.FromSlash(rel))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte("package a\n"), 0o644)
		fi, _ := os.Stat(p)
		r.Files = append(r.Files, FileStamp{Rel: rel, Size: fi.Size(), MTimeNS: fi.ModTime().UnixNano()})
	}
	return r
}

// A file is found by its ID, by an ID under it and by its shown path
// (namespaced too); only named files are stat'ed, and the changed ones
// come back modified first, then deleted, in root and file order.
func TestNamedFilesStale(t *testing.T) {
	plain := stampedRoot(t, "file::", "a.go", "b.go", "c.go", "d/e.go", "x::y.go")
	ns := stampedRoot(t, "lib::file::", "f.go", "g.go")
	b := &Bundle{Files: []RootFiles{plain, ns}}
	s := &State{}
	for _, r := range []struct{ root, rel string }{{plain.Root, "a.go"}, {plain.Root, "b.go"}, {plain.Root, "c.go"}, {plain.Root, "d/e.go"}, {ns.Root, "f.go"}, {ns.Root, "g.go"}, {plain.Root, "x::y.go"}} {
		os.WriteFile(filepath.Join(r.root, filepath.FromSlash(r.rel)), []byte("package a // changed\n"), 0o644)
	}
	os.Remove(filepath.Join(plain.Root, "a.go"))
	for _, tc := range []struct {
		names []string
		want  []string
	}{
		{nil, nil},
		{[]string{"file::c.go", "file::a.go"}, []string{"file::c.go", "file::a.go"}},
		{[]string{"file::b.go::F::m", "zzz", "file::"}, []string{"file::b.go"}},
		{[]string{"d/e.go", "d/e.go::F", "e.go"}, []string{"file::d/e.go"}},
		{[]string{"lib/g.go", "lib::file::f.go::G", "g.go", "lib::file::"}, []string{"lib::file::f.go", "lib::file::g.go"}},
		{[]string{"file::x::y.go::F"}, []string{"file::x::y.go"}},
		{[]string{"lib::file::f.go", "file::c.go", "file::a.go", "file::c.go"}, []string{"file::c.go", "lib::file::f.go", "file::a.go"}},
	} {
		nf := s.NamedFiles(b)
		for _, n := range tc.names {
			nf.Note([]byte(n))
		}
		if got := nf.Stale(); !slices.Equal(got, tc.want) {
			t.Errorf("named %q: stale %q, want %q", tc.names, got, tc.want)
		}
	}
	if s.NamedFiles(&Bundle{}) != nil {
		t.Errorf("a bundle without stamps has named files to check")
	}
}

// BenchmarkStaleCheck compares the whole-tree check (what every first
// answer after an ingest paid before stale_files looked at the named
// files only) with a check of the twenty files a seek answer names, on
// the stamps of $M1ND_STALE_ROOT's files (default: go-std's corpus).
func BenchmarkStaleCheck(b *testing.B) {
	root := os.Getenv("M1ND_STALE_ROOT")
	if root == "" {
		root = "/tmp/m1nd-corpora/go-std"
	}
	r := RootFiles{Root: root, Prefix: "file::"}
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			fi, _ := d.Info()
			rel, _ := filepath.Rel(root, p)
			r.Files = append(r.Files, FileStamp{Rel: filepath.ToSlash(rel), Size: fi.Size(), MTimeNS: fi.ModTime().UnixNano()})
		}
		return nil
	})
	if len(r.Files) < 20 {
		b.Skipf("%s: %d files", root, len(r.Files))
	}
	bundle := &Bundle{Files: []RootFiles{r}}
	b.Run("whole-tree", func(b *testing.B) {
		for b.Loop() {
			checkFiles(bundle.Files)
		}
	})
	s := &State{}
	s.NamedFiles(bundle) // the name index is built once per graph
	b.Run("named-20", func(b *testing.B) {
		for b.Loop() {
			nf := s.NamedFiles(bundle)
			for i := range 20 {
				nf.Note([]byte("file::" + r.Files[i*len(r.Files)/20].Rel + "::F"))
			}
			nf.Stale()
		}
	})
	b.Logf("%d files", len(r.Files))
}
