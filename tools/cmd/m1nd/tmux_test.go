package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestProgressBarInTmux runs `m1nd ingest` on a real pty (a detached tmux
// session) and checks that the bar was drawn in place, reached 100%, and
// that the summary followed it. CI installs tmux (apt-get install tmux).
func TestProgressBarInTmux(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed")
	}
	repo := writeRepo(t)
	dir, err := os.MkdirTemp("", "m1nd-tmux-") // short: the socket path must fit sun_path
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	sock, raw := filepath.Join(dir, "sock"), filepath.Join(dir, "pane.raw")
	tmux := func(ctx context.Context, args ...string) string {
		t.Helper()
		cmd := exec.CommandContext(ctx, "tmux", append([]string{"-S", sock}, args...)...)
		cmd.Env = testEnv("TERM=xterm-256color")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("tmux %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute) // hang guard
	defer cancel()

	// The pane waits for "go" so that pipe-pane records from the first
	// byte, signals "done" after m1nd exits, then stays for capture-pane.
	script := fmt.Sprintf("cd %s && tmux -S %s wait-for go && %s ingest; echo EXIT=$?; tmux -S %s wait-for -S done; sleep 600",
		repo, sock, filepath.Join(bin, "m1nd"), sock)
	tmux(ctx, "new-session", "-d", "-s", "m1nd", "-x", "100", "-y", "20", script)
	defer exec.Command("tmux", "-S", sock, "kill-server").Run()
	tmux(ctx, "pipe-pane", "-t", "m1nd", "-o", "cat >> "+raw)
	tmux(ctx, "wait-for", "-S", "go")
	tmux(ctx, "wait-for", "done")

	pane := tmux(ctx, "capture-pane", "-p", "-t", "m1nd")
	lines := strings.Split(pane, "\n")
	bar := -1
	for i, l := range lines {
		if strings.Contains(l, "[########################] 100% done") {
			bar = i
		}
	}
	if bar < 0 || bar+1 >= len(lines) || !strings.HasPrefix(lines[bar+1], "ingested "+repo) {
		t.Fatalf("no finished bar followed by the summary on the terminal:\n%s", pane)
	}
	for _, want := range []string{"4 files →", "languages: go 2", "EXIT=0"} {
		if !strings.Contains(pane, want) {
			t.Errorf("pane lacks %q:\n%s", want, pane)
		}
	}
	out, err := os.ReadFile(raw)
	if err != nil {
		t.Fatal(err)
	}
	// Drawn in place: several carriage-return redraws, coloured summary.
	if n := strings.Count(string(out), "\r["); n < 2 {
		t.Errorf("the bar was drawn %d times in place, want one per phase: %q", n, out)
	}
	if !strings.Contains(string(out), "\x1b[32mingested") {
		t.Errorf("no colour on a terminal: %q", out)
	}
}
