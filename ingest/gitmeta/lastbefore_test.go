package gitmeta

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/m1nd-go/m1nd/ingest/internal/gittest"
)

// landedLate builds c1 (day 0); c2, authored on day 1 but committed on
// day 10 (a rebased pull request); a side branch committed on day 3 and
// merged on day 12 after c3 (day 11).
func landedLate(t *testing.T) (r *gittest.Repo, c1, c2, c3, merge plumbing.Hash) {
	r = gittest.Init(t, t.TempDir())
	c1 = r.Change(map[string]string{"a.py": "1"}, "ann", day(0))
	commit := func(files map[string]string, authored, committed time.Time, parents ...plumbing.Hash) plumbing.Hash {
		r.Write(files)
		if err := r.WT.AddWithOptions(&git.AddOptions{All: true}); err != nil {
			t.Fatal(err)
		}
		h, err := r.WT.Commit("c", &git.CommitOptions{
			Author:    &object.Signature{Name: "ann", Email: "a@x", When: authored},
			Committer: &object.Signature{Name: "bob", Email: "b@x", When: committed},
			Parents:   parents,
		})
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	c2 = commit(map[string]string{"a.py": "2"}, day(1), day(10))
	if err := r.WT.Checkout(&git.CheckoutOptions{Branch: "refs/heads/side", Create: true}); err != nil {
		t.Fatal(err)
	}
	side := commit(map[string]string{"b.py": "side"}, day(3), day(3))
	if err := r.WT.Checkout(&git.CheckoutOptions{Branch: plumbing.Master}); err != nil {
		t.Fatal(err)
	}
	c3 = commit(map[string]string{"a.py": "3"}, day(11), day(11))
	merge = commit(map[string]string{"b.py": "side"}, day(12), day(12), c3, side)
	return r, c1, c2, c3, merge
}

func TestLastBefore(t *testing.T) { eachReader(t, testLastBefore) }

func testLastBefore(t *testing.T, _ string) {
	r, c1, c2, c3, merge := landedLate(t)
	cases := []struct {
		name string
		at   time.Time
		want plumbing.Hash
	}{
		{"authored before, committed after: not yet there", day(5), c1},
		{"side branch commit is not on the first-parent chain", day(4), c1},
		{"committed that second", day(10), c2},
		{"between", day(11).Add(time.Hour), c3},
		{"after everything", day(30), merge},
	}
	for _, c := range cases {
		got, err := LastBefore(context.Background(), r.Dir, c.at)
		if err != nil || got != c.want.String() {
			t.Errorf("%s: LastBefore = %q, %v; want %s", c.name, got, err, c.want)
		}
	}
	if got, err := LastBefore(context.Background(), r.Dir, day(-1)); err != nil || got != "" {
		t.Errorf("before the first commit: %q, %v", got, err)
	}
}

func TestChainSince(t *testing.T) { eachReader(t, testChainSince) }

func testChainSince(t *testing.T, _ string) {
	r, c1, c2, c3, merge := landedLate(t)
	m, err := r.Repo.CommitObject(merge)
	if err != nil {
		t.Fatal(err)
	}
	side := m.ParentHashes[1]
	cases := []struct {
		name   string
		base   plumbing.Hash
		want   []string
		wantOK bool
	}{
		{"first commit", c1, []string{merge.String(), c3.String(), c2.String()}, true},
		{"HEAD", merge, nil, true},
		{"side branch: not on the chain", side, nil, false},
	}
	for _, c := range cases {
		got, ok, err := ChainSince(context.Background(), r.Dir, c.base.String())
		if err != nil || ok != c.wantOK || !slices.Equal(got, c.want) {
			t.Errorf("%s: ChainSince = %v, %v, %v; want %v, %v", c.name, got, ok, err, c.want, c.wantOK)
		}
	}
}
