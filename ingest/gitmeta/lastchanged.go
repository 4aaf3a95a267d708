package gitmeta

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"
)

// LastChanged maps each path that HEAD's first-parent chain ever changed
// to the committer time (Unix seconds) of the newest commit of that chain
// changing it: what `git log -1 --first-parent --format=%ct -- path`
// says. A merge counts for what it brought in against its first parent,
// so a change made on a branch is dated when it landed, not when it was
// written. Renames are not followed (the new path is dated by the
// rename). It needs the git command.
func LastChanged(ctx context.Context, dir string) (map[string]int64, error) {
	if gitBinary == "" {
		return nil, errNoCLI
	}
	cmd := exec.CommandContext(ctx, gitBinary, "-C", dir, "-c", "core.quotepath=off", "log", "--first-parent",
		"--diff-merges=first-parent", "--no-renames", "--no-color", "--ignore-submodules", "--name-only", "-z",
		"--format=%x01%ct", "HEAD", "--")
	cmd.Env = gitEnv()
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	times := parseLastChanged(out)
	if err := cmd.Wait(); err != nil {
		return nil, fmt.Errorf("git log: %w: %s", err, strings.TrimSpace(stderr.String()))
	}
	return times, nil
}

// parseLastChanged reads the -z log: "\x01<time>\n" heads each commit,
// then its paths, each ended by NUL. The log is newest first along the
// chain, so a path's first sighting is its last change.
func parseLastChanged(r io.Reader) map[string]int64 {
	times := map[string]int64{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	sc.Split(splitNUL)
	var t int64
	for sc.Scan() {
		tok := bytes.TrimLeft(sc.Bytes(), "\n")
		if i := bytes.LastIndexByte(tok, 1); i >= 0 {
			// A commit header: "\x01<time>" (tolerating a path glued to it
			// by a newline).
			head, path, _ := bytes.Cut(tok[i+1:], []byte("\n"))
			t, _ = strconv.ParseInt(string(head), 10, 64)
			tok = path
		}
		if len(tok) > 0 {
			if _, seen := times[string(tok)]; !seen {
				times[string(tok)] = t
			}
		}
	}
	return times
}

func splitNUL(data []byte, atEOF bool) (int, []byte, error) {
	if i := bytes.IndexByte(data, 0); i >= 0 {
		return i + 1, data[:i], nil
	}
	if atEOF && len(data) > 0 {
		return len(data), data, nil
	}
	return 0, nil, nil
}
