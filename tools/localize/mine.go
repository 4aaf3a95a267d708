// Package localize measures whether m1nd finds the right code: it mines
// bug-fix commits from a git repository, asks the real m1nd-mcp server
// (over stdio JSON-RPC) to locate the files each fix changed from the
// commit message alone, and scores seek and activate against a plain BM25
// baseline over whole file contents.
//
// A task is one commit: its message is the query, the non-test source
// files it changed that existed at its parent are the gold files, and the
// parent's tree is what gets ingested — the repository as it was when the
// bug was reported.
package localize

import (
	"errors"
	"fmt"
	"io"
	"path"
	"regexp"
	"strings"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// Task is one localisation task mined from a commit.
type Task struct {
	Commit  string `json:"commit"`
	Parent  string `json:"parent"`
	Subject string `json:"subject"`
	// Message is the commit message (subject and body): the query.
	Message string `json:"message"`
	// Gold are the non-test source files the commit changed that exist
	// at the parent, sorted.
	Gold []string `json:"gold"`
	// Changed counts every file the commit touched.
	Changed int `json:"changed"`
}

// MineOptions select tasks.
type MineOptions struct {
	// MaxFiles skips commits touching more files (default 5): large
	// commits are refactors, not localised fixes.
	MaxFiles int
	// MaxTasks stops after this many tasks, newest first (0: all).
	MaxTasks int
	// AllCommits drops the bug-fix message filter (every non-merge commit
	// with few source files becomes a task): the same localisation
	// question for features and refactors, for a larger sample.
	AllCommits bool
	// MaxCommits bounds the history walk (0: all).
	MaxCommits int
	// Rev is where the walk starts (default HEAD): a pinned commit.
	Rev string
	// MaxSource skips commits touching more source files, tests
	// included (0: no limit).
	MaxSource int
	// Spread picks MaxTasks tasks evenly over all matching commits, so
	// a sample spans the years instead of the newest weeks.
	Spread bool
	// Clean drops chores (reverts, version bumps, releases) and strips
	// trailers and URLs from the message: the query is what a bug
	// report would say, not bookkeeping.
	Clean bool
}

// fixPattern recognises bug-fix commit messages.
var fixPattern = regexp.MustCompile(`(?i)\b(fix(e[sd]|ing)?|bugs?|issues?|errors?|crash(e[sd])?|regressions?|broken|incorrect(ly)?|wrong|fail(s|ed|ure|ing)?|panic(s|ked|king)?|leak(s|ed|ing)?|race|hang(s|ing)?|deadlock|off-by-one|typo|revert)\b`)

// IsFixMessage reports whether a commit message describes a fix.
func IsFixMessage(msg string) bool { return fixPattern.MatchString(msg) }

// sourceExts are the extensions counted as source code.
var sourceExts = map[string]bool{
	".go": true, ".py": true, ".pyi": true, ".js": true, ".jsx": true, ".mjs": true, ".cjs": true,
	".ts": true, ".tsx": true, ".java": true, ".kt": true, ".scala": true, ".rs": true, ".c": true,
	".h": true, ".cc": true, ".cpp": true, ".cxx": true, ".hpp": true, ".cs": true, ".rb": true,
	".php": true, ".swift": true, ".lua": true, ".sh": true, ".bash": true, ".ex": true, ".exs": true,
	".hs": true, ".ml": true, ".jl": true, ".zig": true, ".r": true, ".dart": true, ".m": true,
}

// IsSource reports whether p names a source file (by extension).
func IsSource(p string) bool { return sourceExts[strings.ToLower(path.Ext(p))] }

// IsTest reports whether p is a test file or test data by the usual
// conventions of the languages above.
func IsTest(p string) bool {
	low := strings.ToLower(p)
	base := path.Base(low)
	stem := strings.TrimSuffix(base, path.Ext(base))
	for _, seg := range strings.Split(path.Dir(low), "/") {
		switch seg {
		case "test", "tests", "testdata", "testing", "__tests__", "spec", "specs", "fixtures", "testutil", "e2e":
			return true
		}
	}
	switch {
	case strings.HasSuffix(stem, "_test"), strings.HasPrefix(stem, "test_"), stem == "conftest",
		strings.HasSuffix(stem, ".test"), strings.HasSuffix(stem, ".spec"), strings.HasSuffix(stem, "_spec"):
		return true
	}
	// Java/Kotlin: FooTest, FooTests, FooIT.
	orig := strings.TrimSuffix(path.Base(p), path.Ext(p))
	return strings.HasSuffix(orig, "Test") || strings.HasSuffix(orig, "Tests") || strings.HasSuffix(orig, "IT")
}

// Mine walks the history of the repository at repoPath from HEAD, newest
// first, and returns its localisation tasks. Merge commits and root
// commits are skipped.
func Mine(repoPath string, o MineOptions) ([]Task, error) {
	if o.MaxFiles <= 0 {
		o.MaxFiles = 5
	}
	repo, err := openRepo(repoPath)
	if err != nil {
		return nil, fmt.Errorf("open repository %s: %w", repoPath, err)
	}
	from, err := startOf(repo, o.Rev)
	if err != nil {
		return nil, fmt.Errorf("repository %s: %w", repoPath, err)
	}
	it, err := repo.Log(&git.LogOptions{From: from, Order: git.LogOrderCommitterTime})
	if err != nil {
		return nil, err
	}
	defer it.Close()
	var tasks []Task
	walked := 0
	stop := errors.New("stop")
	err = it.ForEach(func(c *object.Commit) error {
		walked++
		if o.MaxCommits > 0 && walked > o.MaxCommits {
			return stop
		}
		if c.NumParents() != 1 || (!o.AllCommits && !IsFixMessage(c.Message)) || (o.Clean && IsChore(c.Message)) {
			return nil
		}
		t, ok, err := taskOf(c, o)
		if err != nil {
			return err
		}
		if ok {
			tasks = append(tasks, t)
			if !o.Spread && o.MaxTasks > 0 && len(tasks) >= o.MaxTasks {
				return stop
			}
		}
		return nil
	})
	if err != nil && !errors.Is(err, stop) {
		return nil, err
	}
	if o.Spread && o.MaxTasks > 0 {
		tasks = Spread(tasks, o.MaxTasks)
	}
	return tasks, nil
}

func startOf(repo *git.Repository, rev string) (plumbing.Hash, error) {
	if rev == "" {
		head, err := repo.Head()
		if err != nil {
			return plumbing.ZeroHash, fmt.Errorf("no HEAD: %w", err)
		}
		return head.Hash(), nil
	}
	h, err := repo.ResolveRevision(plumbing.Revision(rev))
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("resolve %s: %w", rev, err)
	}
	return *h, nil
}

// Spread keeps n of tasks at evenly spaced positions (the middle of each
// of n equal slices), in their order; all of them when there are fewer.
func Spread[T any](tasks []T, n int) []T {
	if n <= 0 || len(tasks) <= n {
		return tasks
	}
	out := make([]T, 0, n)
	for i := 0; i < n; i++ {
		out = append(out, tasks[(2*i+1)*len(tasks)/(2*n)])
	}
	return out
}

// chorePattern recognises commits that are bookkeeping, not fixes.
var chorePattern = regexp.MustCompile(`(?i)^(revert\b|bump\b|release\b|prepare (for )?release|update changelog|changelog|v?\d+\.\d+(\.\d+)?\s*$|(chore|build)(\(deps\))?:)|\bdependabot\b|\bbump(s|ed)? [\w./@-]+ from \S+ to\b`)

// IsChore reports whether a commit message is a revert, a version bump,
// a release or a dependency update.
func IsChore(msg string) bool {
	subject, _, _ := strings.Cut(strings.TrimSpace(msg), "\n")
	return chorePattern.MatchString(subject) || strings.Contains(strings.ToLower(msg), "dependabot")
}

var (
	trailerLine = regexp.MustCompile(`(?im)^\s*(signed-off-by|co-authored-by|reviewed[- ]by|acked-by|tested-by|reported-by|suggested-by|helped-by|change-id|cc|closes|fixes|resolves|refs|see-also|pr-url|reviewed-on|git-svn-id|submitted[- ]by|obtained[- ]from)\s*:.*$`)
	urlPattern  = regexp.MustCompile(`(?i)\b(https?|ftp)://\S+`)
	blankRuns   = regexp.MustCompile(`\n{3,}`)
)

// CleanMessage strips trailers (Signed-off-by:, Co-authored-by:, the
// git-svn-id: of a converted Subversion history, …) and URLs from a
// commit message: they name people, links and revisions, never code.
func CleanMessage(msg string) string {
	msg = trailerLine.ReplaceAllString(msg, "")
	msg = urlPattern.ReplaceAllString(msg, "")
	msg = blankRuns.ReplaceAllString(strings.ReplaceAll(msg, "\r", ""), "\n\n")
	return strings.TrimSpace(msg)
}

func taskOf(c *object.Commit, o MineOptions) (Task, bool, error) {
	parent, err := c.Parent(0)
	if err != nil {
		return Task{}, false, err
	}
	pt, err := parent.Tree()
	if err != nil {
		return Task{}, false, err
	}
	ct, err := c.Tree()
	if err != nil {
		return Task{}, false, err
	}
	changes, err := object.DiffTree(pt, ct)
	if err != nil {
		return Task{}, false, err
	}
	if len(changes) == 0 || len(changes) > o.MaxFiles {
		return Task{}, false, nil
	}
	var gold []string
	source := 0
	for _, ch := range changes {
		name := ch.From.Name // "" for files the commit added
		if n := ch.To.Name; name == "" && IsSource(n) || name != "" && IsSource(name) {
			source++
		}
		if name != "" && IsSource(name) && !IsTest(name) {
			gold = append(gold, name)
		}
	}
	if len(gold) == 0 || o.MaxSource > 0 && source > o.MaxSource {
		return Task{}, false, nil
	}
	sortStrings(gold)
	msg := strings.TrimSpace(c.Message)
	if o.Clean {
		if msg = CleanMessage(msg); msg == "" {
			return Task{}, false, nil
		}
	}
	subject, _, _ := strings.Cut(msg, "\n")
	return Task{
		Commit: c.Hash.String(), Parent: parent.Hash.String(),
		Subject: subject, Message: msg, Gold: gold, Changed: len(changes),
	}, true, nil
}

// File is a file of a checked-out tree.
type File struct {
	Path string
	Data []byte
}

// maxBlob skips larger files when checking out a tree (generated data).
const maxBlob = 4 << 20

// TreeFiles reads the regular files of commit's tree.
func TreeFiles(repoPath, commit string) ([]File, error) {
	repo, err := openRepo(repoPath)
	if err != nil {
		return nil, err
	}
	h, err := repo.ResolveRevision(plumbing.Revision(commit))
	if err != nil {
		return nil, fmt.Errorf("resolve %s: %w", commit, err)
	}
	c, err := repo.CommitObject(*h)
	if err != nil {
		return nil, err
	}
	tree, err := c.Tree()
	if err != nil {
		return nil, err
	}
	var out []File
	err = tree.Files().ForEach(func(f *object.File) error {
		if !f.Mode.IsFile() || f.Mode == filemode.Symlink || f.Size > maxBlob {
			return nil
		}
		r, err := f.Reader()
		if err != nil {
			return err
		}
		data, err := io.ReadAll(r)
		r.Close()
		if err != nil {
			return err
		}
		out = append(out, File{Path: f.Name, Data: data})
		return nil
	})
	return out, err
}

// openRepo opens a work tree (or a directory inside one) or a bare git
// directory such as a mirror.
func openRepo(p string) (*git.Repository, error) {
	repo, err := git.PlainOpenWithOptions(p, &git.PlainOpenOptions{DetectDotGit: true, EnableDotGitCommonDir: true})
	if errors.Is(err, git.ErrRepositoryNotExists) {
		if bare, err2 := git.PlainOpen(p); err2 == nil {
			return bare, nil
		}
	}
	return repo, err
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}
