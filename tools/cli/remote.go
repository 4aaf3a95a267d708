package cli

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/m1nd-go/m1nd/mcpserver/attach"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// remote is an MCP client session with the server holding the runtime
// directory, over its attach socket: attach.Client relays bytes after the
// Hello, and the SDK's client speaks MCP over that relay.
type remote struct {
	pid    int
	cs     *mcp.ClientSession
	toSrv  *io.PipeWriter
	piped  chan error // attach.Client.Pipe's result
	stop   context.CancelFunc
	mu     sync.Mutex
	onProg tools.Progress
}

// closeWait bounds Close's wait for the server to finish the session: it
// answers every request sent before the half-close, so only a wedged
// server takes this long.
const closeWait = 30 * time.Second

func dialRemote(ctx context.Context, cl *attach.Client) (*remote, error) {
	reqR, reqW := io.Pipe()   // this client → server
	respR, respW := io.Pipe() // server → this client
	pctx, stop := context.WithCancel(context.Background())
	r := &remote{pid: cl.Hello.Pid, toSrv: reqW, piped: make(chan error, 1), stop: stop}
	go func() {
		err := cl.Pipe(pctx, reqR, respW)
		respW.Close() // the SDK client sees the end of the session
		r.piped <- err
	}()
	c := mcp.NewClient(&mcp.Implementation{Name: "m1nd-cli", Version: Version}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
			if p := r.progress(); p != nil && req.Params != nil {
				p(req.Params.Progress, req.Params.Total, req.Params.Message)
			}
		},
	})
	cs, err := c.Connect(ctx, &mcp.IOTransport{Reader: respR, Writer: reqW}, nil)
	if err != nil {
		reqW.Close()
		stop()
		return nil, exitf(ExitBusy, "the server (pid %d) holding the runtime directory did not complete the MCP handshake: %v", r.pid, err)
	}
	r.cs = cs
	return r, nil
}

func (r *remote) progress() tools.Progress {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.onProg
}

func (r *remote) Call(ctx context.Context, tool string, args json.RawMessage, p tools.Progress) (string, bool, error) {
	params := &mcp.CallToolParams{Name: tool, Arguments: args}
	if p != nil {
		r.mu.Lock()
		r.onProg = p
		r.mu.Unlock()
		params.SetProgressToken("m1nd-cli")
	}
	res, err := r.cs.CallTool(ctx, params)
	switch {
	case err != nil && ctx.Err() != nil:
		return "", false, exitf(ExitFailure, "interrupted: the server (pid %d) may still finish the call", r.pid)
	case errors.Is(err, mcp.ErrConnectionClosed) || errors.Is(err, io.EOF):
		return "", false, exitf(ExitFailure, "the server (pid %d) closed the connection before answering (it was stopped?): %v", r.pid, err)
	case err != nil:
		return "", false, exitf(ExitFailure, "the server (pid %d) refused the call: %v", r.pid, err)
	}
	var b strings.Builder
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			b.WriteString(t.Text)
		}
	}
	return b.String(), res.IsError, nil
}

// Close ends the session: closing the request pipe half-closes the
// socket, the server answers what it was sent and closes its side.
func (r *remote) Close() error {
	r.toSrv.Close()
	defer r.stop()
	select {
	case err := <-r.piped:
		r.cs.Close()
		return err
	case <-time.After(closeWait):
		r.cs.Close()
		return nil
	}
}
