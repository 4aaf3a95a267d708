package gitmeta

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"
	"github.com/go-git/go-git/v5/utils/binary"
	"github.com/go-git/go-git/v5/utils/diff"
	"github.com/sergi/go-diff/diffmatchpatch"
)

// Churn is what one commit did to one file's lines.
type Churn struct {
	Added, Deleted int
	// Binary is set when either side is binary or too large to diff.
	Binary bool
}

// MaxChurnBlob bounds the blobs FileChurn diffs (bytes).
const MaxChurnBlob = 1 << 20

// FileChurn returns, per commit hash, the lines commit added to and
// deleted from file (a path inside the work tree of the repository that
// holds it), each commit compared with its first parent. Hashes the
// repository does not hold, and commits that did not touch the file, are
// left out of the result.
func FileChurn(ctx context.Context, file string, hashes []string) (map[string]Churn, error) {
	repo, closeRepo, err := open(filepath.Dir(file))
	if err != nil {
		return nil, fmt.Errorf("gitmeta: opening the repository of %s: %w", file, err)
	}
	defer closeRepo()
	wt, err := repo.Worktree()
	if err != nil {
		return nil, fmt.Errorf("gitmeta: the repository of %s has no work tree: %w", file, err)
	}
	rel, err := filepath.Rel(wt.Filesystem.Root(), file)
	if err != nil || strings.HasPrefix(rel, "..") {
		return nil, fmt.Errorf("gitmeta: %s is outside the work tree %s", file, wt.Filesystem.Root())
	}
	rel = filepath.ToSlash(rel)
	// Newest first, so that a rename met on the way changes the path the
	// older commits are read at (the file's history follows renames, as
	// Read's does).
	var cs []*object.Commit
	for _, h := range hashes {
		if c, err := object.GetCommit(repo.Storer, plumbing.NewHash(h)); err == nil {
			cs = append(cs, c)
		}
	}
	slices.SortStableFunc(cs, func(a, b *object.Commit) int { return b.Committer.When.Compare(a.Committer.When) })
	out := make(map[string]Churn, len(cs))
	for _, c := range cs {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		ch, older, err := commitChurn(repo.Storer, c, rel)
		if err != nil {
			return nil, err
		}
		if ch != nil {
			out[c.Hash.String()] = *ch
		}
		rel = older
	}
	return out, nil
}

// commitChurn is what c did to the file at rel, and the file's path in
// c's parent (another when c renamed it).
func commitChurn(s storer.EncodedObjectStorer, c *object.Commit, rel string) (*Churn, string, error) {
	now, nowBin, nowOK, err := blobText(c, rel)
	if err != nil {
		return nil, rel, err
	}
	var before string
	var beforeBin bool
	older := rel
	if len(c.ParentHashes) > 0 {
		if p, err := object.GetCommit(s, c.ParentHashes[0]); err == nil {
			var ok bool
			if before, beforeBin, ok, err = blobText(p, rel); err != nil {
				return nil, rel, err
			}
			if !ok && nowOK {
				if old := renamedFrom(s, p.TreeHash, c.TreeHash, rel); old != "" {
					older = old
					if before, beforeBin, _, err = blobText(p, old); err != nil {
						return nil, rel, err
					}
				}
			}
		}
	}
	switch {
	case now == before && !nowBin && !beforeBin:
		return nil, older, nil
	case nowBin || beforeBin:
		return &Churn{Binary: true}, older, nil
	}
	ch := lineChurn(before, now)
	return &ch, older, nil
}

// renamedFrom is the path rel had before the commit from tree parent to
// tree, "" when the commit did not rename a file to rel.
func renamedFrom(s storer.EncodedObjectStorer, parent, tree plumbing.Hash, rel string) string {
	// One commit's diff; FileChurn checks its context between commits.
	r := &reader{ctx: context.Background(), s: s, cur: map[plumbing.Hash][]object.TreeEntry{}}
	if _, err := r.changed(parent, tree); err != nil {
		return ""
	}
	for old, nw := range r.renames(r.deleted, r.added) {
		if nw == rel {
			return old
		}
	}
	return ""
}

// blobText is the file's content at commit c ("" when absent, with ok
// false); binary or oversized content is reported instead of returned.
func blobText(c *object.Commit, rel string) (text string, bin, ok bool, err error) {
	f, err := c.File(rel)
	if errors.Is(err, object.ErrFileNotFound) || errors.Is(err, object.ErrDirectoryNotFound) || errors.Is(err, plumbing.ErrObjectNotFound) {
		return "", false, false, nil
	}
	if err != nil {
		return "", false, false, fmt.Errorf("gitmeta: reading %s at %s: %w", rel, c.Hash, err)
	}
	if f.Size > MaxChurnBlob {
		return "", true, true, nil
	}
	r, err := f.Reader()
	if err != nil {
		return "", false, false, err
	}
	defer r.Close()
	if isBin, err := binary.IsBinary(r); err != nil || isBin {
		return "", true, true, nil
	}
	s, err := f.Contents()
	return s, false, true, err
}

// lineChurn counts added and deleted lines between two texts.
func lineChurn(before, now string) Churn {
	var ch Churn
	for _, d := range diff.Do(before, now) {
		n := strings.Count(d.Text, "\n")
		if !strings.HasSuffix(d.Text, "\n") && d.Text != "" {
			n++
		}
		switch d.Type {
		case diffmatchpatch.DiffInsert:
			ch.Added += n
		case diffmatchpatch.DiffDelete:
			ch.Deleted += n
		}
	}
	return ch
}
