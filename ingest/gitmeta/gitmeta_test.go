package gitmeta

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/google/go-cmp/cmp"

	"github.com/m1nd-go/m1nd/ingest/internal/gittest"
)

func day(n int) time.Time { return gittest.Epoch.Add(time.Duration(n) * 24 * time.Hour) }

func secs(t time.Time) float64 { return float64(t.UnixNano()) / 1e9 }

// history builds: c1 adds a.py b.py lib/c.py; c2 edits a.py b.py; a branch
// edits lib/c.py while main edits a.py; the merge adds nothing; c5 deletes
// b.py and edits lib/c.py and lib/d.py.
func history(t *testing.T) *gittest.Repo {
	r := gittest.Init(t, t.TempDir())
	r.Change(map[string]string{"a.py": "a1", "b.py": "b1", "lib/c.py": "c1"}, "ann", day(0))
	r.Change(map[string]string{"a.py": "a2", "b.py": "b2"}, "bob", day(1))
	base, _ := r.Repo.Head()
	if err := r.WT.Checkout(&git.CheckoutOptions{Branch: plumbing.NewBranchReferenceName("side"), Create: true}); err != nil {
		t.Fatal(err)
	}
	side := r.Change(map[string]string{"lib/c.py": "c2"}, "ann", day(2))
	if err := r.WT.Checkout(&git.CheckoutOptions{Branch: plumbing.Master}); err != nil {
		t.Fatal(err)
	}
	_ = base
	main := r.Change(map[string]string{"a.py": "a3"}, "bob", day(3))
	// Merge commit with two parents (tree = main's tree plus side's c.py).
	r.Write(map[string]string{"lib/c.py": "c2"})
	if err := r.WT.AddWithOptions(&git.AddOptions{All: true}); err != nil {
		t.Fatal(err)
	}
	sig := &object.Signature{Name: "ann", Email: "ann@example.com", When: day(4)}
	if _, err := r.WT.Commit("merge side", &git.CommitOptions{Author: sig, Committer: sig, Parents: []plumbing.Hash{main, side}}); err != nil {
		t.Fatal(err)
	}
	r.Remove("b.py")
	r.Change(map[string]string{"lib/c.py": "c3", "lib/d.py": "d1"}, "cy", day(5))
	return r
}

// eachReader runs f with the git command reading history, then with
// go-git (the fallback where git is not installed): both read the same.
func eachReader(t *testing.T, f func(t *testing.T, reader string)) {
	t.Helper()
	bin := gitBinary
	t.Cleanup(func() { gitBinary = bin })
	for _, rd := range []struct{ name, bin string }{{"git", bin}, {"go-git", ""}} {
		if rd.bin == "" && rd.name == "git" {
			if os.Getenv("CI") != "" {
				t.Fatal("git is not installed; CI must test the git reader")
			}
			continue
		}
		gitBinary = rd.bin
		t.Run(rd.name, func(t *testing.T) { f(t, rd.name) })
	}
	gitBinary = bin
}

func TestRead(t *testing.T) { eachReader(t, testRead) }

func testRead(t *testing.T, _ string) {
	r := history(t)
	h, err := Read(context.Background(), r.Dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]FileStats{
		"a.py":     {Commits: 3, LastCommit: secs(day(3))},
		"b.py":     {Commits: 3, LastCommit: secs(day(5))},
		"lib/c.py": {Commits: 3, LastCommit: secs(day(5))},
		"lib/d.py": {Commits: 1, LastCommit: secs(day(5))},
	}
	if diff := cmp.Diff(want, h.Files); diff != "" {
		t.Errorf("files (-want +got):\n%s", diff)
	}
	// First parent only: the merge shows lib/c.py (what it brought in),
	// the side branch's own commit is not on the chain.
	wantGroups := [][]string{
		{"b.py", "lib/c.py", "lib/d.py"},
		{"lib/c.py"},
		{"a.py"},
		{"a.py", "b.py"},
		{"a.py", "b.py", "lib/c.py"},
	}
	if diff := cmp.Diff(wantGroups, h.Groups); diff != "" {
		t.Errorf("groups (-want +got):\n%s", diff)
	}
	if h.CommitsRead != 5 || h.Truncated || h.Detached || h.Branch != "master" || h.Shallow {
		t.Errorf("history meta: %+v", h)
	}
	if h.HeadTime != secs(day(5)) {
		t.Errorf("HeadTime = %v", h.HeadTime)
	}
}

func TestSubdirAndBounds(t *testing.T) { eachReader(t, testSubdirAndBounds) }

func testSubdirAndBounds(t *testing.T, _ string) {
	r := history(t)
	h, err := Read(context.Background(), filepath.Join(r.Dir, "lib"), Options{Subdir: "lib"})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]FileStats{
		"c.py": {Commits: 3, LastCommit: secs(day(5))},
		"d.py": {Commits: 1, LastCommit: secs(day(5))},
	}
	if diff := cmp.Diff(want, h.Files); diff != "" {
		t.Errorf("subdir files (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([][]string{{"c.py", "d.py"}, {"c.py"}, {"c.py"}}, h.Groups); diff != "" {
		t.Errorf("subdir groups (-want +got):\n%s", diff)
	}

	b, err := Read(context.Background(), r.Dir, Options{MaxCommits: 2, MaxGroupSize: 2})
	if err != nil {
		t.Fatal(err)
	}
	if !b.Truncated || b.CommitsRead != 2 {
		t.Errorf("bounded walk: read %d truncated %v", b.CommitsRead, b.Truncated)
	}
	// newest two commits: c5 (3 files, over the group cap) and the merge
	// (lib/c.py from the side branch).
	if diff := cmp.Diff([][]string{{"lib/c.py"}}, b.Groups); diff != "" || b.Files["lib/d.py"].Commits != 1 || b.Files["a.py"].Commits != 0 {
		t.Errorf("bounded walk: groups %v files %v", b.Groups, b.Files)
	}
}

func TestDetachedAndEmpty(t *testing.T) { eachReader(t, testDetachedAndEmpty) }

func testDetachedAndEmpty(t *testing.T, _ string) {
	r := history(t)
	head, _ := r.Repo.Head()
	first, _ := r.Repo.CommitObject(head.Hash())
	if err := r.WT.Checkout(&git.CheckoutOptions{Hash: first.ParentHashes[0]}); err != nil {
		t.Fatal(err)
	}
	h, err := Read(context.Background(), r.Dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !h.Detached || h.Branch != "" || h.Head != first.ParentHashes[0].String() {
		t.Errorf("detached: %+v", h)
	}
	if h.Files["lib/d.py"].Commits != 0 || h.Files["a.py"].Commits != 3 {
		t.Errorf("detached history: %v", h.Files)
	}

	empty := gittest.Init(t, t.TempDir())
	e, err := Read(context.Background(), empty.Dir, Options{})
	if err != nil || e.Head != "" || len(e.Files) != 0 {
		t.Errorf("empty repo: %+v %v", e, err)
	}
}

// TestShallow removes the objects behind a shallow boundary the way a
// shallow clone lacks them.
func TestShallow(t *testing.T) { eachReader(t, testShallow) }

func testShallow(t *testing.T, _ string) {
	r := gittest.Init(t, t.TempDir())
	c1 := r.Change(map[string]string{"a.py": "1", "b.py": "1"}, "ann", day(0))
	c2 := r.Change(map[string]string{"a.py": "2"}, "ann", day(1))
	r.Change(map[string]string{"a.py": "3", "b.py": "3"}, "ann", day(2))
	if err := r.Repo.Storer.SetShallow([]plumbing.Hash{c2}); err != nil {
		t.Fatal(err)
	}
	hex := c1.String()
	if err := os.Remove(filepath.Join(r.Dir, ".git", "objects", hex[:2], hex[2:])); err != nil {
		t.Fatal(err)
	}
	h, err := Read(context.Background(), r.Dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	// c2, the boundary, has no parent to compare with: it counts as read
	// and lists no files (not its whole tree as added).
	want := map[string]FileStats{
		"a.py": {Commits: 1, LastCommit: secs(day(2))},
		"b.py": {Commits: 1, LastCommit: secs(day(2))},
	}
	if diff := cmp.Diff(want, h.Files); diff != "" || !h.Shallow || h.CommitsRead != 2 {
		t.Errorf("shallow (-want +got):\n%s\n%+v", diff, h)
	}
}

func TestNotARepository(t *testing.T) {
	_, err := Read(context.Background(), t.TempDir(), Options{})
	if err == nil {
		t.Fatal("reading a plain directory succeeded")
	}
}

func TestChangeFrequency(t *testing.T) {
	for commits, want := range map[int]float32{0: 0.1, 1: 0.1, 5: 0.1, 10: 0.2, 25: 0.5, 50: 1, 500: 1} {
		if got := ChangeFrequency(commits); got != want {
			t.Errorf("ChangeFrequency(%d) = %v, want %v", commits, got, want)
		}
	}
}

// TestAlternates reads a repository whose objects live in another one
// (git clone --shared / --reference write objects/info/alternates).
func TestAlternates(t *testing.T) { eachReader(t, testAlternates) }

func testAlternates(t *testing.T, _ string) {
	src := history(t)
	head, err := src.Repo.Head()
	if err != nil {
		t.Fatal(err)
	}
	dst := gittest.Init(t, t.TempDir())
	info := filepath.Join(dst.Dir, ".git", "objects", "info")
	if err := os.MkdirAll(info, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(info, "alternates"), []byte(filepath.Join(src.Dir, ".git", "objects")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dst.Dir, ".git", "refs", "heads", "master"), []byte(head.Hash().String()+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	want, err := Read(context.Background(), src.Dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	got, err := Read(context.Background(), dst.Dir, Options{})
	if err != nil {
		t.Fatalf("shared repository: %v", err)
	}
	if diff := cmp.Diff(want.Files, got.Files); diff != "" || got.CommitsRead != want.CommitsRead {
		t.Errorf("shared repository history differs (-src +shared):\n%s", diff)
	}
}

// countdown is a context whose Err reports Canceled once it has been
// asked n times: it proves where a walk checks for being called off.
type countdown struct {
	context.Context
	n int
}

func (c *countdown) Err() error {
	if c.n--; c.n < 0 {
		return context.Canceled
	}
	return nil
}

// A walk called off inside a commit (one commit can add a whole tree)
// stops there, not after the commit.
func TestReadStopsInsideACommit(t *testing.T) {
	r := gittest.Init(t, t.TempDir())
	files := map[string]string{}
	for i := range 50 {
		files[filepath.Join("pkg", string(rune('a'+i%26))+string(rune('a'+i/26)), "f.go")] = "package p\n"
	}
	r.Change(files, "ann", day(0))
	if _, err := Read(context.Background(), r.Dir, Options{}); err != nil {
		t.Fatal(err)
	}
	// The first check is the commit loop's; the second falls inside the
	// commit's diff (without renames, whose check comes after it). The
	// go-git walk only: git's is one process, stopped with its context.
	bin := gitBinary
	gitBinary = ""
	defer func() { gitBinary = bin }()
	if _, err := Read(&countdown{Context: context.Background(), n: 1}, r.Dir, Options{NoRenames: true}); !errors.Is(err, context.Canceled) {
		t.Errorf("Read called off inside a commit: %v", err)
	}
}
