package gitmeta

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"os/exec"
	"strconv"
	"strings"
)

// LineHistory is one file's first-parent history kept as hunk headers
// only: enough to date any line range of the file's HEAD version by the
// last commit changing those lines, as
// `git log --first-parent -L lo,hi:path -1` does, for every range of the
// file from one log read.
type LineHistory struct {
	commits []lineCommit // newest first along the chain
	// Complete: the log was read to its end (the file's creation); false
	// when the byte bound cut it, so an untouched range is unknown.
	Complete bool
}

type lineCommit struct {
	time  int64
	hash  string
	all   bool   // a binary change: every line counts as changed
	hunks []hunk // in new-side order
}

// hunk is one "@@ -oldStart,oldCount +newStart,newCount @@" header;
// cosmetic when the reader's Cosmetic said its lines change no behaviour.
type hunk struct {
	oldStart, oldCount, newStart, newCount int
	cosmetic                               bool
}

// Cosmetic tells, from a hunk's removed and added lines (without their
// '-'/'+'), whether it changes no behaviour (a type annotation, a
// comment). path is the file's path in the repository.
type Cosmetic func(path string, old, new []string) bool

// ErrLineBound: a file's history is longer than the bytes allowed.
var ErrLineBound = errors.New("the file's history is over the read bound")

// ReadLineHistory reads path's first-parent history at HEAD with
// zero-context diffs (a merge diffed against its first parent, so a
// branch's change is dated when it landed), keeping hunk headers only.
// It reads at most maxBytes of log; past that the history is cut
// (Complete false). Renames are not followed: a moved file's lines are
// dated by the move. It needs the git command.
func ReadLineHistory(ctx context.Context, dir, path string, maxBytes int64) (*LineHistory, error) {
	hs, err := ReadLineHistories(ctx, dir, []string{path}, maxBytes)
	if err != nil {
		return nil, err
	}
	return hs[path], nil
}

// ReadLineHistories is ReadLineHistory for many files in one walk of the
// history (one git log for all of them); maxBytes bounds the whole log.
// Every path asked for gets a history, empty when no commit changed it.
func ReadLineHistories(ctx context.Context, dir string, paths []string, maxBytes int64) (map[string]*LineHistory, error) {
	return ReadLineHistoriesCosmetic(ctx, dir, paths, maxBytes, nil)
}

// ReadLineHistoriesCosmetic is ReadLineHistories marking the hunks
// cosmetic calls cosmetic (nil marks none), so that LastTouchFiltered can
// pass over them.
func ReadLineHistoriesCosmetic(ctx context.Context, dir string, paths []string, maxBytes int64, cosmetic Cosmetic) (map[string]*LineHistory, error) {
	if gitBinary == "" {
		return nil, errNoCLI
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	args := append([]string{"-C", dir, "-c", "core.quotepath=off", "log", "--first-parent",
		"--diff-merges=first-parent", "--no-renames", "--no-color", "--no-ext-diff", "--no-textconv", "-p", "-U0",
		"--format=%x01%ct %H", "HEAD", "--"}, paths...)
	cmd := exec.CommandContext(ctx, gitBinary, args...)
	cmd.Env = gitEnv()
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	lr := &io.LimitedReader{R: out, N: maxBytes}
	hs := map[string]*LineHistory{}
	for _, p := range paths {
		hs[p] = &LineHistory{}
	}
	parseLineHistories(lr, hs, cosmetic)
	complete := lr.N > 0
	if !complete {
		cancel()
	}
	if err := cmd.Wait(); err != nil && complete {
		return nil, err
	}
	for _, h := range hs {
		h.Complete = complete
	}
	return hs, nil
}

// parseLineHistories reads the log: "\x01<time> <hash>" heads a commit,
// "diff --git a/P b/P" a file's diff, "@@ … @@" a hunk, "Binary files …
// differ" a binary change; content lines always start with '+', '-', ' '
// or '\'. Files not in hs are passed over. With cosmetic set, each hunk's
// lines are kept until the hunk ends, to mark it.
func parseLineHistories(r io.Reader, hs map[string]*LineHistory, cosmetic Cosmetic) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 16<<20)
	var t int64
	var hash, path string
	var cur *lineCommit
	var old, nw []string
	end := func() { // the open hunk, if any, is complete
		if cosmetic != nil && cur != nil && len(cur.hunks) > 0 {
			hk := &cur.hunks[len(cur.hunks)-1]
			hk.cosmetic = cosmetic(path, old, nw)
		}
		old, nw = old[:0], nw[:0]
	}
	for sc.Scan() {
		line := sc.Bytes()
		switch {
		case len(line) > 0 && line[0] == 1:
			end()
			ts, h, _ := strings.Cut(string(line[1:]), " ")
			t, _ = strconv.ParseInt(ts, 10, 64)
			hash, cur = h, nil
		case bytes.HasPrefix(line, []byte("diff --git a/")):
			end()
			cur = nil
			rest := string(line[len("diff --git "):]) // "a/P b/P" (renames are off)
			if n := (len(rest) - 5) / 2; n > 0 && len(rest) == 2*n+5 {
				if h, ok := hs[rest[2:2+n]]; ok {
					path = rest[2 : 2+n]
					h.commits = append(h.commits, lineCommit{time: t, hash: hash})
					cur = &h.commits[len(h.commits)-1]
				}
			}
		case cur == nil:
		case bytes.HasPrefix(line, []byte("@@ -")):
			end()
			if hk, ok := parseHunk(string(line)); ok {
				cur.hunks = append(cur.hunks, hk)
			}
		case bytes.HasPrefix(line, []byte("Binary files ")):
			cur.all = true
		case cosmetic == nil || len(cur.hunks) == 0 || len(line) == 0:
		case line[0] == '-':
			old = append(old, string(line[1:]))
		case line[0] == '+':
			nw = append(nw, string(line[1:]))
		}
	}
	end()
}

// parseHunk reads "@@ -a[,b] +c[,d] @@…" (a count left out is 1).
func parseHunk(s string) (hunk, bool) {
	s = strings.TrimPrefix(s, "@@ -")
	old, rest, ok := strings.Cut(s, " +")
	if !ok {
		return hunk{}, false
	}
	nw, _, ok := strings.Cut(rest, " @@")
	if !ok {
		return hunk{}, false
	}
	var hk hunk
	var ok1, ok2 bool
	hk.oldStart, hk.oldCount, ok1 = startCount(old)
	hk.newStart, hk.newCount, ok2 = startCount(nw)
	return hk, ok1 && ok2
}

func startCount(s string) (int, int, bool) {
	a, b, has := strings.Cut(s, ",")
	start, err := strconv.Atoi(a)
	if err != nil {
		return 0, 0, false
	}
	if !has {
		return start, 1, true
	}
	n, err := strconv.Atoi(b)
	return start, n, err == nil
}

// Commits is how many commits of the chain changed the file (as read).
func (h *LineHistory) Commits() int { return len(h.commits) }

// LastTouch dates the lines lo..hi (1-based, inclusive) of the HEAD
// version: the committer time and hash of the newest commit of the chain
// whose diff changed, inserted into or deleted inside them, following
// the range back through each later commit's hunks. ok is false when no
// read commit touched them (the bound cut the history, or the range lies
// outside the file).
func (h *LineHistory) LastTouch(lo, hi int) (t int64, hash string, ok bool) {
	t, hash, ok, _ = h.LastTouchSkipping(lo, hi, nil)
	return t, hash, ok
}

// LastTouchSkipping is LastTouch passing over the commits skip names
// (still following the range through them): passed counts those passed
// over that touched the lines. When only such commits touched them, the
// oldest of those (the one that brought the lines in) dates them.
func (h *LineHistory) LastTouchSkipping(lo, hi int, skip func(hash string) bool) (t int64, hash string, ok bool, passed int) {
	return h.LastTouchFiltered(lo, hi, skip, false)
}

// LastTouchFiltered is LastTouchSkipping that, with passCosmetic, also
// passes over a commit whose hunks meeting the lines are all cosmetic
// (see ReadLineHistoriesCosmetic), as over a skipped one.
func (h *LineHistory) LastTouchFiltered(lo, hi int, skip func(hash string) bool, passCosmetic bool) (t int64, hash string, ok bool, passed int) {
	if lo < 1 || hi < lo {
		return 0, "", false, 0
	}
	var oldest *lineCommit
	for i := range h.commits {
		c := &h.commits[i]
		touched, real := c.all, c.all
		delta := 0
		for _, hk := range c.hunks {
			if real {
				break
			}
			if touches(hk, lo, hi) {
				touched = true
				real = !passCosmetic || !hk.cosmetic
			} else if before(hk, lo) {
				delta += hk.oldCount - hk.newCount
			}
		}
		if touched {
			if real && (skip == nil || !skip(c.hash)) {
				return c.time, c.hash, true, passed
			}
			passed++
			oldest = c
			// The range's old extent: map each end back on its own.
			if lo, hi = mapBack(c, lo, hi); hi < lo {
				break
			}
			continue
		}
		lo, hi = lo+delta, hi+delta
	}
	if oldest != nil {
		return oldest.time, oldest.hash, true, passed - 1
	}
	return 0, "", false, 0
}

// mapBack maps a range of c's new side to its old side across hunks
// that may overlap it: a line inside a hunk maps to the hunk's old
// start (lo) or end (hi).
func mapBack(c *lineCommit, lo, hi int) (int, int) {
	if c.all {
		return 1, 0
	}
	return oldLine(c.hunks, lo, false), oldLine(c.hunks, hi, true)
}

// oldLine maps new-side line n back to the old side; a line a hunk added
// maps to the hunk's old lines (their first for a range start, last for
// an end).
func oldLine(hunks []hunk, n int, end bool) int {
	delta := 0
	for _, hk := range hunks {
		switch {
		case before(hk, n):
			delta += hk.oldCount - hk.newCount
		case hk.newCount > 0 && hk.newStart <= n:
			if end {
				return hk.oldStart + hk.oldCount - 1 + boolInt(hk.oldCount == 0)
			}
			return hk.oldStart + boolInt(hk.oldCount == 0)
		default:
			return n + delta
		}
	}
	return n + delta
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// before: the hunk lies wholly above line lo.
func before(hk hunk, lo int) bool {
	if hk.newCount == 0 {
		return hk.newStart < lo
	}
	return hk.newStart+hk.newCount-1 < lo
}

// touches: a hunk's new lines meet lo..hi, or its deletion (new count 0,
// after line newStart) falls strictly inside them.
func touches(hk hunk, lo, hi int) bool {
	if hk.newCount == 0 {
		return hk.newStart >= lo && hk.newStart < hi
	}
	return hk.newStart <= hi && hk.newStart+hk.newCount-1 >= lo
}

// Hashes lists the commits read, newest first.
func (h *LineHistory) Hashes() []string {
	out := make([]string, len(h.commits))
	for i, c := range h.commits {
		out[i] = c.hash
	}
	return out
}

// CommitWidths counts the files each of hashes changed (a merge against
// its first parent): a wide commit is a sweep (a reformat, a type-hint
// or Python-version upgrade) more often than a change of behaviour. Only
// the commits named are read.
func CommitWidths(ctx context.Context, dir string, hashes []string) (map[string]int, error) {
	if gitBinary == "" {
		return nil, errNoCLI
	}
	cmd := exec.CommandContext(ctx, gitBinary, "-C", dir, "-c", "core.quotepath=off", "log", "--no-walk=unsorted", "--stdin",
		"--diff-merges=first-parent", "--no-renames", "--no-color", "--name-only", "--format=%x01%H")
	cmd.Env = gitEnv()
	cmd.Stdin = strings.NewReader(strings.Join(hashes, "\n") + "\n")
	out, err := cmd.Output()
	if err != nil {
		return nil, err
	}
	widths := map[string]int{}
	var cur string
	for _, l := range strings.Split(string(out), "\n") {
		switch {
		case strings.HasPrefix(l, "\x01"):
			cur = l[1:]
			widths[cur] = 0
		case l != "" && cur != "":
			widths[cur]++
		}
	}
	return widths, nil
}
