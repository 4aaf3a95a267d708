package gitmeta

import (
	"context"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// A change made on a side branch is dated by the merge that brought it
// onto the first-parent chain, as `git log -1 --first-parent -- path`
// dates it; a file changed by the chain itself by its own commit.
func TestLastChangedDatesMergesByTheChain(t *testing.T) {
	if gitBinary == "" {
		t.Skip("no git command")
	}
	r, _, _, _, _ := landedLate(t)
	got, err := LastChanged(context.Background(), r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int64{
		"a.py": day(11).Unix(), // c3, committed on day 11
		"b.py": day(12).Unix(), // written on the side branch on day 3, merged on day 12
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("LastChanged (-want +got):\n%s", diff)
	}
	if got := gitLogLast(t, r.Dir, "b.py"); got != day(12).Unix() {
		t.Errorf("git log -1 --first-parent -- b.py = %d, want the merge's %d", got, day(12).Unix())
	}
}

// gitLogLast is git's own answer: the first-parent date of path's last
// change.
func gitLogLast(t *testing.T, dir, path string) int64 {
	t.Helper()
	out, err := exec.Command(gitBinary, "-C", dir, "log", "-1", "--first-parent", "--format=%ct", "--", path).Output()
	if err != nil {
		t.Fatal(err)
	}
	n, err := strconv.ParseInt(strings.TrimSpace(string(out)), 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return n
}
