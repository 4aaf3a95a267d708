// Package cochange is the co-change benchmark: it cuts a repository's
// history at a date, ingests a checkout of the cut that knows only the
// history before it, and asks, for every later commit touching 2–8 source
// files, what each changed file predicts — scoring Recall@5/@10 of the
// commit's other source files. The classic association-rule baseline
// (Zimmermann et al.'s ROSE: support and confidence over the training
// commits, with a same-directory fallback) answers the same queries.
//
// Its phases, in order: Prepare (cut, checkout, training and test commits),
// Queries (the test commits turned into (file, targets) pairs), Evaluate
// (each predictor over every query), and the report.
package cochange

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path"
	"slices"
	"strconv"
	"strings"
)

// Commit is one non-merge commit: its hash, author time and files.
type Commit struct {
	Hash  string
	Time  int64
	Files []string
}

// Split is a repository cut in two at a commit.
type Split struct {
	// Cut is the commit the checkout stands on; CutTime its author time.
	Cut     string
	CutTime int64
	// Checkout is a clone whose only ref is the cut.
	Checkout string
	// Train are the commits reachable from the cut (newest first, at most
	// MaxTrain); Test the commits after it, oldest first.
	Train, Test []Commit
	// Universe holds the source files present at the cut.
	Universe map[string]bool
	// Total counts the non-merge commits up to the pinned commit.
	Total int
}

// MaxTrain bounds the baselines' training commits. It matched the
// server's old history bound; the server now reads the whole first-parent
// history, so on repositories with more commits before the cut it knows
// more than the baselines (benchmarks/cochange/README.md).
const MaxTrain = 2000

// SourceExt lists the extensions counted as source files.
var SourceExt = []string{".py", ".go", ".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".mts", ".cts", ".rs", ".java", ".kt", ".scala", ".c", ".h", ".cc", ".cpp", ".hpp", ".rb", ".php", ".cs", ".swift"}

// IsSource reports whether p is a source file by its extension.
func IsSource(p string) bool { return slices.Contains(SourceExt, path.Ext(p)) }

func git(ctx context.Context, dir string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", dir}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return out, nil
}

// Prepare cuts the history of the repository at src (a git directory or
// work tree) up to commit at fraction frac of its non-merge commits (by
// author time) and makes a checkout of the cut in dir.
func Prepare(ctx context.Context, src, commit string, frac float64, dir string) (*Split, error) {
	all, err := commits(ctx, src, commit, 0)
	if err != nil {
		return nil, err
	}
	if len(all) < 20 {
		return nil, fmt.Errorf("%s has %d commits, too few to split", src, len(all))
	}
	byTime := slices.Clone(all)
	slices.SortStableFunc(byTime, func(a, b Commit) int { return int(a.Time - b.Time) })
	cutTime := byTime[int(float64(len(byTime))*frac)].Time
	out, err := git(ctx, src, "rev-list", "-1", "--first-parent", "--before="+strconv.FormatInt(cutTime, 10), commit)
	if err != nil {
		return nil, err
	}
	cut := strings.TrimSpace(string(out))
	if cut == "" {
		return nil, fmt.Errorf("no commit before %d on the first-parent line of %s", cutTime, commit)
	}
	s := &Split{Cut: cut, Checkout: dir, Universe: map[string]bool{}, Total: len(all)}
	if err := checkout(ctx, src, cut, dir); err != nil {
		return nil, err
	}
	if s.Train, err = commits(ctx, dir, "HEAD", MaxTrain); err != nil {
		return nil, err
	}
	if len(s.Train) > 0 {
		s.CutTime = s.Train[0].Time
	}
	test, err := commits(ctx, src, cut+".."+commit, 0)
	if err != nil {
		return nil, err
	}
	slices.Reverse(test)
	s.Test = test
	ls, err := git(ctx, dir, "ls-files")
	if err != nil {
		return nil, err
	}
	for _, p := range strings.Split(strings.TrimSpace(string(ls)), "\n") {
		if IsSource(p) {
			s.Universe[p] = true
		}
	}
	return s, nil
}

// checkout makes dir a repository holding only cut's history, HEAD
// detached at cut: no branch or tag from the future.
func checkout(ctx context.Context, src, cut, dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	steps := [][]string{
		{"init", "-q"},
		{"fetch", "-q", "--no-tags", src, cut},
		{"-c", "advice.detachedHead=false", "checkout", "-q", "--detach", cut},
	}
	for _, st := range steps {
		if _, err := git(ctx, dir, st...); err != nil {
			return err
		}
	}
	return nil
}

// commits lists the non-merge commits of rev (newest first), each with the
// files it changed against its first parent; max > 0 bounds them.
func commits(ctx context.Context, dir, rev string, max int) ([]Commit, error) {
	args := []string{"log", "--no-merges", "--no-renames", "--format=@%H %at", "--name-only", rev}
	if max > 0 {
		args = append(args, "-n", strconv.Itoa(max))
	}
	out, err := git(ctx, dir, args...)
	if err != nil {
		return nil, err
	}
	var cs []Commit
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		l := sc.Text()
		switch {
		case strings.HasPrefix(l, "@"):
			h, t, _ := strings.Cut(l[1:], " ")
			ti, _ := strconv.ParseInt(t, 10, 64)
			cs = append(cs, Commit{Hash: h, Time: ti})
		case l != "" && len(cs) > 0:
			cs[len(cs)-1].Files = append(cs[len(cs)-1].Files, l)
		}
	}
	return cs, sc.Err()
}
