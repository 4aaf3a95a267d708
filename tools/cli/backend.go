package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/m1nd-go/m1nd/mcpserver"
	"github.com/m1nd-go/m1nd/mcpserver/attach"
	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

// AgentID is the agent_id the CLI calls tools with.
const AgentID = "cli"

// backend runs tool calls: in this process on the runtime directory, or
// through the server that holds it.
type backend interface {
	// Call returns the tool's JSON text and whether it is a teaching error;
	// err means the call could not be made at all.
	Call(ctx context.Context, tool string, args json.RawMessage, progress tools.Progress) (text string, isError bool, err error)
	Close() error
}

// local is the runtime directory opened in this process: the same
// mcpserver.Open and dispatcher as the server.
type local struct{ d *tools.Dispatcher }

func (l local) Call(ctx context.Context, tool string, args json.RawMessage, p tools.Progress) (string, bool, error) {
	r := l.d.Call(ctx, tool, args, p)
	return r.Text(), r.IsError, nil
}

func (l local) Close() error { return l.d.Session.Close() }

// exitError ends the command with code, after printing msg.
type exitError struct {
	code int
	msg  string
}

func (e *exitError) Error() string { return e.msg }

func exitf(code int, format string, a ...any) error {
	return &exitError{code, fmt.Sprintf(format, a...)}
}

var setAttachSocket sync.Once

// open opens the runtime directory, or talks to the server holding it.
// While the holder offers no socket yet (a server loading its graph,
// another m1nd command), it waits up to --wait, then opens it itself.
func open(ctx context.Context, e *env, inv *invocation, rt runtimeDir, allow []string) (backend, error) {
	// The lock file then names the socket a server would use: a server
	// starting while this command holds the directory waits for it to
	// finish instead of refusing, and a second m1nd waits likewise.
	setAttachSocket.Do(func() { session.AttachSocket = attach.SocketPath })
	opts := mcpserver.Options{RuntimeDir: rt.Path, AllowRoots: append(inv.Opts.AllowRoots, allow...)}
	deadline := time.Now().Add(inv.Opts.Wait)
	waiting := false
	for {
		d, err := mcpserver.Open(ctx, opts, e.Getenv, e.ui.logf)
		var busy *session.BusyError
		switch {
		case err == nil:
			return local{d}, nil
		case !errors.As(err, &busy):
			return nil, exitf(ExitFailure, "cannot open %s: %v", rt.Path, err)
		case inv.Opts.NoAttach:
			return nil, exitf(ExitBusy, "%s is held by %s (--no-attach: not talking to it)", rt.Path, owner(busy))
		case busy.Socket == "" && busy.Owner != "":
			return nil, exitf(ExitBusy, "%s is held by %s, which accepts no connections (an m1nd-openclaw, an older m1nd-mcp, or one started with --no-attach): stop it, or use another --runtime-dir", rt.Path, owner(busy))
		}
		if busy.Socket != "" {
			cl, err := attach.Dial(busy.Socket)
			if err == nil {
				e.ui.notef("a server (pid %d) holds %s; talking to it", cl.Hello.Pid, rt.Path)
				return dialRemote(ctx, cl)
			}
			if !attach.Retryable(err) {
				return nil, exitf(ExitBusy, "%s is held by %s and talking to it failed: %v", rt.Path, owner(busy), err)
			}
		}
		if time.Now().After(deadline) {
			return nil, exitf(ExitBusy, "%s is still held by %s, which did not answer within %v: it may be loading a large graph (retry with a longer --wait), or stuck (stop it)", rt.Path, owner(busy), inv.Opts.Wait)
		}
		if !waiting {
			waiting = true
			e.ui.notef("%s is held by %s, which is starting, stopping, or another m1nd command; waiting up to %v", rt.Path, owner(busy), inv.Opts.Wait)
		}
		select {
		case <-ctx.Done():
			return nil, exitf(ExitFailure, "interrupted while waiting for %s", rt.Path)
		case <-time.After(100 * time.Millisecond):
		}
	}
}

func owner(b *session.BusyError) string {
	if b.Pid > 0 {
		return fmt.Sprintf("pid %d", b.Pid)
	}
	if b.Owner != "" {
		return b.Owner
	}
	return "another process"
}
