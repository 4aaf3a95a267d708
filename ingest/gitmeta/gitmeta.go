// Package gitmeta reads the history of a git repository with go-git (no git
// subprocess) for the temporal side of the graph: how often each file
// changed, when it last changed, and which files changed together.
//
// The walk mirrors `git log --first-parent --name-status -M`: the commits of
// HEAD's first-parent chain, newest first, each compared with its first
// parent (a merge shows what it brought in). The whole chain is read
// (Options.MaxCommits bounds it when asked), with the git command when one
// is installed, else go-git (cli.go says why). Shallow and partial clones
// read what they hold and say so; a detached HEAD works like a branch.
package gitmeta

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/go-git/go-billy/v5/osfs"
	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"
	"github.com/go-git/go-git/v5/storage/filesystem"
)

// Options bound the history walk.
type Options struct {
	// MaxCommits bounds the commits read, newest first (<= 0: all of
	// them; the whole first-parent chain of prometheus reads in about a
	// second with the git command).
	MaxCommits int
	// MaxGroupSize, when > 0, leaves commits touching more files out of
	// Groups (they are still counted per file). The default keeps every
	// group: the co-change matrix counts a large group as changes of its
	// files and bounds the pairs it records itself.
	MaxGroupSize int
	// Subdir restricts the result to files under this repo-relative
	// directory ("" = whole repository); paths in the result are relative
	// to it. Trees outside it are never read.
	Subdir string
	// NoRenames turns off rename following: by default a file renamed by
	// a commit (git's -M50%: identical, or at least half its lines the
	// same) takes its old path's earlier commits, as `git log --follow`.
	NoRenames bool
}

// FileStats is the history of one file.
type FileStats struct {
	// Commits is the number of (non-merge) commits that changed the file.
	Commits int
	// LastCommit is the newest author time of those commits, Unix seconds.
	LastCommit float64
}

// History is what Read found.
type History struct {
	// Head is the commit HEAD points to ("" in a repository without
	// commits); Branch its branch name ("" when detached).
	Head     string
	Branch   string
	Detached bool
	// HeadTime is HEAD's author time (Unix seconds).
	HeadTime float64
	// Shallow is set when the repository is a shallow clone: history
	// ends at its boundary, whose commits count as read but list no files
	// (they would list the whole tree).
	Shallow bool
	// Partial is set when blobs may be missing (a partial clone): renames
	// were detected by identical content, and the files left over paired
	// by path (pairByPath) instead of by their lines.
	Partial bool
	// CommitsRead counts the commits visited; Truncated reports that
	// MaxCommits stopped the walk before the root commit(s).
	CommitsRead int
	Truncated   bool
	// Files maps paths (relative to Options.Subdir, forward slashes) to
	// their history. Deleted files appear too; a renamed file's commits
	// before the rename count under its newest name (Options.NoRenames).
	Files map[string]FileStats
	// Groups are the files changed together by each non-merge commit that
	// changed any (under Subdir), newest commit first, paths sorted within a
	// group. A single-file group still counts as a change of that file.
	Groups [][]string
	// Commits describe the commit of each group (same index as Groups).
	Commits []Commit
}

// Commit identifies the commit behind one group of History.Groups.
type Commit struct {
	Hash string
	// Time is the author time, CommitTime the committer time, Unix
	// seconds.
	Time       int64
	CommitTime int64
	Author     string
	Subject    string
}

// ChangeFrequency maps a commit count to a node's change_frequency:
// commits/50 clamped to [0.1, 1.0] (docs/design.md#git-history).
func ChangeFrequency(commits int) float32 {
	return min(max(float32(commits)/50, 0.1), 1.0)
}

// NotGitFrequency is the change_frequency of files outside any repository.
const NotGitFrequency = float32(0.3)

// Read walks the first-parent history of the repository whose work tree
// is (or contains) dir.
func Read(ctx context.Context, dir string, opt Options) (*History, error) {
	h, _, _, err := read(ctx, dir, opt, "")
	return h, err
}

// read is Read, or with since the commits after since only; reached tells
// whether since is on HEAD's first-parent chain (true without since).
func read(ctx context.Context, dir string, opt Options, since string) (*History, map[string]string, bool, error) {
	opt.Subdir = cleanSubdir(opt.Subdir)
	h, alias, reached, err := readCLI(ctx, dir, opt, since)
	if err == nil || ctx.Err() != nil {
		return h, alias, reached, err
	}
	repo, closeRepo, oerr := open(dir)
	if oerr != nil {
		return nil, nil, false, fmt.Errorf("gitmeta: opening the repository at %s: %w", dir, oerr)
	}
	defer closeRepo()
	return readRepo(ctx, repo, opt, since)
}

func cleanSubdir(s string) string {
	return strings.Trim(path.Clean("/"+strings.ReplaceAll(s, "\\", "/")), "/")
}

// open opens the repository containing dir. For the common layout (a .git
// directory) it keeps pack file descriptors open for the duration of the
// walk: go-git otherwise reopens the pack for every object, which costs more
// than decoding the object. Worktrees and submodules (.git files) go through
// go-git's own discovery.
func open(dir string) (*git.Repository, func(), error) {
	for d := dir; ; {
		gd := filepath.Join(d, ".git")
		if st, err := os.Stat(gd); err == nil {
			if !st.IsDir() {
				break
			}
			fs := osfs.New(gd, osfs.WithBoundOS())
			// Alternates (clones made with --shared or --reference) name
			// object directories by absolute path, outside .git.
			st := filesystem.NewStorageWithOptions(fs, cache.NewObjectLRU(32*cache.MiByte), filesystem.Options{
				KeepDescriptors: true,
				AlternatesFS:    osfs.New(string(filepath.Separator), osfs.WithBoundOS()),
			})
			repo, err := git.Open(st, osfs.New(d, osfs.WithBoundOS()))
			if err != nil {
				_ = st.Close()
				return nil, nil, err
			}
			return repo, func() { _ = st.Close() }, nil
		}
		parent := filepath.Dir(d)
		if parent == d {
			break
		}
		d = parent
	}
	repo, err := git.PlainOpenWithOptions(dir, &git.PlainOpenOptions{DetectDotGit: true, EnableDotGitCommonDir: true})
	return repo, func() {}, err
}

// HeadState identifies what HEAD of the repository containing dir is: its
// reference name and commit ("" without commits). It is cheap next to Read,
// so callers can reuse a History while HEAD has not moved.
func HeadState(dir string) (string, error) {
	repo, closeRepo, err := open(dir)
	if err != nil {
		return "", fmt.Errorf("gitmeta: opening the repository at %s: %w", dir, err)
	}
	defer closeRepo()
	ref, err := repo.Head()
	if errors.Is(err, plumbing.ErrReferenceNotFound) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("gitmeta: resolving HEAD: %w", err)
	}
	return ref.Name().String() + "@" + ref.Hash().String(), nil
}

// ReadRepo is Read for an already opened repository, with go-git.
func ReadRepo(ctx context.Context, repo *git.Repository, opt Options) (*History, error) {
	opt.Subdir = cleanSubdir(opt.Subdir)
	h, _, _, err := readRepo(ctx, repo, opt, "")
	return h, err
}

func readRepo(ctx context.Context, repo *git.Repository, opt Options, since string) (*History, map[string]string, bool, error) {
	h := &History{Files: map[string]FileStats{}}
	if sh, err := repo.Storer.Shallow(); err == nil && len(sh) > 0 {
		h.Shallow = true
	}
	ref, err := repo.Head()
	if err != nil {
		if errors.Is(err, plumbing.ErrReferenceNotFound) {
			return h, nil, true, nil // no commits yet
		}
		return nil, nil, false, fmt.Errorf("gitmeta: resolving HEAD: %w", err)
	}
	h.Head = ref.Hash().String()
	if ref.Name() == plumbing.HEAD {
		h.Detached = true
	} else {
		h.Branch = ref.Name().Short()
	}
	s := repo.Storer
	c, err := object.GetCommit(s, ref.Hash())
	if err != nil {
		return nil, nil, false, fmt.Errorf("gitmeta: reading HEAD commit %s: %w", h.Head, err)
	}
	h.HeadTime = unix(c)
	if since == h.Head {
		return h, nil, true, nil
	}
	r := &reader{ctx: ctx, s: s, subdir: opt.Subdir, h: h, cur: map[plumbing.Hash][]object.TreeEntry{}}
	alias := map[string]string{} // renamed paths → their names at HEAD
	for c != nil {
		if opt.MaxCommits > 0 && h.CommitsRead >= opt.MaxCommits {
			h.Truncated = true
			break
		}
		if err := ctx.Err(); err != nil {
			return nil, nil, false, err
		}
		h.CommitsRead++
		parent, boundary, err := firstParent(s, c)
		if err != nil {
			return nil, nil, false, err
		}
		if !boundary {
			if err := r.commit(c, parent, opt, alias); err != nil {
				return nil, nil, false, err
			}
		}
		if since != "" && len(c.ParentHashes) > 0 && c.ParentHashes[0].String() == since {
			return h, alias, true, nil
		}
		c = parent
	}
	return h, alias, since == "", nil
}

// firstParent reads c's first parent (nil for a root commit); boundary
// reports a shallow clone's edge, where the parent is not there.
func firstParent(s storer.EncodedObjectStorer, c *object.Commit) (*object.Commit, bool, error) {
	if len(c.ParentHashes) == 0 {
		return nil, false, nil
	}
	p, err := object.GetCommit(s, c.ParentHashes[0])
	if errors.Is(err, plumbing.ErrObjectNotFound) {
		return nil, true, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("gitmeta: reading commit %s: %w", c.ParentHashes[0], err)
	}
	return p, false, nil
}

// commit records what c changed against its first parent.
func (r *reader) commit(c, parent *object.Commit, opt Options, alias map[string]string) error {
	var parentTree plumbing.Hash
	if parent != nil {
		parentTree = parent.TreeHash
	}
	changed, err := r.changed(parentTree, c.TreeHash)
	if err != nil {
		return fmt.Errorf("gitmeta: comparing commit %s with its parent: %w", c.Hash, err)
	}
	if !opt.NoRenames {
		renames := r.renames(r.deleted, r.added)
		if err := r.ctx.Err(); err != nil {
			return err // renames stops early when called off
		}
		changed = follow(alias, changed, renames)
	}
	record(r.h, opt, Commit{Hash: c.Hash.String(), Time: c.Author.When.Unix(), CommitTime: c.Committer.When.Unix(), Author: c.Author.Name, Subject: subject(c.Message)}, changed)
	return nil
}

// subject is a commit message's first line, bounded.
func subject(msg string) string {
	s, body, _ := strings.Cut(strings.TrimSpace(msg), "\n")
	s = strings.TrimSpace(s)
	if t := pullRequestTitle(s, body); t != "" {
		s = t
	}
	if len(s) > 200 {
		s = strings.ToValidUTF8(s[:200], "") + "…"
	}
	return s
}

// pullRequestTitle is "<title> (#N)" for GitHub's merge of a pull request,
// whose subject names only the branch ("Merge pull request #487 from
// someone/fix-x") and whose body's first line is the request's title: on
// a first-parent history of merges, that title is what the commit did.
func pullRequestTitle(s, body string) string {
	rest, ok := strings.CutPrefix(s, "Merge pull request #")
	if !ok {
		return ""
	}
	num, _, ok := strings.Cut(rest, " from ")
	if !ok || num == "" || strings.Trim(num, "0123456789") != "" {
		return ""
	}
	for line := range strings.Lines(body) {
		if t := strings.TrimSpace(line); t != "" {
			return t + " (#" + num + ")"
		}
	}
	return ""
}

func unix(c *object.Commit) float64 { return float64(c.Author.When.UnixNano()) / 1e9 }

type reader struct {
	// ctx is checked per commit and per tree compared: one commit can
	// add a whole tree, and objects read through alternates are slow.
	ctx    context.Context
	s      storer.EncodedObjectStorer
	subdir string
	h      *History
	// Trees decoded while diffing the previous commit and the current one.
	// Walking newest first, a commit's parent is usually the next commit
	// diffed, so its trees are decoded once instead of twice.
	prev, cur map[plumbing.Hash][]object.TreeEntry
	// The files the commit being diffed added and deleted (rename
	// candidates).
	added, deleted []blobEntry
}

// entries returns the entries of a tree, decoded at most once per two
// consecutive commits.
func (r *reader) entries(h plumbing.Hash) ([]object.TreeEntry, error) {
	if e, ok := r.cur[h]; ok {
		return e, nil
	}
	if e, ok := r.prev[h]; ok {
		r.cur[h] = e
		return e, nil
	}
	t, err := object.GetTree(r.s, h)
	if err != nil {
		return nil, err
	}
	r.cur[h] = t.Entries
	return t.Entries, nil
}

// changed lists the files (relative to subdir, sorted) that differ between
// two root trees; a zero hash is the empty tree.
func (r *reader) changed(oldRoot, newRoot plumbing.Hash) ([]string, error) {
	r.prev, r.cur = r.cur, make(map[plumbing.Hash][]object.TreeEntry, len(r.cur))
	r.added, r.deleted = r.added[:0], r.deleted[:0]
	oldT, err := r.subtree(oldRoot)
	if err != nil {
		return nil, err
	}
	newT, err := r.subtree(newRoot)
	if err != nil {
		return nil, err
	}
	var out []string
	if err := r.diff(oldT, newT, "", &out); err != nil {
		return nil, err
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

// subtree descends from a root tree to subdir, returning the zero hash when
// it does not exist in that commit.
func (r *reader) subtree(root plumbing.Hash) (plumbing.Hash, error) {
	if root.IsZero() || r.subdir == "" {
		return root, nil
	}
	h := root
	for _, seg := range strings.Split(r.subdir, "/") {
		ents, err := r.entries(h)
		if err != nil {
			return plumbing.ZeroHash, err
		}
		var next plumbing.Hash
		for _, e := range ents {
			if e.Name == seg && e.Mode == filemode.Dir {
				next = e.Hash
				break
			}
		}
		if next.IsZero() {
			return plumbing.ZeroHash, nil
		}
		h = next
	}
	return h, nil
}

// diff compares two trees by entry, descending only into subtrees whose
// hashes differ — the cost of a commit is proportional to what it changed,
// not to the size of the repository.
func (r *reader) diff(a, b plumbing.Hash, prefix string, out *[]string) error {
	if a == b {
		return nil
	}
	if err := r.ctx.Err(); err != nil {
		return err
	}
	var ae, be []object.TreeEntry
	var err error
	if !a.IsZero() {
		if ae, err = r.entries(a); err != nil {
			return err
		}
	}
	if !b.IsZero() {
		if be, err = r.entries(b); err != nil {
			return err
		}
	}
	old := make(map[string]object.TreeEntry, len(ae))
	for _, e := range ae {
		old[e.Name] = e
	}
	for _, e := range be {
		o, ok := old[e.Name]
		delete(old, e.Name)
		if ok && o.Hash == e.Hash && o.Mode == e.Mode {
			continue
		}
		p := prefix + e.Name
		var oldHash plumbing.Hash
		if ok && o.Mode == filemode.Dir {
			oldHash = o.Hash
		}
		switch {
		case e.Mode == filemode.Dir:
			if err := r.diff(oldHash, e.Hash, p+"/", out); err != nil {
				return err
			}
			if ok && isFile(o.Mode) { // a file became a directory
				*out = append(*out, p)
			}
		case isFile(e.Mode):
			*out = append(*out, p)
			if !ok || !isFile(o.Mode) {
				r.added = append(r.added, blobEntry{p, e.Hash})
			}
			if !oldHash.IsZero() { // a directory became a file
				if err := r.diff(oldHash, plumbing.ZeroHash, p+"/", out); err != nil {
					return err
				}
			}
		}
	}
	for _, o := range old { // deleted entries
		p := prefix + o.Name
		switch {
		case o.Mode == filemode.Dir:
			if err := r.diff(o.Hash, plumbing.ZeroHash, p+"/", out); err != nil {
				return err
			}
		case isFile(o.Mode):
			*out = append(*out, p)
			r.deleted = append(r.deleted, blobEntry{p, o.Hash})
		}
	}
	return nil
}

// isFile is true for blobs (regular, executable, symlink); submodules
// (gitlinks) are not files of this repository.
func isFile(m filemode.FileMode) bool {
	return m == filemode.Regular || m == filemode.Executable || m == filemode.Deprecated || m == filemode.Symlink
}

// IsShallow reports whether the repository holding dir is a shallow
// clone (its history ends at a boundary; false when unknown).
func IsShallow(dir string) bool {
	repo, closeRepo, err := open(dir)
	if err != nil {
		return false
	}
	defer closeRepo()
	sh, err := repo.Storer.Shallow()
	return err == nil && len(sh) > 0
}
