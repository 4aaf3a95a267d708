package gitmeta

import (
	"context"
	"testing"

	"github.com/go-git/go-git/v5"
	"github.com/google/go-cmp/cmp"
)

func TestExtend(t *testing.T) { eachReader(t, testExtend) }

// testExtend reads moved's history, adds commits (one renames a file
// whose older commits prev holds), and checks that Extend reads only the
// new ones and answers what a full read answers; then rewrites the
// branch so that the old HEAD is no longer on it.
func testExtend(t *testing.T, _ string) {
	ctx := context.Background()
	r := moved(t)
	prev, err := Read(ctx, r.Dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	same, inc, err := Extend(ctx, r.Dir, prev, Options{})
	if err != nil || !inc || same.CommitsRead != prev.CommitsRead || same.Head != prev.Head {
		t.Fatalf("HEAD unmoved: incremental %v, read %d, err %v", inc, same.CommitsRead, err)
	}
	r.Remove("pkg/a.py")
	r.Change(map[string]string{"pkg/alpha.py": lines("a", 10) + "edit\nmoved\nagain\n"}, "dee", day(5))
	r.Change(map[string]string{"pkg/alpha.py": "short\n", "pkg/c.py": "c\n"}, "dee", day(6))

	got, inc, err := Extend(ctx, r.Dir, prev, Options{})
	if err != nil || !inc {
		t.Fatalf("extend: incremental %v, err %v", inc, err)
	}
	want, err := Read(ctx, r.Dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("extended history differs from a full read (-full +extended):\n%s", d)
	}
	if got.Files["pkg/alpha.py"].Commits != 6 {
		t.Errorf("pkg/alpha.py keeps pkg/a.py's commits: %+v", got.Files["pkg/alpha.py"])
	}

	// Rewrite: the branch now points at the commit before prev's HEAD.
	head, _ := r.Repo.Head()
	c, _ := r.Repo.CommitObject(head.Hash())
	for range 3 {
		c, _ = c.Parent(0)
	}
	if err := r.WT.Reset(&git.ResetOptions{Commit: c.Hash, Mode: git.HardReset}); err != nil {
		t.Fatal(err)
	}
	r.Change(map[string]string{"other.py": "o\n"}, "eve", day(7))
	got, inc, err = Extend(ctx, r.Dir, prev, Options{})
	if err != nil || inc {
		t.Fatalf("rewritten branch: incremental %v, err %v", inc, err)
	}
	want, _ = Read(ctx, r.Dir, Options{})
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("rewritten branch (-full +extended):\n%s", d)
	}
}
