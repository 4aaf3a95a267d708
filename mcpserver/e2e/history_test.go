package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/m1nd-go/m1nd/mcpserver/transport"
)

// TestHistorySurvivesRestart: the git history an ingest read is served by
// the next process too (each agent session starts the server again; the
// history was lost there, and timeline and predict answered "no git
// history").
func TestHistorySurvivesRestart(t *testing.T) {
	repo := t.TempDir()
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@x", "-c", "commit.gpgsign=false"}, args...)...)
		cmd.Dir = repo
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	write := func(name, body string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(repo, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git("init", "-q")
	for i, body := range []string{"def a():\n    return 1\n", "def a():\n    return 2\n", "def a():\n    return 3\n"} {
		write("a.py", body)
		write("b.py", "from a import a\n\ndef b():\n    return a() + "+string(rune('1'+i))+"\n")
		git("add", ".")
		git("commit", "-q", "-m", "change "+string(rune('1'+i)))
	}

	rt := t.TempDir()
	p := start(t, nil, "--runtime-dir", rt, "--allow-root", repo)
	p.initialize(transport.Line)
	if out, isErr := p.tool(transport.Line, "ingest", map[string]any{"agent_id": "h", "path": repo}); isErr {
		t.Fatal(out)
	}
	before, _ := p.tool(transport.Line, "timeline", map[string]any{"agent_id": "h", "node": "a.py", "depth": "all"})
	p.cmd.Process.Signal(syscall.SIGTERM)
	if err := p.cmd.Wait(); err != nil {
		t.Fatalf("exit after SIGTERM: %v (%s)", err, p.stderr.String())
	}

	r := start(t, nil, "--runtime-dir", rt)
	r.initialize(transport.Line)
	after, _ := r.tool(transport.Line, "timeline", map[string]any{"agent_id": "h", "node": "a.py", "depth": "all"})
	if before["commit_count_all"] != 3.0 || after["commit_count_all"] != 3.0 {
		t.Errorf("commits of a.py: %v in the ingesting process, %v after a restart; want 3 and 3 (note: %v)", before["commit_count_all"], after["commit_count_all"], after["note"])
	}
	pr, _ := r.tool(transport.Line, "predict", map[string]any{"agent_id": "h", "changed_node": "a.py"})
	preds, _ := pr["predictions"].([]any)
	if len(preds) == 0 || preds[0].(map[string]any)["co_changes"] != 3.0 {
		t.Errorf("predict after a restart does not see the 3 commits a.py and b.py share: %v", pr)
	}
	r.closeAndWait()
}
