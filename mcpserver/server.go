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
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/m1nd-go/m1nd/mcpserver/tools/system"

	"github.com/m1nd-go/m1nd/mcpserver/attach"
	"github.com/m1nd-go/m1nd/mcpserver/session"
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
	s := mcp.NewServer(&mcp.Implementation{Name: system.ServerName, Version: system.ServerVersion}, &mcp.ServerOptions{
		Instructions:            instructions,
		Capabilities:            &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{ListChanged: true}, Logging: &mcp.LoggingCapabilities{}},
		InitializedHandler:      initialized,
		RootsListChangedHandler: rootsChanged,
	})
	schemas := d.Session.Config().OutputSchemas
	listed := func(t *tools.Tool) *mcp.Tool { return mcpTool(t, schemas) }
	handler := func(name string, structured bool) mcp.ToolHandler {
		return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return runTool(ctx, d, log, name, req.Params.Arguments, progressFor(ctx, req), structured), nil
		}
	}
	offered := offeredTools(d)
	for _, t := range d.Registry.All() {
		if offered(t) {
			s.AddTool(listed(t), handler(t.Name, schemas && t.Output != nil))
		}
	}
	// A change of toolsets (the toolsets tool) lists the tools again: the
	// SDK tells every session (notifications/tools/list_changed).
	d.Session.OnToolsetsChange(func([]string) {
		offered := offeredTools(d)
		var gone []string
		for _, t := range d.Registry.All() {
			if offered(t) {
				s.AddTool(listed(t), handler(t.Name, schemas && t.Output != nil))
			} else {
				gone = append(gone, t.Name)
			}
		}
		s.RemoveTools(gone...)
	})
	s.AddReceivingMiddleware(normalizeToolNames(d), log.trackLevels(), leanToolList)
	return s
}

// offeredTools reports whether tools/list offers a tool: its family is
// one of the session's toolsets (a tool of no family always is).
func offeredTools(d *tools.Dispatcher) func(*tools.Tool) bool {
	enabled := d.Session.Toolsets()
	return func(t *tools.Tool) bool {
		return enabled == nil || t.Family == "" || slices.Contains(enabled, t.Family)
	}
}

// mcpTool is the tools/list entry of t, all of it from the registry: its
// compact form (the short description, the published input schema, the
// hints that differ from MCP's defaults), and its output schema when
// they are asked for.
func mcpTool(t *tools.Tool, outputSchema bool) *mcp.Tool {
	h := t.Annotations()
	no := false
	// A read-only tool's idempotent and destructive hints mean nothing
	// (MCP): only readOnly and openWorld are sent for it.
	ann := &mcp.ToolAnnotations{ReadOnlyHint: h.ReadOnly, OpenWorldHint: &no}
	if !h.ReadOnly {
		// MCP defaults destructiveHint to true: only false is sent. The SDK
		// always sends idempotentHint.
		ann.IdempotentHint = h.Idempotent
		if !h.Destructive {
			ann.DestructiveHint = &no
		}
	}
	mt := &mcp.Tool{Name: t.Name, Title: t.Title, Description: t.Description, InputSchema: t.InputSchema(), Annotations: ann}
	// Not a typed nil in the interface: the SDK refuses a nil schema.
	if out := t.OutputSchemaJSON(); out != nil && outputSchema {
		mt.OutputSchema = out
	}
	return mt
}

// leanTool is a tools/list entry as sent: the SDK's form without the
// readOnlyHint and idempotentHint that only restate MCP's defaults
// (false), which the SDK's ToolAnnotations always sends. Every client
// reads an absent hint as its default, so nothing is lost but bytes.
type leanTool struct{ *mcp.Tool }

// MarshalJSON writes the SDK's JSON of the tool less the default hints.
func (t leanTool) MarshalJSON() ([]byte, error) {
	b, err := json.Marshal(t.Tool)
	if err != nil || t.Annotations == nil {
		return b, err
	}
	var m map[string]json.RawMessage
	var hints map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, err
	}
	if err := json.Unmarshal(m["annotations"], &hints); err != nil {
		return nil, err
	}
	for _, k := range []string{"readOnlyHint", "idempotentHint"} {
		if string(hints[k]) == "false" {
			delete(hints, k)
		}
	}
	if m["annotations"], err = json.Marshal(hints); err != nil {
		return nil, err
	}
	return json.Marshal(m)
}

// leanList is a tools/list answer whose tools are written as leanTool.
// It embeds the SDK's result, so the SDK handles it as its own.
type leanList struct{ *mcp.ListToolsResult }

// MarshalJSON writes the SDK's JSON of the answer with lean tools.
func (l leanList) MarshalJSON() ([]byte, error) {
	b, err := json.Marshal(l.ListToolsResult)
	if err != nil {
		return nil, err
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, err
	}
	lean := make([]leanTool, len(l.Tools))
	for i, t := range l.Tools {
		lean[i] = leanTool{t}
	}
	if m["tools"], err = json.Marshal(lean); err != nil {
		return nil, err
	}
	return json.Marshal(m)
}

// leanToolList answers tools/list with a leanList.
func leanToolList(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		if lr, ok := res.(*mcp.ListToolsResult); ok && err == nil && method == "tools/list" {
			return leanList{lr}, nil
		}
		return res, err
	}
}

// normalizeToolNames rewrites accepted aliases (m1nd.activate,
// m1nd_activate, lock.create) to canonical names before the SDK looks the
// tool up, calls the tools tools/list does not offer (their toolset is
// off) itself, and answers unknown names with a teaching error that names
// the closest tools instead of a bare protocol error.
func normalizeToolNames(d *tools.Dispatcher) mcp.Middleware {
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method != "tools/call" {
				return next(ctx, method, req)
			}
			p, ok := req.GetParams().(*mcp.CallToolParamsRaw)
			if !ok || p == nil {
				return answered(next(ctx, method, req))
			}
			if t, ok := d.Registry.Lookup(p.Name); ok {
				p.Name = t.Name
				if offeredTools(d)(t) {
					return answered(next(ctx, method, req))
				}
				// Not in tools/list (its toolset is off), still callable.
				res := EventsOf(d).Observe(t.Name, "mcp", p.Arguments, nil, func(pr tools.Progress) tools.Result {
					return d.Call(ctx, t.Name, p.Arguments, pr)
				})
				return toolAnswer{toMCP(res, d.Session.Config().OutputSchemas && t.Output != nil)}, nil
			}
			return toolAnswer{toMCP(d.Call(ctx, p.Name, p.Arguments, nil), false)}, nil
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

// HandoverConfig is cfg as the process that takes the runtime directory
// over needs it (attach.Hello's Config): its paths absolute, since that
// process may run in another directory, and without the start-up ingest.
func HandoverConfig(cfg session.Config) json.RawMessage {
	for _, p := range []*string{&cfg.GraphSource, &cfg.PlasticityState, &cfg.RuntimeDir} {
		if *p != "" {
			if abs, err := filepath.Abs(*p); err == nil {
				*p = abs
			}
		}
	}
	roots := make([]string, 0, len(cfg.AllowRoots))
	for _, r := range cfg.AllowRoots {
		if abs, err := filepath.Abs(r); err == nil {
			r = abs
		}
		roots = append(roots, r)
	}
	cfg.AllowRoots, cfg.IngestOnStart = roots, ""
	b, _ := json.Marshal(cfg)
	return b
}

// replayableCall reports whether a request may run twice: anything but a
// tools/call, or a call of a read-only tool (its readOnlyHint). At a
// handover such calls are not waited for: the relay sends them again to
// the next server, and the client never sees the handover.
func replayableCall(r *tools.Registry) func(*jsonrpc.Request) bool {
	return func(req *jsonrpc.Request) bool {
		if req.Method != "tools/call" {
			return true
		}
		var p struct {
			Name string `json:"name"`
		}
		if json.Unmarshal(req.Params, &p) != nil {
			return true // answered with an error, whichever server reads it
		}
		t, ok := r.Lookup(p.Name)
		return !ok || t.Annotations().ReadOnly
	}
}

// ServeStdio serves MCP on in/out until the input ends or ctx is cancelled.
func ServeStdio(ctx context.Context, d *tools.Dispatcher, in io.Reader, out io.Writer) error {
	return Serve(ctx, d, in, out, nil, nil)
}

// HandoverWait bounds how long a stopping server gives the calls that
// change state (not read-only: learn, ingest, apply…) its attached clients
// have in flight before it hands their sessions over
// (transport.HandoverMethod): such calls still running then are called off
// and their relays answer them with a retryable error; read-only calls are
// not waited for, their relays send them to the next server. StopWait
// bounds the wait, after a signal, for the calls of the server's own
// session to stop. Both are short: MCP clients send SIGKILL 2 s after
// SIGTERM, and the server must save before that.
var (
	HandoverWait = 500 * time.Millisecond
	StopWait     = time.Second
)

// Serve serves MCP on in/out and on every client attached through ln (nil:
// none), all as sessions of one server over one dispatcher, so they share
// the graph and its learning. It returns when ctx is cancelled, or when in
// has ended and no attached session is open: the owner outlives its own
// client while another editor still uses it. When ctx is cancelled (the
// process is stopped) the session on in/out ends at once, calling off its
// calls in flight, and each attached session is handed over: its calls get
// HandoverWait to finish, then its relay is told which were called off
// (the relay then takes over the runtime directory or attaches to the
// process that did). Each session gets the log messages it asks for from
// log (nil: none; see NewMCPServer).
func Serve(ctx context.Context, d *tools.Dispatcher, in io.Reader, out io.Writer, ln net.Listener, log *Log) error {
	if log == nil {
		log = NewLog(d.Session.Logf)
	}
	srv := NewMCPServer(d, log)
	if ln == nil {
		return serveSession(ctx, srv, d, log, in, out)
	}
	var gate attach.Gate
	handover := make(chan struct{})
	stopHandover := context.AfterFunc(ctx, func() { close(handover) })
	defer stopHandover()
	accepting := make(chan struct{})
	go func() {
		defer close(accepting)
		attach.Serve(ln, &gate, helloFor(d), func(c net.Conn) { serveAttached(srv, d, log, c, handover) }, d.Session.Logf)
	}()
	err := serveSession(ctx, srv, d, log, in, out)
	if n := gate.Open(); n > 0 && ctx.Err() == nil {
		d.Session.Logf("stdin closed; still serving %d attached client(s), exiting when the last one leaves", n)
		// MCP clients send SIGTERM 2 s after closing stdin and SIGKILL 2 s
		// after that: save now, so that a final save the SIGKILL cuts
		// short (a large graph, a slow disk) loses at most those seconds.
		d.Session.Go("persist: own client left", func(context.Context) error {
			_, err := d.Session.PersistLearned("own client left")
			return err
		})
	}
	gate.Shut(ctx)
	if n := gate.Open(); n > 0 {
		d.Session.Logf("stopping: handing %d attached client(s) over (their relays take the runtime directory over once this process has saved)", n)
	}
	ln.Close()
	<-accepting
	return err
}

// serveSession serves one MCP session on in/out until the input ends or
// ctx is cancelled. On ctx's end the input is closed, which calls off the
// calls in flight (their contexts end); it waits up to StopWait for them.
func serveSession(ctx context.Context, srv *mcp.Server, d *tools.Dispatcher, log *Log, in io.Reader, out io.Writer) error {
	t := &transport.Stdio{In: in, Out: out, Barrier: exclusiveCall(d.Registry)}
	ss, err := connect(ctx, srv, d, log, t)
	if err != nil {
		return err
	}
	defer log.attach(ss)()
	done := make(chan error, 1)
	go func() { done <- ss.Wait() }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	// Not ss.Close: it waits for the calls in flight to finish, and a
	// long ingest would hold the process for as long as it runs.
	t.Conn().Close()
	select {
	case err := <-done:
		return err
	case <-time.After(StopWait):
		d.Session.Logf("a call did not stop within %v of being called off; exiting without its answer", StopWait)
		return ctx.Err()
	}
}

// serveAttached serves one attached client's session until it ends, or,
// once handover is closed, hands it over (transport.Stdio.Handover).
func serveAttached(srv *mcp.Server, d *tools.Dispatcher, log *Log, c net.Conn, handover <-chan struct{}) {
	t := &transport.Stdio{In: c, Out: c, Barrier: exclusiveCall(d.Registry), Handover: handover, HandoverWait: HandoverWait, Replayable: replayableCall(d.Registry)}
	ss, err := connect(context.Background(), srv, d, log, t)
	if err != nil {
		return
	}
	defer log.attach(ss)()
	done := make(chan error, 1)
	go func() { done <- ss.Wait() }()
	select {
	case <-done:
		return
	case <-handover:
	}
	// Once the relay is told, the session is over for this process: the
	// calls called off wind down while it saves (a save is a consistent
	// cut of the graph and the learn journal, whatever still runs).
	select {
	case <-done:
	case <-t.Conn().HandedOver():
	case <-time.After(HandoverWait + StopWait): // hang guard; the relay then sees the connection end
	}
}

// helloFor greets attached clients with this process and the roots the
// shared graph holds.
func helloFor(d *tools.Dispatcher) func() attach.Hello {
	return func() attach.Hello {
		roots := []string{}
		for _, r := range d.Session.Current().Roots {
			roots = append(roots, r.Path)
		}
		return attach.Hello{Pid: os.Getpid(), Roots: roots, Config: HandoverConfig(d.Session.Config())}
	}
}
