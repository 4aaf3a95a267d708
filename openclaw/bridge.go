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
// when the caller sends none. The id is echoed byte for byte (1.5,
// 18446744073709551616, strings), also when the rest of the request is
// refused. Each connection is served in order; clients that want
// parallelism open several connections.
//
// The socket is guarded against clients that misbehave (see the Bridge
// fields for the limits and their defaults): connections beyond
// MaxConnections get one error line and are closed; a connection with no
// request for IdleTimeout is closed, as is one whose request line does
// not arrive in full within ReadTimeout or whose response it does not
// read within WriteTimeout; a line longer than MaxRequestBytes, or one
// that would take the bytes held across all connections past
// MaxBufferedBytes, is discarded as it streams in and answered with an
// error. Accept errors (running out of file descriptors) are retried with
// a backoff; only closing the listener or ending the context stops Serve.
// Bridge.Stats reports connections, refusals, discards and bytes held.
package openclaw

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"time"

	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

// DefaultSocket is the socket path used when none is configured.
const DefaultSocket = "/tmp/m1nd-openclaw.sock"

// DefaultAgentID is injected when a request carries no agent_id.
const DefaultAgentID = "openclaw"

// Request is one line a client sends. ID is kept as sent so the response
// can echo it exactly (a float64 would turn 2^64 into 1.8446744073709552e19).
type Request struct {
	ID        json.RawMessage `json:"id"`
	Tool      string          `json:"tool"`
	Arguments json.RawMessage `json:"arguments,omitempty"`
}

// Response is one line the bridge answers.
type Response struct {
	ID        json.RawMessage `json:"id"`
	OK        bool            `json:"ok"`
	Result    any             `json:"result,omitempty"`
	Error     any             `json:"error,omitempty"`
	ElapsedMs float64         `json:"elapsed_ms"`
}

// Handle answers one request line.
func (b *Bridge) Handle(ctx context.Context, line []byte) Response {
	start := time.Now()
	var req Request
	dec := json.NewDecoder(bytes.NewReader(line))
	if err := dec.Decode(&req); err != nil {
		// Recover the id (and tool) by a scan that does not care how deep
		// the arguments nest, so even this answer can be matched.
		id, tool := envelope(line)
		hint := `Send one JSON object per line: {"id": 1, "tool": "health", "arguments": {}}.`
		if tool != "" {
			hint = "The request for " + tool + " is not valid JSON or nests deeper than 10,000 levels; " + hint
		}
		return Response{ID: id, Error: &tools.Error{
			Message: "invalid request: " + err.Error(),
			Hint:    hint,
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

// writeResponse writes resp as one line. HTML escaping is off so an id
// such as "a<b" comes back byte for byte.
func writeResponse(w io.Writer, resp Response) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(resp); err != nil {
		buf.Reset()
		enc.Encode(Response{ID: validID(resp.ID), Error: &tools.Error{Message: "internal error: response not serialisable: " + err.Error()}})
	}
	_, err := w.Write(buf.Bytes())
	return err
}

func validID(id json.RawMessage) json.RawMessage {
	if json.Valid(id) {
		return id
	}
	return nil
}
