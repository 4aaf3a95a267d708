package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/m1nd-go/m1nd/core/testcorpus"
	"github.com/m1nd-go/m1nd/mcpserver"
	"github.com/m1nd-go/m1nd/mcpserver/attach"
	"github.com/m1nd-go/m1nd/mcpserver/session"
)

// writeRepo writes a tiny repository: main.go calls pkg.ValidateUser.
func writeRepo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := testcorpus.Write(dir, testcorpus.Tiny); err != nil {
		t.Fatal(err)
	}
	return dir
}

// runIn runs the CLI in this process, in cwd, with no M1ND_* environment;
// stderrWidth > 0 pretends stderr is a terminal.
func runIn(t *testing.T, cwd string, stderrWidth int, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	e := &env{Stdout: &out, Stderr: &errb, Getenv: func(string) string { return "" }, Cwd: cwd, StderrWidth: stderrWidth}
	code = run(context.Background(), e, args)
	return code, out.String(), errb.String()
}

func TestRunLocal(t *testing.T) {
	repo, rt := writeRepo(t), t.TempDir()
	if code, _, stderr := runIn(t, repo, 0, "--runtime-dir", filepath.Join(rt, "none"), "seek", "x"); code != ExitError || !strings.Contains(stderr, "next: m1nd ingest") {
		t.Errorf("seek without a graph: exit %d: %s", code, stderr)
	}
	code, stdout, stderr := runIn(t, repo, 80, "--runtime-dir", rt, "ingest", repo)
	if code != ExitOK {
		t.Fatalf("ingest: exit %d: %s", code, stderr)
	}
	if !strings.Contains(stderr, "\r[") || !strings.Contains(stderr, "100% done") || !strings.HasSuffix(stderr, "\n") {
		t.Errorf("ingest on a terminal drew no finished bar: %q", stderr)
	}
	if !strings.Contains(stdout, "ingested "+repo) || !strings.Contains(stdout, "languages: go 2") {
		t.Errorf("ingest summary: %q", stdout)
	}
	code, stdout, _ = runIn(t, filepath.Join(repo, "pkg"), 0, "--runtime-dir", rt, "impact", "auth.go", "--json")
	var imp struct {
		Source string `json:"source"`
	}
	if code != ExitOK || json.Unmarshal([]byte(stdout), &imp) != nil || imp.Source != "file::pkg/auth.go" {
		t.Errorf("impact auth.go from pkg/ (exit %d): %s", code, stdout)
	}
	code, _, stderr = runIn(t, repo, 0, "--runtime-dir", rt, "why", "main.go", "nope.go")
	if code != ExitError || !strings.Contains(stderr, "hint:") {
		t.Errorf("why to an unknown node: exit %d, stderr %q; want 1 and a hint", code, stderr)
	}
}

// TestRunAttached runs the CLI against a server that holds the runtime
// directory in this process, so the MCP client path runs under -race.
func TestRunAttached(t *testing.T) {
	repo, rt := writeRepo(t), t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	session.AttachSocket = attach.SocketPath
	d, err := mcpserver.Open(ctx, mcpserver.Options{RuntimeDir: rt, IngestOnStart: repo}, func(string) string { return "" }, t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := attach.Listen(rt)
	if err != nil {
		t.Fatal(err)
	}
	stdinR, stdinW := io.Pipe()
	served := make(chan error, 1)
	go func() { served <- mcpserver.Serve(ctx, d, stdinR, io.Discard, ln, nil) }()

	code, stdout, stderr := runIn(t, repo, 0, "--runtime-dir", rt, "seek", "validate user credentials")
	if code != ExitOK || !strings.Contains(stdout, "ValidateUser") {
		t.Errorf("seek through the server: exit %d\n%s\n%s", code, stdout, stderr)
	}
	if want := "holds " + rt + "; talking to it"; !strings.Contains(stderr, want) {
		t.Errorf("stderr %q does not say %q", stderr, want)
	}
	code, _, stderr = runIn(t, repo, 80, "--runtime-dir", rt, "ingest", repo, "--incremental")
	if code != ExitOK || !strings.Contains(stderr, "100% done") {
		t.Errorf("ingest through the server: exit %d, stderr %q", code, stderr)
	}
	code, stdout, _ = runIn(t, repo, 0, "--runtime-dir", rt, "--json", "call", "health")
	if code != ExitOK || !strings.Contains(stdout, `"m1nd-startup"`) {
		t.Errorf("health through the server lacks the server's own startup agent (answered elsewhere?): exit %d %s", code, stdout)
	}
	if code, _, _ = runIn(t, repo, 0, "--runtime-dir", rt, "--no-attach", "seek", "user"); code != ExitBusy {
		t.Errorf("--no-attach on a held directory: exit %d, want %d", code, ExitBusy)
	}

	stdinW.Close() // the owner's own client leaves; no attached one is left
	if err := <-served; err != nil && err != io.EOF {
		t.Errorf("serve: %v", err)
	}
	if err := d.Session.Close(); err != nil {
		t.Error(err)
	}
}
