package gitmeta

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
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
	out := make(map[string]Churn, len(hashes))
	for _, h := range hashes {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		c, err := object.GetCommit(repo.Storer, plumbing.NewHash(h))
		if err != nil {
			continue
		}
		now, nowBin, err := blobText(c, rel)
		if err != nil {
			return nil, err
		}
		var before string
		var beforeBin bool
		if len(c.ParentHashes) > 0 {
			if p, err := object.GetCommit(repo.Storer, c.ParentHashes[0]); err == nil {
				if before, beforeBin, err = blobText(p, rel); err != nil {
					return nil, err
				}
			}
		}
		if now == before && !nowBin && !beforeBin {
			continue
		}
		if nowBin || beforeBin {
			out[h] = Churn{Binary: true}
			continue
		}
		out[h] = lineChurn(before, now)
	}
	return out, nil
}

// blobText is the file's content at commit c ("" when absent); binary or
// oversized content is reported instead of returned.
func blobText(c *object.Commit, rel string) (string, bool, error) {
	f, err := c.File(rel)
	if errors.Is(err, object.ErrFileNotFound) || errors.Is(err, object.ErrDirectoryNotFound) || errors.Is(err, plumbing.ErrObjectNotFound) {
		return "", false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("gitmeta: reading %s at %s: %w", rel, c.Hash, err)
	}
	if f.Size > MaxChurnBlob {
		return "", true, nil
	}
	r, err := f.Reader()
	if err != nil {
		return "", false, err
	}
	defer r.Close()
	if bin, err := binary.IsBinary(r); err != nil || bin {
		return "", true, nil
	}
	s, err := f.Contents()
	return s, false, err
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
