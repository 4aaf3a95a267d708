// Package openclaw serves m1nd's tool dispatch on a Unix socket for the
// OpenClaw execution fabric: one JSON object per line in each direction,
//
//	→ {"id": 1, "tool": "activate", "arguments": {"query": "auth"}}
//	← {"id": 1, "ok": true, "result": {...}, "elapsed_ms": 3.1}
//	← {"id": 2, "ok": false, "error": {"error": "...", "hint": "..."}, "elapsed_ms": 0.2}
//
// It calls the same tools.Dispatcher as the MCP server, so a tool behaves
// identically on both surfaces. A "m1nd." prefix on the tool name is
// stripped (the registry accepts it) and a default agent_id is injected
// when the caller sends none. Each connection is served in order; clients
// that want parallelism open several connections.
package openclaw

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"sync"
	"time"

	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

// DefaultSocket is the socket path used when none is configured.
const DefaultSocket = "/tmp/m1nd-openclaw.sock"

// DefaultAgentID is injected when a request carries no agent_id.
const DefaultAgentID = "openclaw"

// maxLine bounds one request line (a pasted file or bug report fits).
const maxLine = 64 << 20

// Request is one line a client sends.
type Request struct {
	ID        any             `json:"id"`
	Tool      string          `json:"tool"`
	Arguments json.RawMessage `json:"arguments,omitempty"`
}

// Response is one line the bridge answers.
type Response struct {
	ID        any     `json:"id"`
	OK        bool    `json:"ok"`
	Result    any     `json:"result,omitempty"`
	Error     any     `json:"error,omitempty"`
	ElapsedMs float64 `json:"elapsed_ms"`
}

// Bridge answers requests with a dispatcher.
type Bridge struct {
	Dispatcher *tools.Dispatcher
	// DefaultAgent is injected as agent_id when absent (DefaultAgentID if
	// empty).
	DefaultAgent string
	// Logf receives connection-level errors (nil: discarded).
	Logf func(format string, args ...any)
}

// Handle answers one request line.
func (b *Bridge) Handle(ctx context.Context, line []byte) Response {
	start := time.Now()
	var req Request
	dec := json.NewDecoder(bytes.NewReader(line))
	if err := dec.Decode(&req); err != nil {
		return Response{OK: false, Error: &tools.Error{
			Message: "invalid request: " + err.Error(),
			Hint:    `Send one JSON object per line: {"id": 1, "tool": "health", "arguments": {}}.`,
		}, ElapsedMs: elapsed(start)}
	}
	if req.Tool == "" {
		return Response{ID: req.ID, Error: &tools.Error{
			Message: "request has no tool",
			Hint:    `Name the tool to call: {"id": 1, "tool": "health", "arguments": {}}.`,
		}, ElapsedMs: elapsed(start)}
	}
	args, err := b.withAgent(req.Arguments)
	if err != nil {
		return Response{ID: req.ID, Error: &tools.Error{
			Message: "arguments must be a JSON object: " + err.Error(),
			Hint:    `Example: {"id": 1, "tool": "activate", "arguments": {"query": "auth"}}.`,
		}, ElapsedMs: elapsed(start)}
	}
	res := b.Dispatcher.Call(ctx, req.Tool, args, nil)
	out := Response{ID: req.ID, OK: !res.IsError, ElapsedMs: elapsed(start)}
	if res.IsError {
		out.Error = res.Value
	} else {
		out.Result = res.Value
	}
	return out
}

// withAgent injects the default agent_id into an arguments object.
func (b *Bridge) withAgent(raw json.RawMessage) (json.RawMessage, error) {
	m := map[string]json.RawMessage{}
	if t := bytes.TrimSpace(raw); len(t) > 0 && !bytes.Equal(t, []byte("null")) {
		if err := json.Unmarshal(t, &m); err != nil {
			return nil, err
		}
	}
	if v, ok := m["agent_id"]; !ok || bytes.Equal(bytes.TrimSpace(v), []byte(`""`)) || bytes.Equal(bytes.TrimSpace(v), []byte("null")) {
		agent := b.DefaultAgent
		if agent == "" {
			agent = DefaultAgentID
		}
		m["agent_id"], _ = json.Marshal(agent)
	}
	return json.Marshal(m)
}

func elapsed(start time.Time) float64 {
	return float64(time.Since(start).Microseconds()) / 1000
}

// Serve accepts connections until ctx ends or the listener fails, serving
// each on its own goroutine. It waits for open connections to finish
// their current request before returning.
func (b *Bridge) Serve(ctx context.Context, ln net.Listener) error {
	var wg sync.WaitGroup
	defer wg.Wait()
	go func() {
		<-ctx.Done()
		ln.Close()
	}()
	for {
		conn, err := ln.Accept()
		if err != nil {
			if ctx.Err() != nil || errors.Is(err, net.ErrClosed) {
				return nil
			}
			return err
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			b.serveConn(ctx, conn)
		}()
	}
}

func (b *Bridge) serveConn(ctx context.Context, conn net.Conn) {
	defer conn.Close()
	go func() {
		<-ctx.Done()
		conn.SetReadDeadline(time.Now())
	}()
	r := bufio.NewReaderSize(conn, 64<<10)
	w := bufio.NewWriter(conn)
	reply := func(resp Response) bool {
		data, err := json.Marshal(resp)
		if err != nil {
			data, _ = json.Marshal(Response{ID: resp.ID, Error: &tools.Error{Message: "internal error: response not serialisable: " + err.Error()}})
		}
		w.Write(data)
		w.WriteByte('\n')
		return w.Flush() == nil
	}
	for {
		line, err := readLine(r)
		if errors.Is(err, errLineTooLong) {
			if !reply(Response{Error: &tools.Error{Message: fmt.Sprintf("request exceeds %d bytes", maxLine), Hint: "Send smaller arguments."}}) {
				return
			}
			continue
		}
		if len(bytes.TrimSpace(line)) > 0 && !reply(b.Handle(ctx, line)) {
			return
		}
		if err != nil {
			if !errors.Is(err, io.EOF) && b.Logf != nil && ctx.Err() == nil {
				b.Logf("openclaw connection: %v", err)
			}
			return
		}
	}
}

var errLineTooLong = errors.New("line too long")

// readLine returns the next line without its newline; a line longer than
// maxLine is consumed and reported as errLineTooLong.
func readLine(r *bufio.Reader) ([]byte, error) {
	var buf []byte
	for {
		chunk, err := r.ReadSlice('\n')
		if len(buf)+len(chunk) > maxLine {
			for errors.Is(err, bufio.ErrBufferFull) {
				_, err = r.ReadSlice('\n')
			}
			return nil, errLineTooLong
		}
		buf = append(buf, chunk...)
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return bytes.TrimRight(buf, "\r\n"), err
	}
}

// Listen opens the Unix socket at path with mode 0600. A leftover socket
// file nobody listens on is replaced; a live one is an error (another
// bridge is running).
func Listen(path string) (net.Listener, error) {
	if fi, err := os.Lstat(path); err == nil {
		if fi.Mode()&os.ModeSocket == 0 {
			return nil, fmt.Errorf("%s exists and is not a socket; remove it or choose another --socket path", path)
		}
		if c, err := net.DialTimeout("unix", path, 200*time.Millisecond); err == nil {
			c.Close()
			return nil, fmt.Errorf("another m1nd-openclaw is already listening on %s; stop it or choose another --socket path", path)
		}
		if err := os.Remove(path); err != nil {
			return nil, fmt.Errorf("remove stale socket %s: %w", path, err)
		}
	}
	// Create the socket with owner-only permissions from the start.
	old := umask(0o177)
	ln, err := net.Listen("unix", path)
	umask(old)
	if err != nil {
		return nil, err
	}
	if err := os.Chmod(path, 0o600); err != nil {
		ln.Close()
		return nil, err
	}
	return ln, nil
}
