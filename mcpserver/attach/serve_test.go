package attach_test

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"strings"
	"testing"

	"github.com/m1nd-go/m1nd/mcpserver/tools/toolset"

	"github.com/m1nd-go/m1nd/mcpserver"
	"github.com/m1nd-go/m1nd/mcpserver/attach"
	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
	"github.com/m1nd-go/m1nd/mcpserver/transport"
)

// client is one MCP client over a pair of pipes.
type client struct {
	t   *testing.T
	in  *io.PipeWriter
	out *transport.Reader
	id  int
}

func newClient(t *testing.T) (*client, io.Reader, io.Writer) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	t.Cleanup(func() { inW.Close(); outR.Close() })
	return &client{t: t, in: inW, out: transport.NewReader(outR, 0)}, inR, outW
}

func (c *client) call(mode transport.Mode, method string, params any) map[string]any {
	c.t.Helper()
	c.id++
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": c.id, "method": method, "params": params})
	if err := transport.WriteFrame(c.in, mode, body); err != nil {
		c.t.Fatal(err)
	}
	resp, got, err := c.out.Next()
	if err != nil || got != mode {
		c.t.Fatalf("%s: %v (framing %v, sent %v)", method, err, got, mode)
	}
	var m map[string]any
	json.Unmarshal(resp, &m)
	return m
}

func (c *client) initialize(mode transport.Mode) {
	c.t.Helper()
	c.call(mode, "initialize", map[string]any{"protocolVersion": "2025-06-18", "capabilities": map[string]any{}, "clientInfo": map[string]any{"name": "t", "version": "1"}})
}

// health returns the text of a health call.
func (c *client) health(mode transport.Mode) string {
	c.t.Helper()
	r := c.call(mode, "tools/call", map[string]any{"name": "health", "arguments": map[string]any{"agent_id": "t"}})
	var res struct {
		Content []struct{ Text string }
	}
	b, _ := json.Marshal(r["result"])
	json.Unmarshal(b, &res)
	if len(res.Content) == 0 {
		c.t.Fatalf("health: %v", r)
	}
	return res.Content[0].Text
}

func queries(t *testing.T, health string) float64 {
	var h struct {
		Q float64 `json:"queries_processed"`
	}
	if err := json.Unmarshal([]byte(health), &h); err != nil {
		t.Fatalf("health text: %v", err)
	}
	return h.Q
}

// attached dials the owner and relays a new client's pipes through it.
func attached(t *testing.T, socket string) (*client, chan error) {
	cl, err := attach.Dial(socket)
	if err != nil {
		t.Fatal(err)
	}
	c, in, out := newClient(t)
	done := make(chan error, 1)
	go func() { done <- cl.Pipe(context.Background(), in, out); out.(io.Closer).Close() }()
	return c, done
}

func TestServeOutlivesOwnStdinWhileAttached(t *testing.T) {
	cfg := session.DefaultConfig()
	cfg.RuntimeDir = t.TempDir()
	st, err := session.Open(cfg, t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	d := &tools.Dispatcher{Registry: toolset.Builtin(), Session: st}
	ln, err := attach.Listen(cfg.RuntimeDir)
	if err != nil {
		t.Fatal(err)
	}
	own, in, out := newClient(t)
	served := make(chan error, 1)
	go func() { served <- mcpserver.Serve(context.Background(), d, in, out, net.Listener(ln), nil) }()

	own.initialize(transport.Line)
	if h := own.health(transport.Line); !strings.Contains(h, "node_count") {
		t.Fatalf("owner health: %s", h)
	}
	b, bDone := attached(t, ln.Addr().String())
	c, cDone := attached(t, ln.Addr().String())
	b.initialize(transport.Framed)
	c.initialize(transport.Line)
	// One dispatcher counts every client's queries.
	if qb, qc := queries(t, b.health(transport.Framed)), queries(t, c.health(transport.Line)); qc <= qb {
		t.Errorf("queries_processed %v after another client's %v: not one server", qc, qb)
	}

	own.in.Close()
	if h := b.health(transport.Line); !strings.Contains(h, "node_count") {
		t.Errorf("attached after the owner's stdin closed: %s", h)
	}
	select {
	case err := <-served:
		t.Fatalf("Serve returned with clients attached: %v", err)
	default:
	}
	b.in.Close()
	c.in.Close()
	for _, done := range []chan error{bDone, cDone} {
		if err := <-done; err != nil {
			t.Errorf("attached pipe: %v", err)
		}
	}
	if err := <-served; err != nil && err != io.EOF {
		t.Errorf("Serve: %v", err)
	}
}
