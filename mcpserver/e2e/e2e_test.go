// Package e2e runs the real m1nd-mcp binary and talks to it as clients do:
// over stdio in both framings, through crashes and restarts, and with the
// official MCP TypeScript SDK.
package e2e

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/m1nd-go/m1nd/mcpserver/internal/fixture"
	"github.com/m1nd-go/m1nd/mcpserver/transport"
)

var serverBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "m1nd-e2e-")
	if err != nil {
		panic(err)
	}
	serverBin = filepath.Join(dir, "m1nd-mcp")
	build := exec.Command("go", "build", "-o", serverBin, "github.com/m1nd-go/m1nd/mcpserver/cmd/m1nd-mcp")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building m1nd-mcp:", err)
		os.Exit(1)
	}
	// Fixture repositories live in temporary directories: every server the
	// tests start may ingest there (they inherit the environment).
	os.Setenv("M1ND_ALLOW_ROOTS", os.TempDir())
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// proc is a running server with its stdio.
type proc struct {
	t      *testing.T
	cmd    *exec.Cmd
	in     io.WriteCloser
	out    *transport.Reader
	stderr *syncBuffer
	nextID int
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

func start(t *testing.T, env []string, args ...string) *proc {
	t.Helper()
	cmd := exec.Command(serverBin, args...)
	cmd.Env = append(os.Environ(), env...)
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	p := &proc{t: t, cmd: cmd, in: in, out: transport.NewReader(out, 0), stderr: &syncBuffer{}}
	cmd.Stderr = p.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			cmd.Process.Kill()
			cmd.Wait()
		}
	})
	return p
}

func (p *proc) send(mode transport.Mode, msg any) {
	p.t.Helper()
	body, err := json.Marshal(msg)
	if err != nil {
		p.t.Fatal(err)
	}
	if err := transport.WriteFrame(p.in, mode, body); err != nil {
		p.t.Fatalf("write: %v (stderr: %s)", err, p.stderr.String())
	}
}

// recvRaw reads the next message as sent, ids intact.
func (p *proc) recvRaw() ([]byte, transport.Mode) {
	p.t.Helper()
	type res struct {
		body []byte
		mode transport.Mode
		err  error
	}
	ch := make(chan res, 1)
	go func() {
		b, m, err := p.out.Next()
		ch <- res{b, m, err}
	}()
	select {
	case r := <-ch:
		if r.err != nil {
			p.t.Fatalf("read: %v (stderr: %s)", r.err, p.stderr.String())
		}
		return r.body, r.mode
	case <-time.After(2 * time.Minute): // hang guard only
		p.t.Fatalf("no response (stderr: %s)", p.stderr.String())
	}
	return nil, 0
}

// recv reads the next message and its framing.
func (p *proc) recv() (map[string]any, transport.Mode) {
	p.t.Helper()
	body, mode := p.recvRaw()
	var m map[string]any
	if err := json.Unmarshal(body, &m); err != nil {
		p.t.Fatalf("response is not a JSON object: %q", body)
	}
	return m, mode
}

func (p *proc) request(mode transport.Mode, method string, params any) map[string]any {
	p.t.Helper()
	p.nextID++
	p.send(mode, map[string]any{"jsonrpc": "2.0", "id": p.nextID, "method": method, "params": params})
	m, got := p.recv()
	if got != mode {
		p.t.Fatalf("%s answered in %v framing, request was %v", method, got, mode)
	}
	return m
}

func (p *proc) initialize(mode transport.Mode) map[string]any {
	p.t.Helper()
	r := p.request(mode, "initialize", map[string]any{
		"protocolVersion": "2025-06-18", "capabilities": map[string]any{},
		"clientInfo": map[string]any{"name": "e2e", "version": "1"},
	})
	p.send(mode, map[string]any{"jsonrpc": "2.0", "method": "notifications/initialized"})
	return r
}

// tool calls a tool and returns its decoded text result and isError.
func (p *proc) tool(mode transport.Mode, name string, args map[string]any) (map[string]any, bool) {
	p.t.Helper()
	r := p.request(mode, "tools/call", map[string]any{"name": name, "arguments": args})
	res, ok := r["result"].(map[string]any)
	if !ok {
		p.t.Fatalf("tools/call %s: no result: %v", name, r)
	}
	text := res["content"].([]any)[0].(map[string]any)["text"].(string)
	var out map[string]any
	if err := json.Unmarshal([]byte(text), &out); err != nil {
		p.t.Fatalf("tool %s text is not JSON: %q", name, text)
	}
	isErr, _ := res["isError"].(bool)
	return out, isErr
}

func (p *proc) closeAndWait() error {
	p.in.Close()
	return waitExit(p.t, p)
}

func TestBothFramingsInOneSession(t *testing.T) {
	repo := fixture.Write(t)
	p := start(t, nil)
	init := p.initialize(transport.Framed)
	res := init["result"].(map[string]any)
	if si := res["serverInfo"].(map[string]any); si["name"] != "m1nd-mcp" || si["version"] == "" {
		t.Errorf("serverInfo %v", si)
	}
	if !strings.Contains(fmt.Sprint(res["instructions"]), "ingest") {
		t.Errorf("instructions lack the workflow guide: %v", res["instructions"])
	}
	list := p.request(transport.Line, "tools/list", map[string]any{})
	tools := list["result"].(map[string]any)["tools"].([]any)
	if len(tools) < 12 {
		t.Fatalf("tools/list returned %d tools", len(tools))
	}
	for _, x := range tools {
		tl := x.(map[string]any)
		s, _ := tl["inputSchema"].(map[string]any)
		if s == nil || s["type"] != "object" {
			t.Errorf("tool %v: inputSchema %v", tl["name"], tl["inputSchema"])
		}
	}
	out, isErr := p.tool(transport.Framed, "ingest", map[string]any{"agent_id": "e2e", "path": repo})
	if isErr || out["nodes_created"].(float64) == 0 {
		t.Fatalf("ingest: %v", out)
	}
	h, _ := p.tool(transport.Line, "m1nd.health", map[string]any{"agent_id": "e2e"})
	if h["node_count"] != out["graph"].(map[string]any)["node_count"] {
		t.Errorf("health node_count %v, ingest %v", h["node_count"], out["graph"])
	}
	roots := h["ingest_roots"].([]any)
	if len(roots) != 1 || roots[0].(map[string]any)["git_head"] == "" || roots[0].(map[string]any)["stale"] != false {
		t.Errorf("health ingest_roots %v", roots)
	}
	a, isErr := p.tool(transport.Framed, "m1nd_activate", map[string]any{"agent_id": "e2e", "query": "session", "top_k": 3})
	if isErr || len(a["activated"].([]any)) == 0 {
		t.Errorf("activate: %v", a)
	}
	if err := p.closeAndWait(); err != nil {
		t.Fatal(err)
	}
}

func TestProtocolErrorsKeepTheConnection(t *testing.T) {
	p := start(t, nil)
	p.initialize(transport.Line)
	io.WriteString(p.in, "{this is not json}\n")
	m, mode := p.recv()
	if code := m["error"].(map[string]any)["code"].(float64); code != -32700 || mode != transport.Line {
		t.Errorf("malformed line: %v (%v)", m, mode)
	}
	io.WriteString(p.in, "Content-Length: 5\r\n\r\n{nope")
	m, mode = p.recv()
	if code := m["error"].(map[string]any)["code"].(float64); code != -32700 || mode != transport.Framed {
		t.Errorf("malformed frame: %v (%v)", m, mode)
	}
	m = p.request(transport.Line, "no/such/method", map[string]any{})
	if code := m["error"].(map[string]any)["code"].(float64); code != -32601 {
		t.Errorf("unknown method: %v", m)
	}
	// Unknown tool: a teaching isError result naming the closest tool.
	out, isErr := p.tool(transport.Line, "helth", map[string]any{"agent_id": "e2e"})
	if !isErr || !strings.Contains(fmt.Sprint(out["hint"]), "health") {
		t.Errorf("unknown tool: %v", out)
	}
	// A batch answered as one array.
	io.WriteString(p.in, `[{"jsonrpc":"2.0","id":"b1","method":"ping"},{"jsonrpc":"2.0","id":"b2","method":"tools/call","params":{"name":"health","arguments":{"agent_id":"e2e"}}}]`+"\n")
	body, _, err := p.out.Next()
	if err != nil {
		t.Fatal(err)
	}
	var arr []map[string]any
	if err := json.Unmarshal(body, &arr); err != nil || len(arr) != 2 {
		t.Errorf("batch response %s", body)
	}
	// Still alive.
	if _, isErr := p.tool(transport.Line, "health", map[string]any{"agent_id": "e2e"}); isErr {
		t.Error("health failed after protocol errors")
	}
	if err := p.closeAndWait(); err != nil {
		t.Fatal(err)
	}
}

// TestPipelinedClient writes every request at once and closes stdin: the
// ingest completes before the queries after it run, and every request is
// answered before the server exits.
func TestPipelinedClient(t *testing.T) {
	repo := fixture.Write(t)
	var buf bytes.Buffer
	line := func(v any) {
		b, _ := json.Marshal(v)
		buf.Write(append(b, '\n'))
	}
	line(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": map[string]any{"protocolVersion": "2024-11-05", "capabilities": map[string]any{}, "clientInfo": map[string]any{"name": "pipe", "version": "1"}}})
	line(map[string]any{"jsonrpc": "2.0", "method": "notifications/initialized"})
	line(map[string]any{"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": map[string]any{"name": "ingest", "arguments": map[string]any{"agent_id": "p", "path": repo}}})
	for i := 3; i < 8; i++ {
		line(map[string]any{"jsonrpc": "2.0", "id": i, "method": "tools/call", "params": map[string]any{"name": "activate", "arguments": map[string]any{"agent_id": "p", "query": "session"}}})
	}
	cmd := exec.Command(serverBin)
	cmd.Stdin = &buf
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v: %s", err, errb.String())
	}
	sc := bufio.NewScanner(&out)
	sc.Buffer(nil, 64<<20)
	seen := map[float64]bool{}
	for sc.Scan() {
		var m map[string]any
		json.Unmarshal(sc.Bytes(), &m)
		id, _ := m["id"].(float64)
		seen[id] = true
		if id >= 3 {
			res := m["result"].(map[string]any)
			if res["isError"] == true {
				t.Errorf("query %v ran before the ingest finished: %v", id, res)
			}
		}
	}
	for i := 1; i < 8; i++ {
		if !seen[float64(i)] {
			t.Errorf("request %d unanswered", i)
		}
	}
}

// waitExit waits for p to exit by itself and returns its exit error.
func waitExit(t *testing.T, p *proc) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- p.cmd.Wait() }()
	select {
	case err := <-done:
		return err
	case <-time.After(2 * time.Minute):
		p.cmd.Process.Kill()
		return fmt.Errorf("did not exit (stderr: %s)", p.stderr.String())
	}
}
