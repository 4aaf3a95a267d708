package tooltest

import (
	"os"
	"os/exec"
	"testing"
)

// Git runs the git binary in dir as author and committer t at date (RFC
// 3339), failing t on an error: fixture histories dated so that answers
// do not move with the clock.
func Git(t testing.TB, dir, date string, args ...string) {
	t.Helper()
	GitDates(t, dir, date, date, args...)
}

// GitDates is Git with the author and committer dates apart, as a change
// authored on a branch and landed later has them.
func GitDates(t testing.TB, dir, authored, committed string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_DATE="+authored, "GIT_COMMITTER_DATE="+committed,
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}
