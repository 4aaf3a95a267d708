package session

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// A check of the paths a watcher named finds what the full check finds
// when the paths are those the change touched, or declines (ok false)
// where only the full check can tell: each case changes a tree of three
// files in two directories, names the touched paths, and compares.
func TestStalenessOfEqualsFull(t *testing.T) {
	write := func(root, rel, text string) {
		os.MkdirAll(filepath.Join(root, filepath.Dir(rel)), 0o755)
		os.WriteFile(filepath.Join(root, rel), []byte(text), 0o644)
	}
	cases := []struct {
		name   string
		change func(root string) []string // the touched paths, root-relative
		ok     bool
	}{
		{"edit", func(r string) []string { write(r, "a.go", "package a // edited\n"); return []string{"a.go"} }, true},
		{"edit through a link", func(r string) []string { write(r, "p/b.go", "package p // edited\n"); return []string{"p/b.go"} }, true},
		{"edit two, one twice", func(r string) []string {
			write(r, "p/b.go", "package p // x\n")
			write(r, "a.go", "package a // y\n")
			return []string{"p/b.go", "a.go", "p/b.go"}
		}, true},
		{"delete", func(r string) []string { os.Remove(filepath.Join(r, "p/c.go")); return []string{"p/c.go"} }, true},
		{"add beside", func(r string) []string { write(r, "p/d.go", "package p\n"); return []string{"p/d.go"} }, true},
		{"add hidden and skipped", func(r string) []string {
			write(r, "p/.e.go", "package p\n")
			write(r, "p/f.go", "package p\n")
			return []string{"p/.e.go"}
		}, true},
		{"rename", func(r string) []string {
			os.Rename(filepath.Join(r, "p/b.go"), filepath.Join(r, "p/g.go"))
			return []string{"p/b.go", "p/g.go"}
		}, true},
		{"came and went", func(r string) []string { return []string{"p/gone.go", "q/gone.go"} }, true},
		{"outside the root", func(r string) []string { return []string{"../elsewhere.go"} }, false},
		{"new directory", func(r string) []string { write(r, "n/h.go", "package n\n"); return []string{"n"} }, false},
		{"file in a new directory", func(r string) []string { write(r, "n/h.go", "package n\n"); return []string{"n/h.go"} }, false},
		{"directory gone", func(r string) []string { os.RemoveAll(filepath.Join(r, "p")); return []string{"p"} }, false},
		{"the root", func(r string) []string { return []string{"."} }, false},
	}
	ignore := cmpopts.IgnoreFields(Staleness{}, "Checked")
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root, b := threeFileRoot(t)
			if c.name == "edit through a link" {
				// the graph's root is a symbolic link; the watcher names
				// the real paths
				link := filepath.Join(t.TempDir(), "link")
				if err := os.Symlink(root, link); err != nil {
					t.Skip(err)
				}
				b.Files[0].Root = link
			}
			time.Sleep(10 * time.Millisecond) // a directory mtime step
			var paths []string
			for _, rel := range c.change(root) {
				paths = append(paths, filepath.Join(root, filepath.FromSlash(rel)))
			}
			got, ok := (&State{}).StalenessOf(b, paths)
			if ok != c.ok {
				t.Fatalf("ok = %v, want %v (%+v)", ok, c.ok, got)
			}
			if !ok {
				return
			}
			want := checkFiles(b.Files)
			if d := cmp.Diff(want, got, ignore, cmpopts.EquateEmpty()); d != "" {
				t.Errorf("scoped check differs from the full one (-full +scoped):\n%s", d)
			}
		})
	}
}

// threeFileRoot is a root holding a.go, p/b.go and p/c.go, and a bundle
// stamped from it.
func threeFileRoot(t *testing.T) (string, *Bundle) {
	t.Helper()
	root := t.TempDir()
	var files []FileStamp
	for _, rel := range []string{"a.go", "p/b.go", "p/c.go"} {
		p := filepath.Join(root, filepath.FromSlash(rel))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte("package x\n"), 0o644)
		fi, _ := os.Stat(p)
		files = append(files, FileStamp{Rel: rel, Size: fi.Size(), MTimeNS: fi.ModTime().UnixNano()})
	}
	return root, &Bundle{Files: []RootFiles{{Root: root, Prefix: "file::", Files: files, Dirs: StampDirs(root, files)}}}
}
