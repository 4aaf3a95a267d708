package gitmeta

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/utils/merkletrie"
	"github.com/google/go-cmp/cmp"

	"github.com/m1nd-go/m1nd/ingest/internal/gittest"
)

// DiffTrees (the git command) and go-git's tree diff, diverge's fallback,
// list the same changes: an add, a delete, an edit and a rename with an
// edit, paths from the repository's top even when asked from a subdirectory.
func TestDiffTreesMatchesGoGit(t *testing.T) {
	if gitBinary == "" {
		t.Skip("no git command")
	}
	r := gittest.Init(t, t.TempDir())
	body := strings.Repeat("line of the parser\n", 40)
	base := r.Change(map[string]string{"src/a.go": "a1\n", "src/gone.go": "x\n", "src/old.go": body, "doc/space .md": "d\n"}, "ann", day(0))
	r.Remove("src/gone.go")
	r.Remove("src/old.go")
	head := r.Change(map[string]string{"src/a.go": "a2\n", "src/new.go": body + "one more\n", "src/added.go": "y\n"}, "ann", day(1))

	got, err := DiffTrees(context.Background(), r.Dir+"/src", base.String(), head.String(), 60, 1000)
	if err != nil {
		t.Fatal(err)
	}
	want := []TreeChange{{'M', "src/a.go", "src/a.go"}, {'A', "", "src/added.go"}, {'D', "src/gone.go", ""}, {'R', "src/old.go", "src/new.go"}}
	if diff := cmp.Diff(want, sorted(got)); diff != "" {
		t.Errorf("git (-want +got):\n%s", diff)
	}
	bc, _ := r.Repo.CommitObject(base)
	hc, _ := r.Repo.CommitObject(head)
	bt, _ := bc.Tree()
	ht, _ := hc.Tree()
	gc, err := object.DiffTreeWithOptions(context.Background(), bt, ht, &object.DiffTreeOptions{DetectRenames: true, RenameScore: 60, RenameLimit: 1000})
	if err != nil {
		t.Fatal(err)
	}
	var gg []TreeChange
	for _, ch := range gc {
		a, _ := ch.Action()
		c := TreeChange{Status: 'M', From: ch.From.Name, To: ch.To.Name}
		switch {
		case a == merkletrie.Insert:
			c.Status = 'A'
		case a == merkletrie.Delete:
			c.Status = 'D'
		case c.From != c.To:
			c.Status = 'R'
		}
		gg = append(gg, c)
	}
	if diff := cmp.Diff(want, sorted(gg)); diff != "" {
		t.Errorf("go-git (-want +got):\n%s", diff)
	}
}

func sorted(cs []TreeChange) []TreeChange {
	return slices.SortedFunc(slices.Values(cs), func(a, b TreeChange) int {
		return strings.Compare(a.From+a.To, b.From+b.To)
	})
}

func TestParseNameStatus(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []TreeChange
		bad  bool
	}{
		{in: "", want: nil},
		{in: "M\x00 lead space.go\x00", want: []TreeChange{{'M', " lead space.go", " lead space.go"}}},
		{in: "R087\x00a.go\x00b.go\x00A\x00c.go\x00", want: []TreeChange{{'R', "a.go", "b.go"}, {'A', "", "c.go"}}},
		{in: "C100\x00a.go\x00b.go\x00", want: []TreeChange{{'A', "", "b.go"}}},
		{in: "R087\x00a.go", bad: true},
	} {
		got, err := parseNameStatus(tc.in)
		if (err != nil) != tc.bad {
			t.Errorf("%q: err %v", tc.in, err)
			continue
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%q (-want +got):\n%s", tc.in, diff)
		}
	}
}

// DiffLines counts as git does, a rename under its new path, and with no
// head against the work tree.
func TestDiffLines(t *testing.T) {
	if gitBinary == "" {
		t.Skip("no git command")
	}
	r := gittest.Init(t, t.TempDir())
	body := strings.Repeat("line of the parser\n", 40)
	base := r.Change(map[string]string{"src/a.go": "a1\nkeep\n", "src/old.go": body}, "ann", day(0))
	r.Remove("src/old.go")
	head := r.Change(map[string]string{"src/a.go": "a2\nkeep\nthird\n", "src/new.go": body + "one more\n"}, "ann", day(1))
	got, err := DiffLines(context.Background(), r.Dir+"/src", base.String(), head.String(), 60, 1000)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]LineDelta{"src/a.go": {Added: 2, Deleted: 1}, "src/new.go": {Added: 1}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("commits (-want +got):\n%s", diff)
	}
	r.Write(map[string]string{"src/a.go": "a3\n"})
	got, err = DiffLines(context.Background(), r.Dir, base.String(), "", 60, 1000, "src/a.go")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string]LineDelta{"src/a.go": {Added: 1, Deleted: 2}}, got); diff != "" {
		t.Errorf("work tree (-want +got):\n%s", diff)
	}
}

func TestParseNumstat(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want map[string]LineDelta
		bad  bool
	}{
		{in: "", want: map[string]LineDelta{}},
		{in: "3\t1\ta b.go\x00", want: map[string]LineDelta{"a b.go": {Added: 3, Deleted: 1}}},
		{in: "2\t0\t\x00old.go\x00new.go\x00-\t-\timg.png\x00", want: map[string]LineDelta{"new.go": {Added: 2}, "img.png": {Binary: true}}},
		{in: "2\t0\t\x00old.go", bad: true},
		{in: "x\t0\ta.go\x00", bad: true},
		{in: "nonsense\x00", bad: true},
	} {
		got, err := parseNumstat(tc.in)
		if (err != nil) != tc.bad {
			t.Errorf("%q: err %v", tc.in, err)
			continue
		}
		if !tc.bad {
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%q (-want +got):\n%s", tc.in, diff)
			}
		}
	}
}
