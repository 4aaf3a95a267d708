package mcpserver

import (
	"context"
	"encoding/json"
	"sync/atomic"
	"time"

	"github.com/m1nd-go/m1nd/mcpserver/tools"
	"github.com/m1nd-go/m1nd/mcpserver/transport"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// runTool runs a tools/call of the tool name, as the SDK's handler and
// the transport's plain calls (plainCalls) both do: through the events
// hook, logged, rendered by toMCP.
func runTool(ctx context.Context, d *tools.Dispatcher, log *Log, name string, args json.RawMessage, progress tools.Progress, structured bool) *mcp.CallToolResult {
	return toMCP(callTool(ctx, d, log, name, args, progress), structured)
}

// callTool is runTool's call, before toMCP.
func callTool(ctx context.Context, d *tools.Dispatcher, log *Log, name string, args json.RawMessage, progress tools.Progress) tools.Result {
	start := time.Now()
	res := EventsOf(d).Observe(name, "mcp", args, progress, func(p tools.Progress) tools.Result {
		return d.Call(ctx, name, args, p)
	})
	log.Logger().Debug("tools/call", "tool", name, "is_error", res.IsError, "elapsed_ms", time.Since(start).Milliseconds())
	return res
}

// plainCalls lets the transport answer a plain tools/call itself
// (transport.CallFunc) when the SDK would only have handed it to the
// tool's handler: the session ss is initialised, and the tool, under any
// accepted name, is one tools/list offers. Anything else — before
// initialize, an unknown tool, a tool whose toolset is off — is left to
// the SDK and normalizeToolNames, which answer it as before.
func plainCalls(d *tools.Dispatcher, log *Log, ss *atomic.Pointer[mcp.ServerSession]) transport.CallFunc {
	schemas := d.Session.Config().OutputSchemas
	return func(name string, args json.RawMessage) func(context.Context) (json.RawMessage, error) {
		if s := ss.Load(); s == nil || s.InitializeParams() == nil {
			return nil
		}
		t, ok := d.Registry.Lookup(name)
		if !ok || !offeredTools(d)(t) {
			return nil
		}
		return func(ctx context.Context) (json.RawMessage, error) {
			res := callTool(tools.PooledAnswers(ctx), d, log, t.Name, args, nil)
			out, err := pooledAnswer(toolAnswer{toMCP(res, schemas && t.Output != nil)})
			res.Release() // out holds the answer's own copy: nothing reads res's text now
			return out, err
		}
	}
}

// connect connects srv to the stdio transport t, which answers plain
// tools/calls itself once the session is known (plainCalls) and hands
// their answers' buffers back when written (releaseAnswer).
func connect(ctx context.Context, srv *mcp.Server, d *tools.Dispatcher, log *Log, t *transport.Stdio) (*mcp.ServerSession, error) {
	var ss atomic.Pointer[mcp.ServerSession]
	t.Call, t.Release = plainCalls(d, log, &ss), releaseAnswer
	s, err := srv.Connect(ctx, t, nil)
	if err == nil {
		ss.Store(s)
	}
	return s, err
}
