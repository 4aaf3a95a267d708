package e2e

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/m1nd-go/m1nd/mcpserver/internal/fixture"
	"github.com/m1nd-go/m1nd/mcpserver/transport"
)

// slowHistoryRepo is a checkout whose objects live in another repository
// (git clone --shared: the case), of a history written by git
// fast-import — 3,000 commits changing 3 of 2,000 files each — and the
// environment of a server without git: reading that history with go-git
// (objects through alternates) takes minutes, and the files take seconds
// to extract: an ingest long enough to stop in the middle.
func slowHistoryRepo(t *testing.T) (repo string, env []string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("CI must have git")
		}
		t.Skip("git missing")
	}
	var stream bytes.Buffer
	const commits, files = 3000, 2000
	for i := range commits {
		fmt.Fprintf(&stream, "commit refs/heads/master\ncommitter T <t@example.com> %d +0000\ndata <<EOM\nchange %d\nEOM\n", 1_600_000_000+i*60, i)
		for j := range 3 {
			f := (i*7 + j*677) % files
			body := fmt.Sprintf("package p%d\n\n// F%d is changed by commit %d.\nfunc F%d() int { return %d }\n", f%40, f, i, f, i)
			fmt.Fprintf(&stream, "M 644 inline pkg%d/f%d.go\ndata %d\n%s\n", f%40, f, len(body), body)
		}
	}
	origin, clone := t.TempDir(), t.TempDir()
	git := func(dir string, stdin *bytes.Buffer, args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		// glibc's malloc trims the heap after each of fast-import's many
		// frees: on some VMs every brk costs 100 µs and the import 40 s.
		cmd.Env = append(os.Environ(), "GLIBC_TUNABLES=glibc.malloc.top_pad=67108864:glibc.malloc.trim_threshold=134217728")
		if stdin != nil {
			cmd.Stdin = stdin
		}
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git(origin, nil, "init", "-q", ".")
	git(origin, &stream, "fast-import", "--quiet")
	git(clone, nil, "clone", "-q", "--shared", origin, ".")
	// No git binary on the server's PATH: it reads the history with
	// go-git, which a --shared clone makes slow (minutes; the git command
	// reads it in a second).
	return clone, []string{"PATH=" + t.TempDir()}
}

// seeded is a runtime directory holding the saved graph of a small
// repository, and that graph's node count.
func seeded(t *testing.T) (rt, repo string, nodes float64) {
	repo, rt = fixture.Write(t), t.TempDir()
	p := start(t, nil, "--runtime-dir", rt, "--ingest", repo)
	p.initialize(transport.Line)
	h, _ := p.tool(transport.Line, "health", map[string]any{"agent_id": "seed"})
	if err := p.closeAndWait(); err != nil {
		t.Fatal(err)
	}
	return rt, repo, num(h, "node_count")
}

// exitWithin waits for p to exit and returns how long it took; limit is a
// hang guard, not a performance assertion.
func exitWithin(t *testing.T, p *proc, limit time.Duration) (time.Duration, error) {
	t.Helper()
	began := time.Now()
	done := make(chan error, 1)
	go func() { done <- p.cmd.Wait() }()
	select {
	case err := <-done:
		return time.Since(began), err
	case <-time.After(limit):
		p.cmd.Process.Kill()
		<-done
		t.Fatalf("still running %v after being asked to stop (stderr: %s)", limit, p.stderr.String())
		return 0, nil
	}
}

// stillServes checks that the runtime directory holds the small
// repository's graph: a called-off ingest saved nothing of its own.
func stillServes(t *testing.T, rt, repo string, nodes float64) {
	t.Helper()
	r := start(t, nil, "--runtime-dir", rt)
	r.initialize(transport.Line)
	h, _ := r.tool(transport.Line, "health", map[string]any{"agent_id": "check"})
	roots, _ := h["ingest_roots"].([]any)
	if len(roots) != 1 || roots[0].(map[string]any)["path"] != repo || num(h, "node_count") != nodes {
		t.Errorf("after the called-off ingest the runtime directory serves %v nodes of %v; want %v nodes of %s", h["node_count"], roots, nodes, repo)
	}
	if strings.Contains(r.stderr.String(), "could not be loaded") {
		t.Errorf("restart: %s", r.stderr.String())
	}
	r.closeAndWait()
}

// awaitProgress reads until a progress notification arrives (nil) or the
// answer to request id does (returned: the call finished first).
func (p *proc) awaitProgress(id float64) map[string]any {
	p.t.Helper()
	for {
		m, _ := p.recv()
		if m["method"] == "notifications/progress" {
			return nil
		}
		if m["id"] == id {
			return m
		}
	}
}

// TestSIGTERMCallsOffStartupIngest: SIGTERM while --ingest reads a long
// history at start; the process exits promptly and cleanly and the graph
// saved before is what the directory holds.
func TestSIGTERMCallsOffStartupIngest(t *testing.T) {
	rt, repo, nodes := seeded(t)
	big, slow := slowHistoryRepo(t)
	p := start(t, slow, "--runtime-dir", rt, "--ingest", big)
	waitStderr(t, p, "loaded graph")
	time.Sleep(time.Second) // into the ingest (it takes minutes)
	p.cmd.Process.Signal(syscall.SIGTERM)
	took, err := exitWithin(t, p, 10*time.Second)
	t.Logf("exited %v after SIGTERM", took.Round(time.Millisecond))
	logs := p.stderr.String()
	if err != nil || !strings.Contains(logs, "startup ingest of "+big+" failed") || strings.Contains(logs, "ingested "+big) {
		t.Errorf("exit %v; stderr:\n%s", err, logs)
	}
	stillServes(t, rt, repo, nodes)
}

// TestSIGTERMCallsOffIngestTool: the same for an ingest a client asked for.
func TestSIGTERMCallsOffIngestTool(t *testing.T) {
	rt, repo, nodes := seeded(t)
	big, slow := slowHistoryRepo(t)
	p := start(t, slow, "--runtime-dir", rt)
	p.initialize(transport.Line)
	p.send(transport.Line, map[string]any{"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": map[string]any{
		"name": "ingest", "arguments": map[string]any{"agent_id": "c", "path": big}, "_meta": map[string]any{"progressToken": "p"}}})
	if m := p.awaitProgress(7); m != nil {
		t.Fatalf("the ingest finished before it could be stopped (the input is too small for this machine): %v", m)
	}
	time.Sleep(500 * time.Millisecond)
	p.cmd.Process.Signal(syscall.SIGTERM)
	took, err := exitWithin(t, p, 10*time.Second)
	t.Logf("exited %v after SIGTERM", took.Round(time.Millisecond))
	if err != nil {
		t.Errorf("exit %v; stderr:\n%s", err, p.stderr.String())
	}
	stillServes(t, rt, repo, nodes)
}

// TestEOFCallsOffStartupIngest: a client that closes stdin before the
// server is ready, having sent nothing but the handshake, has left: the
// start-up ingest is called off.
func TestEOFCallsOffStartupIngest(t *testing.T) {
	rt, repo, nodes := seeded(t)
	big, slow := slowHistoryRepo(t)
	p := start(t, slow, "--runtime-dir", rt, "--ingest", big)
	p.send(transport.Line, map[string]any{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": map[string]any{
		"protocolVersion": "2025-06-18", "capabilities": map[string]any{}, "clientInfo": map[string]any{"name": "e2e", "version": "1"}}})
	waitStderr(t, p, "loaded graph")
	time.Sleep(time.Second)
	p.in.Close()
	took, err := exitWithin(t, p, 10*time.Second)
	t.Logf("exited %v after the end of stdin", took.Round(time.Millisecond))
	if logs := p.stderr.String(); err != nil || !strings.Contains(logs, "calling off the start-up work") {
		t.Errorf("exit %v; stderr:\n%s", err, logs)
	}
	stillServes(t, rt, repo, nodes)
}
