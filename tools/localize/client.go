package localize

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"sync"
	"time"
)

// Client talks to an m1nd-mcp process over stdio, one JSON-RPC message per
// line, the way an MCP client does. It is not safe for concurrent use.
type Client struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  chan []byte // closed when the server's stdout ends
	nextID int
	stderr *tailBuffer
}

// StartFor launches the server binary allowed to ingest root (its
// --allow-root), with args: the harnesses ingest checkouts outside the
// server's working directory.
func StartFor(bin, root string, args ...string) (*Client, error) {
	return Start(bin, append([]string{"--allow-root", root}, args...)...)
}

// Start launches the server binary with args.
func Start(bin string, args ...string) (*Client, error) {
	cmd := exec.Command(bin, args...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	tb := &tailBuffer{max: 16 << 10}
	cmd.Stderr = tb
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", bin, err)
	}
	c := &Client{cmd: cmd, stdin: stdin, lines: make(chan []byte, 16), stderr: tb}
	go func() {
		defer close(c.lines)
		r := bufio.NewReaderSize(stdout, 1<<20)
		for {
			line, err := r.ReadBytes('\n')
			if len(bytes.TrimSpace(line)) > 0 {
				c.lines <- line
			}
			if err != nil {
				return
			}
		}
	}()
	return c, nil
}

// Pid is the server process's id (for memory readings).
func (c *Client) Pid() int { return c.cmd.Process.Pid }

// Initialize performs the MCP handshake.
func (c *Client) Initialize(ctx context.Context) error {
	var res struct {
		ProtocolVersion string `json:"protocolVersion"`
	}
	err := c.request(ctx, "initialize", map[string]any{
		"protocolVersion": "2025-06-18",
		"capabilities":    map[string]any{},
		"clientInfo":      map[string]any{"name": "m1nd-localize", "version": "0.1.0"},
	}, &res)
	if err != nil {
		return err
	}
	return c.send(map[string]any{"jsonrpc": "2.0", "method": "notifications/initialized"})
}

// ToolError is a tool result with isError set.
type ToolError struct {
	Tool string
	Text string
}

func (e *ToolError) Error() string { return fmt.Sprintf("%s failed: %s", e.Tool, e.Text) }

// CallTool calls a tool and unmarshals the JSON text of its result into
// out. A result with isError set is returned as *ToolError.
func (c *Client) CallTool(ctx context.Context, name string, args map[string]any, out any) error {
	var res struct {
		Content []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
		IsError bool `json:"isError"`
	}
	if err := c.request(ctx, "tools/call", map[string]any{"name": name, "arguments": args}, &res); err != nil {
		return err
	}
	var text string
	for _, ct := range res.Content {
		if ct.Type == "text" {
			text += ct.Text
		}
	}
	if res.IsError {
		return &ToolError{Tool: name, Text: text}
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal([]byte(text), out); err != nil {
		return fmt.Errorf("%s: result is not JSON: %w", name, err)
	}
	return nil
}

func (c *Client) send(msg any) error {
	b, err := json.Marshal(msg)
	if err != nil {
		return err
	}
	_, err = c.stdin.Write(append(b, '\n'))
	return err
}

// request sends a request and waits for the response with its id,
// skipping notifications (progress, logs) in between.
func (c *Client) request(ctx context.Context, method string, params, out any) error {
	c.nextID++
	id := c.nextID
	if err := c.send(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params}); err != nil {
		return fmt.Errorf("%s: write: %w (server stderr: %s)", method, err, c.stderr.String())
	}
	for {
		select {
		case <-ctx.Done():
			return fmt.Errorf("%s: %w", method, ctx.Err())
		case line, ok := <-c.lines:
			if !ok {
				return fmt.Errorf("%s: server exited (stderr: %s)", method, c.stderr.String())
			}
			var msg struct {
				ID     *int            `json:"id"`
				Result json.RawMessage `json:"result"`
				Error  *struct {
					Code    int    `json:"code"`
					Message string `json:"message"`
				} `json:"error"`
			}
			if err := json.Unmarshal(line, &msg); err != nil {
				return fmt.Errorf("%s: malformed server message %q: %w", method, clip(string(line), 200), err)
			}
			if msg.ID == nil || *msg.ID != id {
				continue
			}
			if msg.Error != nil {
				return fmt.Errorf("%s: JSON-RPC error %d: %s", method, msg.Error.Code, msg.Error.Message)
			}
			if out != nil {
				return json.Unmarshal(msg.Result, out)
			}
			return nil
		}
	}
}

// Close ends the session: stdin is closed so the server exits on its own;
// it is killed if it has not after a few seconds.
func (c *Client) Close() error {
	c.stdin.Close()
	go func() {
		for range c.lines { // let the reader finish
		}
	}()
	exited := make(chan error, 1)
	go func() { exited <- c.cmd.Wait() }()
	select {
	case err := <-exited:
		return err
	case <-time.After(10 * time.Second):
		c.cmd.Process.Kill()
		<-exited
		return errors.New("server did not exit after stdin closed; killed")
	}
}

// tailBuffer keeps the last max bytes written (the server's stderr).
type tailBuffer struct {
	mu  sync.Mutex
	max int
	b   []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if len(t.b) > t.max {
		t.b = append([]byte(nil), t.b[len(t.b)-t.max:]...)
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.b)
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
