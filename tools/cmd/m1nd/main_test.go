package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/m1nd-go/m1nd/mcpserver/tools/toolset"

	"github.com/m1nd-go/m1nd/core/testcorpus"
	"github.com/m1nd-go/m1nd/mcpserver/attach"
	"github.com/m1nd-go/m1nd/mcpserver/session"
)

// bin holds the m1nd and m1nd-mcp binaries built for these tests.
var bin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "m1nd-cli-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	bin = dir
	code := 1
	if err := build(dir); err != nil {
		fmt.Fprintln(os.Stderr, err)
	} else {
		code = m.Run()
	}
	os.RemoveAll(dir)
	os.Exit(code)
}

func build(dir string) error {
	for _, pkg := range []string{".", "github.com/m1nd-go/m1nd/mcpserver/cmd/m1nd-mcp"} {
		cmd := exec.Command("go", "build", "-o", dir+"/", pkg)
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("go build %s: %v\n%s", pkg, err, out)
		}
	}
	return nil
}

// writeRepo writes a small git repository: main.go calls
// pkg.ValidateUser. Without git it is a plain directory.
func writeRepo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := testcorpus.Write(dir, testcorpus.Tiny); err != nil {
		t.Fatal(err)
	}
	if _, err := exec.LookPath("git"); err == nil {
		for _, args := range [][]string{{"init", "-q"}, {"add", "."}, {"-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "init"}} {
			if out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput(); err != nil {
				t.Fatalf("git %v: %v\n%s", args, err, out)
			}
		}
	} else if err := os.Mkdir(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// testEnv is the environment without the developer's M1ND_* settings.
func testEnv(extra ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "M1ND_") && !strings.HasPrefix(kv, "NO_COLOR=") {
			env = append(env, kv)
		}
	}
	return append(env, extra...)
}

type result struct {
	code           int
	stdout, stderr string
}

// m1nd runs the binary in dir and waits for it (a hang guard kills it).
func m1nd(t *testing.T, dir string, args ...string) result {
	t.Helper()
	cmd := exec.Command(filepath.Join(bin, "m1nd"), args...)
	cmd.Dir, cmd.Env = dir, testEnv()
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	timer := time.AfterFunc(2*time.Minute, func() { cmd.Process.Kill() })
	err := cmd.Wait()
	timer.Stop()
	r := result{stdout: out.String(), stderr: errb.String()}
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		r.code = ee.ExitCode()
	case err != nil:
		t.Fatalf("m1nd %v: %v", args, err)
	}
	return r
}

func (r result) must(t *testing.T, code int, what string) result {
	t.Helper()
	if r.code != code {
		t.Fatalf("%s: exit %d, want %d\nstdout: %s\nstderr: %s", what, r.code, code, r.stdout, r.stderr)
	}
	return r
}

func decode(t *testing.T, r result) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &m); err != nil {
		t.Fatalf("--json output is not one JSON object (%v): %q", err, r.stdout)
	}
	return m
}

func TestCommands(t *testing.T) {
	t.Parallel()
	repo := writeRepo(t)
	r := m1nd(t, repo, "ingest").must(t, 0, "ingest")
	if !strings.Contains(r.stdout, "ingested "+repo) || !strings.Contains(r.stdout, "4 files →") {
		t.Errorf("ingest summary: %q", r.stdout)
	}
	// Not a terminal: one plain line per phase, no bar.
	if !strings.Contains(r.stderr, "m1nd: extract 4/4\n") || strings.Contains(r.stderr, "\r") {
		t.Errorf("ingest progress without a terminal: %q", r.stderr)
	}
	if _, err := os.Stat(filepath.Join(repo, ".m1nd", "graph.bin")); err != nil {
		t.Errorf("the default runtime dir is <repo>/.m1nd: %v", err)
	}

	tests := []struct {
		dir  string
		args []string
		want string // in the table
		key  string // in the --json answer
	}{
		{repo, []string{"seek", "validate user credentials"}, "ValidateUser", "results"},
		{repo, []string{"impact", "pkg/auth.go"}, "main.go", "blast_radius"},
		{filepath.Join(repo, "pkg"), []string{"impact", "auth.go"}, "main.go", "blast_radius"},
		{repo, []string{"why", "main.go", "pkg/auth.go"}, "-calls->", "paths"},
		{repo, []string{"search", "lookup"}, "pkg/auth.go:8", "results"},
		{repo, []string{"call", "health"}, `"node_count"`, "ingest_roots"},
	}
	for _, tc := range tests {
		r := m1nd(t, tc.dir, tc.args...).must(t, 0, strings.Join(tc.args, " "))
		if !strings.Contains(r.stdout, tc.want) {
			t.Errorf("m1nd %v: no %q in\n%s", tc.args, tc.want, r.stdout)
		}
		j := decode(t, m1nd(t, tc.dir, append(tc.args, "--json")...).must(t, 0, strings.Join(tc.args, " ")+" --json"))
		if _, ok := j[tc.key]; !ok {
			t.Errorf("m1nd %v --json: no %q in %v", tc.args, tc.key, j)
		}
	}
}

func TestExitCodes(t *testing.T) {
	t.Parallel()
	repo := writeRepo(t)
	m1nd(t, repo, "seek", "x").must(t, 1, "seek before any ingest")
	m1nd(t, repo, "ingest").must(t, 0, "ingest")

	r := m1nd(t, repo, "impact", "nope.go").must(t, 1, "impact of an unknown node")
	if !strings.Contains(r.stderr, "not a node of the graph") || !strings.Contains(r.stderr, "hint:") || !strings.Contains(r.stderr, "next:") {
		t.Errorf("a tool error teaches (error, hint, next): %q", r.stderr)
	}
	if j := decode(t, m1nd(t, repo, "--json", "why", "nope.go", "main.go").must(t, 1, "why --json")); j["error"] == nil || j["hint"] == nil {
		t.Errorf("--json error answer: %v", j)
	}
	for _, args := range [][]string{{"seek"}, {"bogus"}, {"why", "a"}, {"seek", "q", "--top_k", "x"}, {"call", "nosuchtool"}, {"doctor", "x"}} {
		if r := m1nd(t, repo, args...); r.code != 2 || !strings.HasPrefix(r.stderr, "m1nd: ") {
			t.Errorf("m1nd %v: exit %d (want 2), stderr %q", args, r.code, r.stderr)
		}
	}
}

// help lists every tool of the registry: the CLI cannot lag behind it.
func TestHelpListsTheRegistry(t *testing.T) {
	t.Parallel()
	r := m1nd(t, t.TempDir(), "help").must(t, 0, "help")
	for _, want := range []string{"Exit codes:", "ingest [PATH]", "doctor", "serve"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("help lacks %q", want)
		}
	}
	for _, tl := range toolset.Builtin().All() {
		if !strings.Contains(r.stdout, "\n  "+tl.Name+" ") {
			t.Errorf("help does not list tool %s", tl.Name)
		}
		t.Run(tl.Name, func(t *testing.T) {
			t.Parallel()
			h := m1nd(t, t.TempDir(), "call", tl.Name, "--help").must(t, 0, "call "+tl.Name+" --help")
			for _, p := range tl.Params {
				if !strings.Contains(h.stdout, "--"+p.Name+" ") {
					t.Errorf("help %s lacks --%s", tl.Name, p.Name)
				}
			}
		})
	}
}

func TestDoctor(t *testing.T) {
	t.Parallel()
	repo := writeRepo(t)
	r := m1nd(t, repo, "doctor").must(t, 1, "doctor before ingest")
	if !strings.Contains(r.stdout, "does not exist yet") || !strings.Contains(r.stdout, "→ m1nd ingest "+repo) {
		t.Errorf("doctor without a runtime dir: %s", r.stdout)
	}
	m1nd(t, repo, "ingest").must(t, 0, "ingest")
	r = m1nd(t, repo, "doctor").must(t, 0, "doctor after ingest")
	for _, want := range []string{"toolchain: built with go", "cgo on", "languages parse:", "lock: free", "graph: ", "files on disk: unchanged", "all good"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("doctor lacks %q:\n%s", want, r.stdout)
		}
	}
	if err := os.WriteFile(filepath.Join(repo, "pkg", "auth.go"), []byte("package pkg\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r = m1nd(t, repo, "doctor", "--json").must(t, 1, "doctor after an edit")
	j := decode(t, r)
	if j["ok"] != false || !strings.Contains(r.stdout, "pkg/auth.go") {
		t.Errorf("doctor --json after an edit: %s", r.stdout)
	}
}

// server is a running m1nd-mcp whose stdin the test holds open.
type server struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout *bufio.Reader
	stderr *syncBuffer
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func startServer(t *testing.T, dir, name string, args ...string) *server {
	t.Helper()
	cmd := exec.Command(filepath.Join(bin, name), args...)
	cmd.Dir, cmd.Env = dir, testEnv("M1ND_ALLOW_ROOTS="+dir)
	s := &server{cmd: cmd, stderr: &syncBuffer{}}
	cmd.Stderr = s.stderr
	var err error
	if s.stdin, err = cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	s.stdout = bufio.NewReader(out)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		s.stdin.Close()
		timer := time.AfterFunc(time.Minute, func() { cmd.Process.Kill() })
		cmd.Wait()
		timer.Stop()
	})
	return s
}

// waitLog waits until the server logged want (a hang guard, not a timing
// assertion).
func (s *server) waitLog(t *testing.T, want string) {
	t.Helper()
	for deadline := time.Now().Add(2 * time.Minute); !strings.Contains(s.stderr.String(), want); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("server never logged %q: %s", want, s.stderr.String())
		}
	}
}

// TestBusyLockTalksToTheServer: with m1nd-mcp holding the runtime dir,
// commands say so and are answered by that server.
func TestBusyLockTalksToTheServer(t *testing.T) {
	t.Parallel()
	repo := writeRepo(t)
	rt := filepath.Join(repo, ".m1nd")
	s := startServer(t, repo, "m1nd-mcp", "--runtime-dir", rt, "--ingest", repo)
	s.waitLog(t, "attach through")

	r := m1nd(t, repo, "seek", "validate user credentials").must(t, 0, "seek while a server holds the dir")
	want := fmt.Sprintf("m1nd: a server (pid %d) holds %s; talking to it", s.cmd.Process.Pid, rt)
	if !strings.Contains(r.stderr, want) || !strings.Contains(r.stdout, "ValidateUser") {
		t.Errorf("seek: stderr %q (want %q), stdout %s", r.stderr, want, r.stdout)
	}
	// Only the server's own session knows its startup ingest's agent.
	h := m1nd(t, repo, "call", "health", "--json").must(t, 0, "health through the server")
	if !strings.Contains(h.stdout, `"m1nd-startup"`) || !strings.Contains(h.stdout, `"cli"`) {
		t.Errorf("health was not answered by the running server: %s", h.stdout)
	}
	m1nd(t, repo, "impact", "nope.go").must(t, 1, "a tool error through the server")
	m1nd(t, repo, "ingest", "--incremental").must(t, 0, "ingest through the server")
	if r := m1nd(t, repo, "doctor").must(t, 0, "doctor"); !strings.Contains(r.stdout, fmt.Sprintf("held by a server (pid %d)", s.cmd.Process.Pid)) {
		t.Errorf("doctor does not name the lock holder: %s", r.stdout)
	}
	r = m1nd(t, repo, "--no-attach", "seek", "user").must(t, 3, "--no-attach")
	if !strings.Contains(r.stderr, fmt.Sprintf("held by pid %d", s.cmd.Process.Pid)) {
		t.Errorf("--no-attach: %q", r.stderr)
	}
}

// TestBusyLockWithoutSocket: a holder that accepts no connections (an
// m1nd-mcp --no-attach) ends the command with exit 3 and says why.
func TestBusyLockWithoutSocket(t *testing.T) {
	t.Parallel()
	repo := writeRepo(t)
	rt := filepath.Join(repo, ".m1nd")
	s := startServer(t, repo, "m1nd-mcp", "--runtime-dir", rt, "--ingest", repo, "--no-attach")
	s.waitLog(t, "server ready")
	r := m1nd(t, repo, "seek", "user").must(t, 3, "seek on a dir held without a socket")
	if !strings.Contains(r.stderr, "accepts no connections") {
		t.Errorf("stderr: %q", r.stderr)
	}
}

// TestServe: m1nd serve is m1nd-mcp on this repository's runtime dir.
func TestServe(t *testing.T) {
	t.Parallel()
	repo := writeRepo(t)
	s := startServer(t, repo, "m1nd", "serve")
	for _, line := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"health","arguments":{"agent_id":"t"}}}`,
	} {
		fmt.Fprintln(s.stdin, line)
	}
	lines := make(chan string)
	go func() {
		defer close(lines)
		for {
			l, err := s.stdout.ReadString('\n')
			if err != nil {
				return
			}
			lines <- l
		}
	}()
	hang := time.After(2 * time.Minute)
	for {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatalf("server closed stdout; stderr: %s", s.stderr.String())
			}
			if strings.Contains(l, `"id":2`) {
				if !strings.Contains(l, `node_count`) || !strings.Contains(l, filepath.Join(repo, ".m1nd")) {
					t.Errorf("health over m1nd serve: %s", l)
				}
				if !strings.Contains(s.stderr.String(), "[m1nd] server ready") {
					t.Errorf("not m1nd-mcp's log: %s", s.stderr.String())
				}
				return
			}
		case <-hang:
			t.Fatalf("no answer to tools/call; stderr: %s", s.stderr.String())
		}
	}
}

// TestWaitsForAHolderWithoutSocketYet: a holder whose lock names a socket
// that does not answer (another m1nd command, a server still loading) is
// waited for up to --wait; once it lets go, m1nd opens the dir itself.
func TestWaitsForAHolderWithoutSocketYet(t *testing.T) {
	repo := writeRepo(t)
	m1nd(t, repo, "ingest").must(t, 0, "ingest")
	hold := func() *session.State {
		session.AttachSocket = attach.SocketPath // as m1nd and m1nd-mcp write it
		cfg := session.DefaultConfig()
		cfg.RuntimeDir = filepath.Join(repo, ".m1nd")
		st, err := session.Open(cfg, t.Logf)
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	st := hold()
	r := m1nd(t, repo, "--wait", "200ms", "seek", "user").must(t, 3, "seek while the holder never answers")
	if !strings.Contains(r.stderr, "did not answer within 200ms") {
		t.Errorf("stderr: %q", r.stderr)
	}

	cmd := exec.Command(filepath.Join(bin, "m1nd"), "seek", "validate user")
	cmd.Dir, cmd.Env = repo, testEnv()
	var out bytes.Buffer
	errb := &syncBuffer{}
	cmd.Stdout, cmd.Stderr = &out, errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(2 * time.Minute); !strings.Contains(errb.String(), "waiting up to"); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("m1nd never said it waits: %s", errb.String())
		}
	}
	st.Close()
	timer := time.AfterFunc(2*time.Minute, func() { cmd.Process.Kill() })
	defer timer.Stop()
	if err := cmd.Wait(); err != nil || !strings.Contains(out.String(), "ValidateUser") {
		t.Errorf("seek after the holder let go: %v\n%s\n%s", err, out.String(), errb.String())
	}
}
