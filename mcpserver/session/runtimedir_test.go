package session

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestRuntimeDirStaysOutOfGit: a runtime directory made inside a
// repository (m1nd ingest's .m1nd) is invisible to git status and git
// add -A, and a .gitignore the user edited is left alone.
func TestRuntimeDirStaysOutOfGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	repo := t.TempDir()
	run := func(args ...string) string {
		cmd := exec.Command("git", args...)
		cmd.Dir = repo
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	run("init", "-q")
	os.WriteFile(filepath.Join(repo, "a.py"), []byte("x = 1\n"), 0o644)
	run("add", "a.py")
	run("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "a")

	rt := filepath.Join(repo, ".m1nd")
	l, err := acquireRuntimeLock(rt)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(rt, "graph.bin"), []byte("binary"), 0o644)
	if st := run("status", "--porcelain", "--untracked-files=all"); st != "" {
		t.Fatalf("git status shows the runtime directory:\n%s", st)
	}
	run("add", "-A")
	if st := run("status", "--porcelain"); st != "" {
		t.Fatalf("git add -A staged the runtime directory:\n%s", st)
	}
	tag, _ := os.ReadFile(filepath.Join(rt, "CACHEDIR.TAG"))
	if !strings.HasPrefix(string(tag), "Signature: 8a477f597d28d172789f06886806bc55") {
		t.Fatalf("CACHEDIR.TAG = %q", tag)
	}
	l.release()

	os.WriteFile(filepath.Join(rt, ".gitignore"), []byte("graph.bin\n"), 0o644)
	l, err = acquireRuntimeLock(rt)
	if err != nil {
		t.Fatal(err)
	}
	defer l.release()
	if b, _ := os.ReadFile(filepath.Join(rt, ".gitignore")); string(b) != "graph.bin\n" {
		t.Fatalf("the user's .gitignore was rewritten: %q", b)
	}
}
