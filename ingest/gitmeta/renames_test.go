package gitmeta

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/google/go-cmp/cmp"

	"github.com/m1nd-go/m1nd/ingest/internal/gittest"
)

// lines makes a file body of n distinct lines with a tag.
func lines(tag string, n int) string {
	var b strings.Builder
	for i := range n {
		b.WriteString(tag)
		b.WriteString(strings.Repeat("x", i))
		b.WriteString("\n")
	}
	return b.String()
}

// moved builds: c0 adds src/a.py, src/b.py, src/c.py; c1 edits a and b;
// c2 moves a (edited slightly), b (unchanged) and c (rewritten) under
// pkg/; c3 edits pkg/a.py and creates a new src/a.py; c4 renames
// pkg/b.py to pkg/bee.py.
func moved(t *testing.T) *gittest.Repo {
	r := gittest.Init(t, t.TempDir())
	a, b := lines("a", 10), lines("b", 10)
	r.Change(map[string]string{"src/a.py": a, "src/b.py": b, "src/c.py": lines("c", 10)}, "ann", day(0))
	a, b = a+"edit\n", b+"edit\n"
	r.Change(map[string]string{"src/a.py": a, "src/b.py": b}, "ann", day(1))
	r.Remove("src/a.py", "src/b.py", "src/c.py")
	r.Change(map[string]string{"pkg/a.py": a + "moved\n", "pkg/b.py": b, "pkg/c.py": lines("z", 10)}, "bob", day(2))
	r.Change(map[string]string{"pkg/a.py": a + "moved\nagain\n", "src/a.py": lines("new", 3)}, "bob", day(3))
	r.Remove("pkg/b.py")
	r.Change(map[string]string{"pkg/bee.py": b}, "cy", day(4))
	return r
}

func TestRenamesFollowed(t *testing.T) { eachReader(t, testRenamesFollowed) }

func testRenamesFollowed(t *testing.T, _ string) {
	r := moved(t)
	h, err := Read(context.Background(), r.Dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int{}
	for p, fs := range h.Files {
		got[p] = fs.Commits
	}
	want := map[string]int{
		"pkg/a.py":   4, // its own c2, c3 and src/a.py's c0, c1
		"pkg/bee.py": 4, // c4, pkg/b.py's c2, src/b.py's c0, c1
		"pkg/c.py":   1, // a rewrite is not a rename
		"src/c.py":   2,
		"src/a.py":   1, // the new file of c3 only
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("commits per file (-want +got):\n%s", d)
	}
	wantGroups := [][]string{
		{"pkg/bee.py"},
		{"pkg/a.py", "src/a.py"},
		{"pkg/a.py", "pkg/bee.py", "pkg/c.py", "src/c.py"},
		{"pkg/a.py", "pkg/bee.py"},
		{"pkg/a.py", "pkg/bee.py", "src/c.py"},
	}
	if d := cmp.Diff(wantGroups, h.Groups); d != "" {
		t.Errorf("groups (-want +got):\n%s", d)
	}

	plain, err := Read(context.Background(), r.Dir, Options{NoRenames: true})
	if err != nil {
		t.Fatal(err)
	}
	if n := plain.Files["pkg/a.py"].Commits; n != 2 {
		t.Errorf("without rename following pkg/a.py has %d commits, want 2", n)
	}
	if n := plain.Files["src/b.py"].Commits; n != 3 {
		t.Errorf("without rename following src/b.py has %d commits, want 3", n)
	}
}

func TestRenamePairing(t *testing.T) { eachReader(t, testRenamePairing) }

// The two readers differ where git's own choice is not go-git's
// heuristic: git lets each new path take the old one in path order, and
// compares binary files by content too.
func testRenamePairing(t *testing.T, reader string) {
	x := lines("x", 20)
	byReader := func(git, goGit map[string]string) map[string]string {
		if reader == "git" {
			return git
		}
		return goGit
	}
	cases := []struct {
		name       string
		old, new   map[string]string
		wantRename map[string]string
	}{
		{"identical, other name", map[string]string{"a.go": x}, map[string]string{"b.go": x}, map[string]string{"a.go": "b.go"}},
		{"identical twice", map[string]string{"d/a.go": x}, map[string]string{"b.go": x, "e/a.go": x}, byReader(map[string]string{"d/a.go": "b.go"}, map[string]string{"d/a.go": "e/a.go"})},
		{"similar", map[string]string{"a.go": x}, map[string]string{"b.go": x + lines("y", 5)}, map[string]string{"a.go": "b.go"}},
		{"too different", map[string]string{"a.go": x}, map[string]string{"b.go": lines("x", 5) + lines("y", 20)}, map[string]string{}},
		{"binary", map[string]string{"a.bin": "\x00" + x}, map[string]string{"b.bin": "\x00" + x + "y"}, byReader(map[string]string{"a.bin": "b.bin"}, map[string]string{})},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := gittest.Init(t, t.TempDir())
			r.Change(c.old, "ann", day(0))
			for p := range c.old {
				r.Remove(p)
			}
			r.Change(c.new, "ann", day(1))
			h, err := Read(context.Background(), r.Dir, Options{})
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]string{}
			for p := range c.old {
				if _, kept := h.Files[p]; !kept {
					for q, fs := range h.Files {
						if fs.Commits == 2 {
							got[p] = q
						}
					}
				}
			}
			if d := cmp.Diff(c.wantRename, got); d != "" {
				t.Errorf("renames (-want +got):\n%s", d)
			}
		})
	}
}

// FileChurn follows the file through its rename: the move reads as the
// one line it added, the commits before it as what they did to src/a.py.
func TestFileChurnFollowsRenames(t *testing.T) {
	r := moved(t)
	h, err := Read(context.Background(), r.Dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var hashes []string
	for i, g := range h.Groups {
		if slices.Contains(g, "pkg/a.py") {
			hashes = append(hashes, h.Commits[i].Hash)
		}
	}
	ch, err := FileChurn(context.Background(), filepath.Join(r.Dir, "pkg", "a.py"), hashes)
	if err != nil {
		t.Fatal(err)
	}
	var got []Churn
	for _, hs := range hashes {
		got = append(got, ch[hs])
	}
	// Newest first: c3 adds "again", c2 moves and adds "moved", c1 adds
	// "edit", c0 creates ten lines.
	want := []Churn{{Added: 1}, {Added: 1}, {Added: 1}, {Added: 10}}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("churn (-want +got):\n%s", d)
	}
}

// partial makes r look like a blob:none clone: the promisor remote git
// declares, and no blob but those of HEAD's tree.
func partial(t *testing.T, r *gittest.Repo) {
	t.Helper()
	cfg, err := r.Repo.Config()
	if err != nil {
		t.Fatal(err)
	}
	cfg.Raw.Section("remote").Subsection("origin").SetOption("promisor", "true")
	if err := r.Repo.Storer.SetConfig(cfg); err != nil {
		t.Fatal(err)
	}
	head, err := r.Repo.Head()
	if err != nil {
		t.Fatal(err)
	}
	c, err := r.Repo.CommitObject(head.Hash())
	if err != nil {
		t.Fatal(err)
	}
	keep := map[plumbing.Hash]bool{}
	files, err := c.Files()
	if err != nil {
		t.Fatal(err)
	}
	_ = files.ForEach(func(f *object.File) error { keep[f.Hash] = true; return nil })
	blobs, err := r.Repo.BlobObjects()
	if err != nil {
		t.Fatal(err)
	}
	var drop []plumbing.Hash
	_ = blobs.ForEach(func(b *object.Blob) error {
		if !keep[b.Hash] {
			drop = append(drop, b.Hash)
		}
		return nil
	})
	for _, h := range drop {
		hex := h.String()
		if err := os.Remove(filepath.Join(r.Dir, ".git", "objects", hex[:2], hex[2:])); err != nil {
			t.Fatal(err)
		}
	}
}

func TestPartialCloneRenames(t *testing.T) { eachReader(t, testPartialCloneRenames) }

// Without blobs, a deleted file and an added one of the same name are
// paired by path: the edited move src/a.py → pkg/a.py keeps its history
// (identical contents alone lose it), and so does the rewrite
// src/c.py → pkg/c.py, which git, reading both, calls no rename.
func testPartialCloneRenames(t *testing.T, _ string) {
	r := moved(t)
	partial(t, r)
	h, err := Read(context.Background(), r.Dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int{}
	for p, fs := range h.Files {
		got[p] = fs.Commits
	}
	want := map[string]int{"pkg/a.py": 4, "pkg/bee.py": 4, "pkg/c.py": 2, "src/a.py": 1}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("commits per file (-want +got):\n%s", d)
	}
}

func TestPairByPath(t *testing.T) {
	cases := []struct {
		name           string
		deleted, added []string
		want           map[string]string
	}{
		{"moved under a prefix", []string{"flask/app.py"}, []string{"src/flask/app.py"}, map[string]string{"flask/app.py": "src/flask/app.py"}},
		{"other base name", []string{"a/x.py"}, []string{"a/y.py"}, map[string]string{}},
		{"longest shared tail wins", []string{"old/cmd/mod.rs", "old/env/mod.rs"}, []string{"new/cmd/mod.rs", "new/env/mod.rs", "new/mod.rs"},
			map[string]string{"old/cmd/mod.rs": "new/cmd/mod.rs", "old/env/mod.rs": "new/env/mod.rs"}},
		{"a tie pairs nothing", []string{"a/x.go"}, []string{"b/x.go", "c/x.go"}, map[string]string{}},
		{"best must be mutual", []string{"p/q/x.go", "r/x.go"}, []string{"s/q/x.go"}, map[string]string{"p/q/x.go": "s/q/x.go"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := pairByPath(c.deleted, c.added)
			if got == nil {
				got = map[string]string{}
			}
			if d := cmp.Diff(c.want, got); d != "" {
				t.Errorf("pairs (-want +got):\n%s", d)
			}
		})
	}
}
