package change_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// longHistory scripts, with git fast-import, a history longer than the
// 2,000 commits history was once cut at: lib/app.py changes in every
// second commit, moves to src/app.py (same content) at commit 1,000, and a
// side branch that edits it is merged at the end. It returns the work
// tree.
func longHistory(t *testing.T, commits int) string {
	t.Helper()
	git, err := exec.LookPath("git")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("git is not installed")
		}
		t.Skip("git is not installed")
	}
	dir := t.TempDir()
	run := func(stdin []byte, args ...string) {
		t.Helper()
		cmd := exec.Command(git, args...)
		cmd.Dir, cmd.Stdin = dir, bytes.NewReader(stdin)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	run(nil, "init", "-q", "-b", "main")
	var s strings.Builder
	blob := func(path, content string) {
		fmt.Fprintf(&s, "M 100644 inline %s\ndata %d\n%s\n", path, len(content), content)
	}
	header := func(ref string, mark, ts int) {
		msg := fmt.Sprintf("commit %d", mark)
		fmt.Fprintf(&s, "commit %s\nmark :%d\nauthor a <a@x> %d +0000\ncommitter a <a@x> %d +0000\ndata %d\n%s\n", ref, mark, ts, ts, len(msg), msg)
	}
	app := "lib/app.py"
	body := strings.Repeat("def f():\n    return 1\n", 20)
	for i := 1; i <= commits; i++ {
		header("refs/heads/main", i, 1_700_000_000+i*3600)
		switch {
		case i == 1000:
			fmt.Fprintf(&s, "R %s src/app.py\n", app)
			app = "src/app.py"
		case i%2 == 0:
			blob(app, fmt.Sprintf("%s# %d\n", body, i))
		default:
			blob(fmt.Sprintf("other%d.py", i%7), fmt.Sprint(i))
		}
	}
	header("refs/heads/side", commits+1, 1_700_000_000+(commits+1)*3600)
	fmt.Fprintf(&s, "from :%d\n", commits-1)
	blob(app, body+"# side\n")
	header("refs/heads/main", commits+2, 1_700_000_000+(commits+2)*3600)
	fmt.Fprintf(&s, "from :%d\nmerge :%d\n", commits, commits+1)
	blob(app, body+"# side\n")
	run([]byte(s.String()), "fast-import", "--quiet")
	run(nil, "checkout", "-q", "main")
	return dir
}

// timeline "all" counts what `git log --follow --first-parent` lists for
// the file: every commit of a history longer than any former cap, the
// commits before its rename, and the merge that brought a side branch's
// edit (not the side commit itself).
func TestTimelineWholeHistory(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("writes a history of 2,100 commits")
	}
	dir := longHistory(t, 2100)
	cmd := exec.Command("git", "log", "--follow", "--first-parent", "--format=%h", "--", "src/app.py")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	want := len(strings.Fields(string(out)))
	if want < 800 {
		t.Fatalf("the scripted history lists %d commits of src/app.py; the test needs more than the old cap's share", want)
	}
	d := tooltest.NewDispatcher(t, session.Config{})
	ing := tooltest.MustCall(t, d, "ingest", map[string]any{"agent_id": "t", "path": dir})
	tl := tooltest.MustCall(t, d, "timeline", map[string]any{"agent_id": "t", "node": "src/app.py", "depth": "all", "include_churn": false})
	if got := tl["commit_count_in_window"]; got != float64(want) || tl["commit_count_all"] != float64(want) {
		t.Errorf("timeline all: %v in window, %v in all; git log --follow --first-parent lists %d (ingest %v)", got, tl["commit_count_all"], want, ing["commits_read"])
	}
	if n := len(tl["changes"].([]any)); n != 100 {
		t.Errorf("changes listed: %d, want the 100 newest", n)
	}
	if note, _ := tl["note"].(string); !strings.Contains(note, fmt.Sprintf("newest 100 of the window's %d commits", want)) {
		t.Errorf("note = %q: the answer must say it lists 100 of %d", note, want)
	}
}
