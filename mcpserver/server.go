// Package mcpserver wires m1nd's tool registry into an MCP server (the
// official Go SDK) and serves it over stdio in both framings, and to the
// clients attached through the runtime directory's socket. The protocol
// layer only translates: every call goes to tools.Dispatcher.
package mcpserver

import (
	"context"
	_ "embed"
	"encoding/json"
	"io"
	"net"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/m1nd-go/m1nd/mcpserver/attach"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
	"github.com/m1nd-go/m1nd/mcpserver/transport"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// instructions is what the server tells a client about itself at
// initialize (Markdown; kept beside the code so it is edited as a text).
//
//go:embed instructions.md
var instructions string

// NewMCPServer returns an MCP server exposing every registered tool, with
// its annotations and output schema, and logging to log (nil: the
// session's logf, no client gets log messages).
func NewMCPServer(d *tools.Dispatcher, log *Log) *mcp.Server {
	if log == nil {
		log = NewLog(d.Session.Logf)
	}
	initialized, rootsChanged := clientRoots(d)
	s := mcp.NewServer(&mcp.Implementation{Name: tools.ServerName, Version: tools.ServerVersion}, &mcp.ServerOptions{
		Instructions:            instructions,
		Capabilities:            &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{}, Logging: &mcp.LoggingCapabilities{}},
		InitializedHandler:      initialized,
		RootsListChangedHandler: rootsChanged,
	})
	for _, t := range d.Registry.All() {
		name := t.Name
		structured := t.Output != nil
		s.AddTool(mcpTool(t), func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			start := time.Now()
			res := d.Call(ctx, name, req.Params.Arguments, progressFor(ctx, req))
			log.Logger().Debug("tools/call", "tool", name, "is_error", res.IsError, "elapsed_ms", time.Since(start).Milliseconds())
			return toMCP(res, structured), nil
		})
	}
	s.AddReceivingMiddleware(normalizeToolNames(d))
	return s
}

// mcpTool is the tools/list entry of t, all of it from the registry.
func mcpTool(t *tools.Tool) *mcp.Tool {
	h := t.Annotations()
	mt := &mcp.Tool{
		Name: t.Name, Title: t.Title, Description: t.Description, InputSchema: t.InputSchema(),
		Annotations: &mcp.ToolAnnotations{
			Title: t.Title, ReadOnlyHint: h.ReadOnly, DestructiveHint: &h.Destructive,
			IdempotentHint: h.Idempotent, OpenWorldHint: &h.OpenWorld,
		},
	}
	// Not a typed nil in the interface: the SDK refuses a nil schema.
	if out := t.OutputSchema(); out != nil {
		mt.OutputSchema = out
	}
	return mt
}

// normalizeToolNames rewrites accepted aliases (m1nd.activate,
// m1nd_activate, lock.create) to canonical names before the SDK looks the
// tool up, and answers unknown names with a teaching error that names the
// closest tools instead of a bare protocol error.
func normalizeToolNames(d *tools.Dispatcher) mcp.Middleware {
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method != "tools/call" {
				return next(ctx, method, req)
			}
			p, ok := req.GetParams().(*mcp.CallToolParamsRaw)
			if !ok || p == nil {
				return next(ctx, method, req)
			}
			if canon := d.Registry.Canonical(p.Name); canon != "" {
				p.Name = canon
				return next(ctx, method, req)
			}
			return toMCP(d.Call(ctx, p.Name, p.Arguments, nil), false), nil
		}
	}
}

// toMCP renders a dispatcher result. A tool with an output schema answers
// with the same JSON object twice, as text for clients that read content
// and as structuredContent; a failure carries text only, since it is not
// the object the schema describes.
func toMCP(r tools.Result, structured bool) *mcp.CallToolResult {
	text := r.Text()
	res := &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}, IsError: r.IsError}
	if structured && !r.IsError && strings.HasPrefix(text, "{") {
		res.StructuredContent = json.RawMessage(text)
	}
	return res
}

// progressFor returns a progress reporter that sends MCP progress
// notifications when the client supplied a progress token, at most every
// 100 ms (plus the final 100%).
func progressFor(ctx context.Context, req *mcp.CallToolRequest) tools.Progress {
	token := req.Params.GetProgressToken()
	if token == nil || req.Session == nil {
		return nil
	}
	var mu sync.Mutex
	var last time.Time
	return func(done, total float64, msg string) {
		mu.Lock()
		now := time.Now()
		if now.Sub(last) < 100*time.Millisecond && done < total {
			mu.Unlock()
			return
		}
		last = now
		mu.Unlock()
		req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{
			ProgressToken: token, Progress: done, Total: total, Message: msg,
		})
	}
}

// exclusiveCall reports whether a request calls a tool of class Exclusive
// (ingest, persist): later requests wait for it, in arrival order.
func exclusiveCall(r *tools.Registry) func(*jsonrpc.Request) bool {
	return func(req *jsonrpc.Request) bool {
		if req.Method != "tools/call" {
			return false
		}
		var p struct {
			Name string `json:"name"`
		}
		if json.Unmarshal(req.Params, &p) != nil {
			return false
		}
		t, ok := r.Lookup(p.Name)
		return ok && t.Class == tools.Exclusive
	}
}

// ServeStdio serves MCP on in/out until the input ends or ctx is cancelled.
func ServeStdio(ctx context.Context, d *tools.Dispatcher, in io.Reader, out io.Writer) error {
	return Serve(ctx, d, in, out, nil, nil)
}

// Serve serves MCP on in/out and on every client attached through ln (nil:
// none), all as sessions of one server over one dispatcher, so they share
// the graph and its learning. It returns when ctx is cancelled, or when in
// has ended and no attached session is open: the owner outlives its own
// client while another editor still uses it. Each session gets the log
// messages it asks for from log (nil: none; see NewMCPServer).
func Serve(ctx context.Context, d *tools.Dispatcher, in io.Reader, out io.Writer, ln net.Listener, log *Log) error {
	if log == nil {
		log = NewLog(d.Session.Logf)
	}
	srv := NewMCPServer(d, log)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	if ln == nil {
		return serveSession(ctx, srv, d, log, in, out)
	}
	var gate attach.Gate
	accepting := make(chan struct{})
	go func() {
		defer close(accepting)
		attach.Serve(ln, &gate, helloFor(d), func(c net.Conn) { serveSession(ctx, srv, d, log, c, c) }, d.Session.Logf)
	}()
	err := serveSession(ctx, srv, d, log, in, out)
	if n := gate.Open(); n > 0 && ctx.Err() == nil {
		d.Session.Logf("stdin closed; still serving %d attached client(s), exiting when the last one leaves", n)
	}
	gate.Shut(ctx)
	ln.Close()
	<-accepting
	return err
}

// serveSession serves one MCP session on in/out until the input ends or
// ctx is cancelled.
func serveSession(ctx context.Context, srv *mcp.Server, d *tools.Dispatcher, log *Log, in io.Reader, out io.Writer) error {
	t := &transport.Stdio{In: in, Out: out, Barrier: exclusiveCall(d.Registry)}
	ss, err := srv.Connect(ctx, t, nil)
	if err != nil {
		return err
	}
	defer log.attach(ss)()
	// A signal cancels ctx; closing the session unblocks the input reader
	// so the caller can persist and exit.
	stop := context.AfterFunc(ctx, func() { ss.Close() })
	defer stop()
	return ss.Wait()
}

// helloFor greets attached clients with this process and the roots the
// shared graph holds.
func helloFor(d *tools.Dispatcher) func() attach.Hello {
	return func() attach.Hello {
		roots := []string{}
		for _, r := range d.Session.Current().Roots {
			roots = append(roots, r.Path)
		}
		return attach.Hello{Pid: os.Getpid(), Roots: roots}
	}
}
