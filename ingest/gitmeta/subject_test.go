package gitmeta

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/m1nd-go/m1nd/ingest/internal/gittest"
)

// A GitHub merge says which branch it merged; its body's first line is the
// pull request's title, which is what a timeline must show.
func TestSubjectOfPullRequestMerge(t *testing.T) { eachReader(t, testSubjectOfPullRequestMerge) }

func testSubjectOfPullRequestMerge(t *testing.T, _ string) {
	r := gittest.Init(t, t.TempDir())
	msgs := []string{
		"Add the parser\n\nLong text about it.",
		"Merge pull request #487 from someone/fix-isbool\n\nfix: honor custom IsBoolFlag\n\nMore words.",
		"Merge pull request #12 from someone/empty-body",
		"Merge pull request #x1 from someone/odd\n\nnot a number",
		"Merge branch 'main' into dev\n\nbody line",
	}
	for i, m := range msgs {
		r.Write(map[string]string{"a.py": m})
		r.Commit(m, "ann", day(i))
	}
	h, err := Read(context.Background(), r.Dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range h.Commits {
		got = append(got, c.Subject)
	}
	want := []string{
		"Merge branch 'main' into dev",
		"Merge pull request #x1 from someone/odd",
		"Merge pull request #12 from someone/empty-body",
		"fix: honor custom IsBoolFlag (#487)",
		"Add the parser",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("subjects (-want +got):\n%s", diff)
	}
}
