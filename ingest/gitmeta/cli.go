package gitmeta

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing/object"
)

// The git command reads history in one streaming `git log`, with git's
// own pack index and delta caches: its cost does not depend on where the
// objects live. go-git decodes objects one by one, and a clone made with
// --shared or --reference sends each read to the other repository's packs
// (docs/design.md#git-history; figures in benchmarks/results/history.md).
// go-git stays the reader where no git binary is installed.

// gitBinary is the git command Read uses ("" = go-git only). Tests set it.
var gitBinary = func() string {
	p, err := exec.LookPath("git")
	if err != nil {
		return ""
	}
	return p
}()

// errNoCLI makes Read fall back to go-git: the git command is missing or
// too old for the options the walk needs.
var errNoCLI = errors.New("gitmeta: git command unusable")

// cliRepo is what the git command says about the repository.
type cliRepo struct {
	dir      string
	head     string
	branch   string // "" when detached
	boundary map[string]bool
	partial  bool
}

// runGit runs one git command in dir and returns its output, trimmed.
func runGit(ctx context.Context, dir string, args ...string) (string, error) {
	out, err := runGitRaw(ctx, dir, args...)
	return strings.TrimSpace(out), err
}

// runGitRaw is runGit with the output as git wrote it (-z output keeps
// a path's leading and trailing spaces).
func runGitRaw(ctx context.Context, dir string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, gitBinary, append([]string{"-C", dir}, args...)...)
	cmd.Env = gitEnv()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("git %s: %w: %s", args[0], err, strings.TrimSpace(stderr.String()))
	}
	return string(out), nil
}

// gitEnv keeps git from prompting or fetching a partial clone's missing
// objects over the network while m1nd only reads.
func gitEnv() []string {
	return append(os.Environ(), "GIT_TERMINAL_PROMPT=0", "GIT_NO_LAZY_FETCH=1", "GIT_OPTIONAL_LOCKS=0", "LC_ALL=C")
}

// inspect reads HEAD, the branch, the shallow boundary and whether the
// clone is partial. A repository without commits has head "".
func inspect(ctx context.Context, dir string) (*cliRepo, error) {
	r := &cliRepo{dir: dir}
	out, err := runGit(ctx, dir, "rev-parse", "--is-inside-work-tree", "--git-path", "shallow")
	if err != nil {
		return nil, err
	}
	lines := strings.Split(out, "\n")
	if len(lines) < 2 {
		return nil, fmt.Errorf("git rev-parse: unexpected output %q", out)
	}
	shallow := lines[1]
	if !filepath.IsAbs(shallow) {
		shallow = filepath.Join(dir, shallow)
	}
	if data, err := os.ReadFile(shallow); err == nil {
		r.boundary = map[string]bool{}
		for _, l := range strings.Fields(string(data)) {
			r.boundary[l] = true
		}
	}
	if h, err := runGit(ctx, dir, "rev-parse", "-q", "--verify", "HEAD^{commit}"); err == nil {
		r.head = h
	}
	if b, err := runGit(ctx, dir, "symbolic-ref", "-q", "--short", "HEAD"); err == nil {
		r.branch = b
	}
	if p, _ := runGit(ctx, dir, "config", "--get-regexp", `^(extensions\.partialclone|remote\..*\.promisor)$`); p != "" {
		r.partial = true
	}
	return r, nil
}

// logArgs is the streaming log of the first-parent chain: each commit
// compared with its first parent (merges too, as `git log --first-parent`
// shows them), renames detected as git's -M does — by identical content
// only (-M100%, no blob read) in a partial clone, whose blobs are missing;
// the parser then pairs the rest by path (pairByPath).
func logArgs(opt Options, exact bool, since string) []string {
	args := []string{"-c", "core.quotepath=off", "-c", "log.showSignature=false", "-c", "diff.renameLimit=2000",
		"log", "--first-parent", "--diff-merges=first-parent", "--no-color", "--no-ext-diff", "--no-textconv",
		"--ignore-submodules", "--name-status", "-z", "--format=C%H %P%x00%at %ct%x00%an%x00%s%x00%b"}
	switch {
	case opt.NoRenames:
		args = append(args, "--no-renames")
	case exact:
		args = append(args, "-M100%")
	default:
		args = append(args, "-M50%")
	}
	if opt.Subdir != "" {
		args = append(args, "--relative="+opt.Subdir+"/")
	}
	if opt.MaxCommits > 0 {
		args = append(args, "-n", strconv.Itoa(opt.MaxCommits+1)) // one more tells truncation
	}
	rev := "HEAD"
	if since != "" {
		rev = since + "..HEAD"
	}
	return append(args, rev, "--")
}

// readCLI reads the first-parent history with the git command (since: the
// commits after that one only). reached reports that the walk met since's
// child on the chain (always true without since).
func readCLI(ctx context.Context, dir string, opt Options, since string) (h *History, alias map[string]string, reached bool, err error) {
	if gitBinary == "" {
		return nil, nil, false, errNoCLI
	}
	repo, err := inspect(ctx, dir)
	if err != nil {
		return nil, nil, false, err
	}
	h = &History{Files: map[string]FileStats{}, Head: repo.head, Branch: repo.branch, Detached: repo.branch == "", Shallow: repo.boundary != nil, Partial: repo.partial}
	if repo.head == "" {
		h.Detached = false
		return h, nil, true, nil
	}
	if since == repo.head {
		return h, nil, true, nil
	}
	base := h
	h, alias, reached, err = runLog(ctx, repo, base, opt, repo.partial, since)
	if err != nil && !repo.partial && !opt.NoRenames && ctx.Err() == nil && missingObject(err) {
		// Blobs missing outside a declared partial clone: renames by
		// identical content need none.
		base.Partial = true
		h, alias, reached, err = runLog(ctx, repo, base, opt, true, since)
	}
	return h, alias, reached, err
}

// missingObject is true for git's errors about objects it cannot read.
func missingObject(err error) bool {
	s := err.Error()
	return strings.Contains(s, "unable to read") || strings.Contains(s, "bad object") || strings.Contains(s, "missing blob")
}

// runLog streams one git log into h (reset first).
func runLog(ctx context.Context, repo *cliRepo, base *History, opt Options, exact bool, since string) (*History, map[string]string, bool, error) {
	h := *base
	h.Files, h.Groups, h.Commits, h.CommitsRead, h.Truncated = map[string]FileStats{}, nil, nil, 0, false
	lctx, cancel := context.WithCancel(ctx)
	defer cancel()
	cmd := exec.CommandContext(lctx, gitBinary, append([]string{"-C", repo.dir}, logArgs(opt, exact, since)...)...)
	cmd.Env = gitEnv()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, nil, false, err
	}
	if err := cmd.Start(); err != nil {
		return nil, nil, false, err
	}
	p := &logParser{rd: bufio.NewReaderSize(stdout, 1<<16), h: &h, opt: opt, boundary: repo.boundary, alias: map[string]string{},
		byPath: exact && !opt.NoRenames}
	perr := p.parse(ctx)
	stopped := perr != nil || h.Truncated
	if stopped {
		cancel()
	}
	werr := cmd.Wait()
	switch {
	case perr != nil:
		return nil, nil, false, perr
	case werr != nil && !stopped:
		if ctx.Err() != nil {
			return nil, nil, false, ctx.Err()
		}
		return nil, nil, false, fmt.Errorf("git log: %w: %s", werr, strings.TrimSpace(stderr.String()))
	}
	reached := since == "" || p.lastParent == since
	return &h, p.alias, reached, nil
}

// logParser turns the -z stream into History: a header token
// "C<hash> <parents>", then author and committer times, author, subject,
// then status and path tokens until the next header.
type logParser struct {
	rd       *bufio.Reader
	h        *History
	opt      Options
	boundary map[string]bool
	alias    map[string]string
	// byPath pairs deleted and added files by path (pairByPath) where
	// renames are by identical content only: blobs are missing.
	byPath bool
	// The commit being read.
	cur        *Commit
	skip       bool // a shallow boundary: its "changes" are its whole tree
	changed    []string
	renames    map[string]string
	deleted    []string
	added      []string
	lastParent string
}

func (p *logParser) token() (string, error) {
	s, err := p.rd.ReadString(0)
	if err != nil {
		if err == io.EOF && s == "" {
			return "", io.EOF
		}
		if err != io.EOF {
			return "", err
		}
	}
	return strings.TrimPrefix(strings.TrimSuffix(s, "\x00"), "\n"), nil
}

func (p *logParser) parse(ctx context.Context) error {
	for {
		tok, err := p.token()
		if err == io.EOF {
			p.flush()
			return nil
		}
		if err != nil {
			return err
		}
		switch {
		case tok == "":
		case tok[0] == 'C': // -C (copies) is never asked: C is a header
			p.flush()
			if err := ctx.Err(); err != nil {
				return err
			}
			if p.opt.MaxCommits > 0 && p.h.CommitsRead >= p.opt.MaxCommits {
				p.h.Truncated = true
				return nil
			}
			if err := p.header(tok[1:]); err != nil {
				return err
			}
		default:
			if err := p.entry(tok); err != nil {
				return err
			}
		}
	}
}

// header starts a commit.
func (p *logParser) header(ids string) error {
	var f [4]string
	for i := range f {
		t, err := p.token()
		if err != nil {
			return fmt.Errorf("git log: truncated commit header: %w", err)
		}
		f[i] = t
	}
	hash, parents, _ := strings.Cut(ids, " ")
	at, ct, _ := strings.Cut(f[0], " ")
	a, _ := strconv.ParseInt(at, 10, 64)
	c, _ := strconv.ParseInt(ct, 10, 64)
	p.h.CommitsRead++
	if p.h.CommitsRead == 1 {
		p.h.HeadTime = float64(a)
	}
	first, _, _ := strings.Cut(parents, " ")
	p.lastParent = first
	p.cur = &Commit{Hash: hash, Time: a, CommitTime: c, Author: f[1], Subject: subject(f[2] + "\n\n" + f[3])}
	p.skip = p.boundary[hash]
	return nil
}

// entry reads one status and its path(s).
func (p *logParser) entry(status string) error {
	n := 1
	if status[0] == 'R' {
		n = 2
	}
	var paths [2]string
	for i := range n {
		t, err := p.token()
		if err != nil {
			return fmt.Errorf("git log: truncated file status: %w", err)
		}
		paths[i] = t
	}
	if p.cur == nil || p.skip {
		return nil
	}
	p.changed = append(p.changed, paths[:n]...)
	if p.byPath && status[0] == 'D' {
		p.deleted = append(p.deleted, paths[0])
	} else if p.byPath && status[0] == 'A' {
		p.added = append(p.added, paths[0])
	}
	if n == 2 {
		if p.renames == nil {
			p.renames = map[string]string{}
		}
		p.renames[paths[0]] = paths[1]
	}
	return nil
}

// flush records the commit read so far, as the go-git walk does.
func (p *logParser) flush() {
	c := p.cur
	if c == nil {
		return
	}
	changed := p.changed
	slices.Sort(changed)
	changed = slices.Compact(changed)
	if len(p.deleted) > 0 && len(p.added) > 0 {
		if p.renames == nil {
			p.renames = map[string]string{}
		}
		for old, nw := range pairByPath(p.deleted, p.added) {
			p.renames[old] = nw
		}
	}
	if !p.opt.NoRenames {
		changed = follow(p.alias, changed, p.renames)
	}
	record(p.h, p.opt, *c, changed)
	p.cur, p.changed, p.renames, p.deleted, p.added = nil, p.changed[:0], nil, p.deleted[:0], p.added[:0]
}

// record adds one commit's changed files (already named as at HEAD).
func record(h *History, opt Options, c Commit, changed []string) {
	for _, f := range changed {
		fs := h.Files[f]
		fs.Commits++
		fs.LastCommit = max(fs.LastCommit, float64(c.Time))
		h.Files[f] = fs
	}
	if len(changed) > 0 && (opt.MaxGroupSize <= 0 || len(changed) <= opt.MaxGroupSize) {
		h.Groups = append(h.Groups, slices.Clone(changed))
		h.Commits = append(h.Commits, c)
	}
}

// LastBefore is the newest commit of HEAD's first-parent chain whose
// committer date is at or before t, as `git rev-list -1 --first-parent
// --before=t HEAD` answers ("" when every commit is newer). Author dates
// are not used: a commit authored before t may have entered the history
// after it (a rebase, a cherry-pick, a pull request merged later).
func LastBefore(ctx context.Context, dir string, t time.Time) (string, error) {
	if gitBinary != "" {
		out, err := runGit(ctx, dir, "rev-list", "-1", "--first-parent", "--min-age="+strconv.FormatInt(t.Unix(), 10), "HEAD", "--")
		if err == nil || ctx.Err() != nil {
			return out, err
		}
	}
	repo, closeRepo, err := open(dir)
	if err != nil {
		return "", fmt.Errorf("gitmeta: opening the repository at %s: %w", dir, err)
	}
	defer closeRepo()
	ref, err := repo.Head()
	if err != nil {
		return "", fmt.Errorf("gitmeta: resolving HEAD: %w", err)
	}
	c, err := object.GetCommit(repo.Storer, ref.Hash())
	for err == nil && c != nil {
		if !c.Committer.When.After(t) {
			return c.Hash.String(), nil
		}
		if err = ctx.Err(); err == nil {
			c, _, err = firstParent(repo.Storer, c)
		}
	}
	return "", err
}

// ChainSince lists the commits of HEAD's first-parent chain that are newer
// than base, newest first (`git rev-list --first-parent base..HEAD`); ok
// is false when base is not on the chain (nothing is listed then).
func ChainSince(ctx context.Context, dir, base string) (hashes []string, ok bool, err error) {
	if gitBinary != "" {
		out, err := runGit(ctx, dir, "rev-list", "--first-parent", "--parents", base+"..HEAD", "--")
		if err == nil {
			lines := strings.Split(out, "\n")
			if out == "" {
				return nil, true, nil
			}
			for _, l := range lines {
				h, _, _ := strings.Cut(l, " ")
				hashes = append(hashes, h)
			}
			f := strings.Fields(lines[len(lines)-1])
			if len(f) < 2 || f[1] != base {
				return nil, false, nil
			}
			return hashes, true, nil
		}
		if ctx.Err() != nil {
			return nil, false, err
		}
	}
	h, _, reached, err := read(ctx, dir, Options{NoRenames: true}, base)
	if err != nil || !reached {
		return nil, false, err
	}
	for _, c := range h.Commits {
		hashes = append(hashes, c.Hash)
	}
	return hashes, true, nil
}
