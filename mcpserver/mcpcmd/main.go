// Package mcpcmd is the m1nd-mcp command as a library, so other commands
// (the m1nd CLI's serve) run the very same server: Main parses flags and
// configuration, handles signals, and hands stdin/stdout to the server —
// its own, or the one already running on the same runtime directory.
package mcpcmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/m1nd-go/m1nd/mcpserver"
	"github.com/m1nd-go/m1nd/mcpserver/attach"
	"github.com/m1nd-go/m1nd/mcpserver/buildinfo"
	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

// version is set with -ldflags
// "-X github.com/m1nd-go/m1nd/mcpserver/mcpcmd.version=...".
var version = buildinfo.Placeholder

const usage = `m1nd-mcp — local MCP runtime for coding agents (stdio).

Usage:
  m1nd-mcp [CONFIG.json] [flags]

Flags (shared by m1nd-mcp, m1nd-openclaw and m1nd serve):
` + mcpserver.FlagsUsage + `
m1nd-mcp only:
  --no-attach            refuse to start when another server holds the runtime
                         directory, and accept no attached clients
  --stdio                serve MCP on stdin/stdout (the default)
  --no-gui               accepted for compatibility (there is no GUI)
  --version              print the version
  --help                 this help

One graph for several editors: a second m1nd-mcp started on a runtime directory
that a running server holds attaches to it (through the socket m1nd.sock in that
directory, or under the temp directory when that path is too long) and relays
its stdio there, so both share the graph and its learning; its other settings
(--ingest, --allow-root, CONFIG.json) do not apply. The server that holds the
directory exits when its own stdin has closed and no attached client is left.

Configuration precedence: CONFIG.json, then environment (M1ND_GRAPH_SOURCE,
M1ND_PLASTICITY_STATE, M1ND_RUNTIME_DIR, M1ND_XLR_ENABLED, M1ND_DOMAIN,
M1ND_AUTO_PERSIST_INTERVAL, M1ND_ALLOW_ROOTS), then flags, then defaults. Logs go to stderr;
stdout carries only protocol messages.
`

// Main runs m1nd-mcp with args (without the program name) on the given
// stdio and returns its exit code.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	// Every component logs through one log/slog log: stderr always, and
	// the connected clients that ask for log messages.
	log := mcpserver.NewLog(func(format string, a ...any) {
		fmt.Fprintf(stderr, "[m1nd] "+format+"\n", a...)
	})
	logf := log.Printf
	f, code := parseFlags(args, stdout, logf)
	if code >= 0 {
		return code
	}
	if isTerminal(stdin) {
		logf("%s", terminalHint(args, executable()))
	}
	tools.ServerVersion = version
	if !f.noAttach {
		session.AttachSocket = attach.SocketPath
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	d, cl, err := openOrAttach(ctx, f.opts, f.noAttach, logf)
	switch {
	case err != nil:
		logf("%v", err)
		return 1
	case cl != nil:
		return runAttached(ctx, cl, f.opts, stdin, stdout, logf)
	}
	return runOwner(ctx, d, f.noAttach, stdin, stdout, log)
}

type flags struct {
	opts     mcpserver.Options
	noAttach bool
}

// parseFlags reads the command line; code is the exit code when the
// process is done (help, version, a bad flag), else -1.
func parseFlags(args []string, stdout io.Writer, logf func(string, ...any)) (f flags, code int) {
	o := &f.opts
	for i := 0; i < len(args); i++ {
		a := args[i]
		name, val, hasVal := strings.Cut(a, "=")
		needVal := func() (string, bool) {
			if hasVal {
				return val, true
			}
			if i+1 < len(args) {
				i++
				return args[i], true
			}
			logf("%s needs a value", name)
			return "", false
		}
		var ok = true
		switch name {
		case "-h", "--help", "-help":
			fmt.Fprint(stdout, usage)
			return f, 0
		case "--version", "-version":
			fmt.Fprintf(stdout, "m1nd-mcp %s\n", version)
			return f, 0
		case "--stdio", "--no-gui":
		case "--no-attach":
			f.noAttach = true
		default:
			var known bool
			if known, ok = o.SetFlag(name, needVal); known {
				break
			}
			if strings.HasPrefix(a, "-") {
				logf("unknown flag %s\n%s", a, usage)
				return f, 2
			}
			if o.ConfigFile != "" {
				logf("unexpected argument %q (only one config file)", a)
				return f, 2
			}
			o.ConfigFile = a
		}
		if !ok {
			return f, 2
		}
	}
	return f, -1
}

// attachPatience bounds the wait for a starting owner's socket. Editors
// give up on a silent server well before; this only ends a wait on an
// owner whose socket never comes up (its log says why).
const attachPatience = 5 * time.Minute

// openOrAttach opens the runtime directory, or, when another server holds
// it and offers a socket, connects to that server. While that server is
// still loading (no socket yet) or shutting down, it waits and retries:
// once the directory is free, this process opens it itself.
func openOrAttach(ctx context.Context, opts mcpserver.Options, noAttach bool, logf func(string, ...any)) (*tools.Dispatcher, *attach.Client, error) {
	var waiting time.Time
	for {
		d, err := mcpserver.Open(ctx, opts, os.Getenv, logf)
		var busy *session.BusyError
		if err == nil || noAttach || !errors.As(err, &busy) {
			return d, nil, err
		}
		if busy.Socket == "" && busy.Owner != "" {
			return nil, nil, fmt.Errorf("%w (that server accepts no attached clients: it is an m1nd-openclaw, an older m1nd-mcp, or was started with --no-attach)", err)
		}
		if busy.Socket != "" {
			cl, err := attach.Dial(busy.Socket)
			if err == nil {
				return nil, cl, nil
			}
			if !attach.Retryable(err) {
				return nil, nil, err
			}
		}
		if waiting.IsZero() {
			waiting = time.Now()
			logf("the server holding %s is starting or stopping; waiting for it", busy.Lock)
		} else if time.Since(waiting) > attachPatience {
			return nil, nil, fmt.Errorf("%w; its socket %s did not answer within %v — its log says why. Stop it, or start this one with --no-attach and another --runtime-dir", err, busy.Socket, attachPatience)
		}
		select {
		case <-ctx.Done():
			return nil, nil, fmt.Errorf("stopped while waiting for the server holding %s", busy.Lock)
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// runOwner serves this process's stdio and, unless noAttach, the clients
// attached through the runtime directory's socket; then persists.
func runOwner(ctx context.Context, d *tools.Dispatcher, noAttach bool, stdin io.Reader, stdout io.Writer, log *mcpserver.Log) int {
	logf := log.Printf
	st := d.Session
	g := st.Current().Graph
	logf("server ready: %d nodes, %d edges, %d tools (%s)", g.NumNodes(), g.NumEdges(), len(d.Registry.All()), version)
	var ln net.Listener // stays a nil interface when there is no socket
	if dir := st.Config().RuntimeDir; dir != "" && !noAttach {
		if l, err := attach.Listen(dir); err != nil {
			logf("%v; other editors on this runtime directory cannot attach", err)
		} else {
			ln = l
			logf("other editors on this runtime directory attach through %s", l.Addr())
		}
	}
	err := mcpserver.Serve(ctx, d, stdin, stdout, ln, log)
	if ctx.Err() != nil {
		logf("signal received, persisting and exiting")
	}
	if cerr := st.Close(); cerr != nil {
		logf("final persist failed: %v", cerr)
		return 1
	}
	if err != nil && ctx.Err() == nil && err != io.EOF {
		logf("server stopped: %v", err)
	}
	return 0
}

// runAttached relays stdio to the running server. Settings only an owner
// uses are named when given, so nobody wonders why they had no effect.
func runAttached(ctx context.Context, cl *attach.Client, opts mcpserver.Options, stdin io.Reader, stdout io.Writer, logf func(string, ...any)) int {
	h := cl.Hello
	logf("attached to the running server (pid %d) on %s: graph and learning are shared", h.Pid, cl.Socket)
	if p := opts.IngestOnStart; p != "" && !containsPath(h.Roots, p) {
		logf("--ingest %s not done: the running server's graph is built from %v and this process shares it; call the ingest tool to add that directory, or give it its own --runtime-dir", p, h.Roots)
	}
	if len(opts.AllowRoots) > 0 {
		logf("--allow-root %v ignored: the running server keeps its own allowed roots", opts.AllowRoots)
	}
	if err := cl.Pipe(ctx, stdin, stdout); err != nil && ctx.Err() == nil {
		logf("%v", err)
		return 1
	}
	return 0
}

// containsPath reports whether p names one of roots, after resolving
// symlinks on both sides.
func containsPath(roots []string, p string) bool {
	real := func(p string) string {
		if abs, err := filepath.Abs(p); err == nil {
			p = abs
		}
		if r, err := filepath.EvalSymlinks(p); err == nil {
			return r
		}
		return filepath.Clean(p)
	}
	rp := real(p)
	for _, r := range roots {
		if real(r) == rp {
			return true
		}
	}
	return false
}
