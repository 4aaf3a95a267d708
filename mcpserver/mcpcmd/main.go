// Package mcpcmd is the m1nd-mcp command as a library, so other commands
// (the m1nd CLI's serve) run the very same server: Main parses flags and
// configuration, handles signals, and hands stdin/stdout to the server —
// its own, or the one already running on the same runtime directory.
package mcpcmd

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/m1nd-go/m1nd/mcpserver/tools/live"
	"github.com/m1nd-go/m1nd/mcpserver/tools/system"
	"github.com/m1nd-go/m1nd/mcpserver/tools/toolset"

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
  --stdio                serve MCP on stdin/stdout (the default; with --serve, too)
  --serve                serve HTTP: MCP (streamable HTTP) at /mcp and a REST API
                         at /api (GET /api/health, GET /api/tools,
                         POST /api/tools/{name}, GET /api/graph/stats); with
                         --stdio both share one graph and its learning
  --port N               HTTP port (default 1337; 0: any free port, logged)
  --bind ADDR            HTTP address (default 127.0.0.1); any other than
                         loopback needs a token
  --token T              HTTP clients must send "Authorization: Bearer T"
                         (default: $M1ND_HTTP_TOKEN)
  --open                 open the UI (http://BIND:PORT/) in a browser once serving
  --event-log FILE       append every event GET /api/events streams (tool calls
                         from any transport, progress) to FILE as JSON lines
  --no-gui               accepted for compatibility (there is no GUI)
  --version              print the version
  --help                 this help

One graph for several editors: a second m1nd-mcp started on a runtime directory
that a running server holds attaches to it (through the socket m1nd.sock in that
directory, or under the temp directory when that path is too long) and relays
its stdio there, so both share the graph and its learning; its other settings
(--ingest, --allow-root, CONFIG.json) do not apply. The server that holds the
directory exits when its own stdin has closed and no attached client is left;
stopped (SIGTERM) or killed before that, it hands the graph over: an attached
process takes the directory over, the others attach to it, and their editors'
sessions carry on.

Configuration precedence: CONFIG.json, then environment (M1ND_GRAPH_SOURCE,
M1ND_PLASTICITY_STATE, M1ND_RUNTIME_DIR, M1ND_XLR_ENABLED, M1ND_DOMAIN,
M1ND_AUTO_PERSIST_INTERVAL, M1ND_ALLOW_ROOTS, M1ND_ACTIVATE_MAX_FIRED,
M1ND_XLR_PULSE_BUDGET), then flags, then defaults. Logs go to stderr;
stdout carries only protocol messages.
`

// Main runs m1nd-mcp with args (without the program name) on the given
// stdio and returns its exit code.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	// Every component logs through one log/slog log: stderr always, and
	// the connected clients that ask for log messages.
	var stderrMu sync.Mutex // lines from concurrent goroutines stay whole
	log := mcpserver.NewLog(func(format string, a ...any) {
		stderrMu.Lock()
		defer stderrMu.Unlock()
		fmt.Fprintf(stderr, "[m1nd] "+format+"\n", a...)
	})
	logf := log.Printf
	f, code := parseFlags(args, stdout, logf)
	if code >= 0 {
		return code
	}
	if isTerminal(stdin) && !f.serve {
		logf("%s", terminalHint(args, executable()))
	}
	system.ServerVersion = version
	if !f.noAttach {
		session.AttachSocket = attach.SocketPath
	}

	// A signal calls off whatever runs: the start-up ingest, a tool call
	// (an ingest reading a long history), the wait for another server.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	// So does the end of stdin while starting, when the client asked
	// nothing but the handshake: it has left.
	if f.serve && !f.stdio {
		// HTTP only: serve until stopped; stdin is not a client.
		stdin, stdout = untilDone{ctx}, io.Discard
	}
	in := newEarlyStdin(stdin)
	startCtx, callOff := context.WithCancel(ctx)
	defer callOff()
	started := make(chan struct{})
	go func() {
		select {
		case <-in.done:
			if !in.askedForWork() {
				logf("stdin closed before the server was ready, with no call sent: calling off the start-up work")
				callOff()
			}
		case <-started:
		}
	}()
	if f.serve && f.token == "" {
		f.token = os.Getenv("M1ND_HTTP_TOKEN")
	}
	httpLn, err := f.listen()
	if err != nil {
		logf("%v", err)
		return 2
	}
	// Serve mode needs the runtime directory itself: an HTTP server cannot
	// relay to another process's graph.
	d, cl, err := openOrAttach(startCtx, f.opts, f.noAttach || f.serve, logf)
	close(started)
	switch {
	case err != nil && ctx.Err() == nil && startCtx.Err() != nil && errors.Is(err, context.Canceled):
		logf("%v", err)
		return 0 // the client left while this process waited (a refusal is still one: below)
	case err != nil:
		logf("%v", err)
		return 1
	case cl != nil:
		return runAttached(ctx, cl, f.opts, in, stdout, log)
	}
	if f.eventLog != "" {
		if err := mcpserver.LogEvents(ctx, d, f.eventLog); err != nil {
			logf("%v", err)
			closeSession(ctx, d.Session, logf)
			return 2
		}
	}
	stopHTTP := func() {}
	if httpLn != nil {
		httpDone := make(chan error, 1)
		httpCtx, cancel := context.WithCancel(ctx)
		go func() {
			httpDone <- mcpserver.ServeHTTP(httpCtx, d, httpLn, mcpserver.HTTPOptions{Token: f.token}, log)
		}()
		logf("serving HTTP on http://%s: the UI at /, MCP at /mcp, REST at /api", httpLn.Addr())
		if f.open {
			openBrowser("http://"+httpLn.Addr().String()+"/", logf)
		}
		stopHTTP = func() {
			cancel()
			if err := <-httpDone; err != nil {
				logf("HTTP server: %v", err)
			}
		}
	}
	return runOwner(ctx, d, f.noAttach, in, stdout, log, stopHTTP)
}

type flags struct {
	opts     mcpserver.Options
	noAttach bool
	// Serve mode (--serve): HTTP on bind:port, with stdio too when
	// --stdio is given.
	serve, stdio bool
	open         bool
	bind, token  string
	port         string
	eventLog     string
}

// openBrowser asks the desktop to open url (--open); where there is no
// desktop it says so and serving goes on.
func openBrowser(url string, logf func(string, ...any)) {
	name, args := "xdg-open", []string{url}
	switch runtime.GOOS {
	case "darwin":
		name = "open"
	case "windows":
		name, args = "rundll32", []string{"url.dll,FileProtocolHandler", url}
	}
	cmd := exec.Command(name, args...)
	if err := cmd.Start(); err != nil {
		logf("--open: %s: %v; open %s yourself", name, err, url)
		return
	}
	go cmd.Wait()
}

// untilDone is serve mode's stdin without --stdio: it sends nothing and
// ends when the process is stopped.
type untilDone struct{ ctx context.Context }

func (u untilDone) Read([]byte) (int, error) {
	<-u.ctx.Done()
	return 0, io.EOF
}

// listen opens serve mode's listener (nil without --serve).
func (f flags) listen() (net.Listener, error) {
	if !f.serve {
		if f.port != "" || f.bind != "" || f.token != "" || f.open {
			return nil, errors.New("--port, --bind, --token and --open configure serve mode: add --serve (e.g. m1nd-mcp --serve --port 1337)")
		}
		return nil, nil
	}
	addr := net.JoinHostPort(cmp.Or(f.bind, "127.0.0.1"), cmp.Or(f.port, "1337"))
	if err := mcpserver.CheckBind(addr, f.token); err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("serve mode cannot listen on %s: %v (another --port, or --port 0 for any free one)", addr, err)
	}
	return ln, nil
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
		case "--no-gui":
		case "--stdio":
			f.stdio = true
		case "--serve":
			f.serve = true
		case "--open":
			f.open = true
		case "--port", "--bind", "--token", "--event-log":
			v, got := needVal()
			if !got {
				return f, 2
			}
			*map[string]*string{"--port": &f.port, "--bind": &f.bind, "--token": &f.token, "--event-log": &f.eventLog}[name] = v
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
			return nil, nil, fmt.Errorf("stopped while waiting for the server holding %s: %w", busy.Lock, ctx.Err())
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// runOwner serves this process's stdio and, unless noAttach, the clients
// attached through the runtime directory's socket; then stops serve
// mode's HTTP server (stopHTTP) and persists.
func runOwner(ctx context.Context, d *tools.Dispatcher, noAttach bool, stdin io.Reader, stdout io.Writer, log *mcpserver.Log, stopHTTP func()) int {
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
	stopHTTP()
	if !closeSession(ctx, st, logf) {
		return 1
	}
	if err != nil && ctx.Err() == nil && err != io.EOF {
		logf("server stopped: %v", err)
	}
	return 0
}

// runAttached relays stdio to the running server. Settings only an owner
// uses are named when given, so nobody wonders why they had no effect.
// When that server stops, the relay carries the session over to the next
// one (attach.Relay) — which may be this process: see successor.
func runAttached(ctx context.Context, cl *attach.Client, opts mcpserver.Options, stdin io.Reader, stdout io.Writer, log *mcpserver.Log) int {
	logf := log.Printf
	h := cl.Hello
	logf("attached to the running server (pid %d) on %s: graph and learning are shared", h.Pid, cl.Socket)
	if p := opts.IngestOnStart; p != "" && !containsPath(h.Roots, p) {
		logf("--ingest %s not done: the running server's graph is built from %v and this process shares it; call the ingest tool to add that directory, or give it its own --runtime-dir", p, h.Roots)
	}
	if len(opts.AllowRoots) > 0 {
		logf("--allow-root %v ignored: the running server keeps its own allowed roots", opts.AllowRoots)
	}
	s := &successor{log: log, config: h.Config}
	relay := &attach.Relay{Dial: s.dial, Logf: logf}
	err := relay.Run(ctx, cl, h, stdin, stdout)
	code := 0
	if err != nil && ctx.Err() == nil {
		logf("%v", err)
		code = 1
	}
	if s.d == nil {
		return code
	}
	// This process took the runtime directory over: like the first
	// owner, it serves the other attached clients until the last one
	// leaves (or hands them over in turn), then saves.
	<-s.served
	if !closeSession(ctx, s.d.Session, logf) {
		return 1
	}
	return code
}

// closeSession saves and releases the runtime directory; false when the
// save failed.
func closeSession(ctx context.Context, st *session.State, logf func(string, ...any)) bool {
	if ctx.Err() != nil {
		logf("signal received, persisting and exiting")
	}
	began := time.Now()
	if err := st.Close(); err != nil {
		logf("final persist failed: %v", err)
		return false
	}
	if dir := st.Config().RuntimeDir; dir != "" {
		logf("saved and released %s in %v", dir, time.Since(began).Round(time.Millisecond))
	}
	return true
}

// successor is what an attached process needs to take the runtime
// directory over when the server it relays to stops.
type successor struct {
	log    *mcpserver.Log
	config json.RawMessage // the last server's configuration (attach.Hello)
	d      *tools.Dispatcher
	served chan error
}

// dial waits for the next server of the runtime directory: the process
// that took its lock, or this one when it gets the lock first — it then
// loads the saved graph with the configuration the stopped server had
// (never re-ingesting: the graph is the one the editors shared), serves
// the socket, and serves this relay's session on a socket pair.
func (s *successor) dial(ctx context.Context) (attach.Conn, attach.Hello, error) {
	logf := s.log.Printf
	if s.d != nil {
		return nil, attach.Hello{}, errors.New("this process serves the runtime directory and stopped serving its own session")
	}
	var cfg session.Config
	if err := json.Unmarshal(s.config, &cfg); err != nil || cfg.RuntimeDir == "" {
		return nil, attach.Hello{}, fmt.Errorf("the stopped server did not say how it was configured (%v)", err)
	}
	cfg.IngestOnStart = ""
	deadline := time.Now().Add(attachPatience)
	for {
		st, err := session.Open(cfg, logf)
		if err == nil {
			return s.takeOver(ctx, st)
		}
		var busy *session.BusyError
		if !errors.As(err, &busy) {
			return nil, attach.Hello{}, err
		}
		if busy.Socket != "" {
			cl, err := attach.Dial(busy.Socket)
			if err == nil {
				s.config = cl.Hello.Config
				return cl, cl.Hello, nil
			}
			if !attach.Retryable(err) {
				return nil, attach.Hello{}, err
			}
		}
		if time.Now().After(deadline) {
			return nil, attach.Hello{}, fmt.Errorf("%w; no server answered on its socket within %v", err, attachPatience)
		}
		select {
		case <-ctx.Done():
			return nil, attach.Hello{}, ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// takeOver makes this process the server of the runtime directory whose
// lock st holds.
func (s *successor) takeOver(ctx context.Context, st *session.State) (attach.Conn, attach.Hello, error) {
	logf := s.log.Printf
	d := &tools.Dispatcher{Registry: toolset.Builtin(), Session: st}
	live.ResumeDaemon(d)
	live.ResumeAutoIngest(d)
	mine, served, err := attach.Pair()
	if err != nil {
		st.Close()
		return nil, attach.Hello{}, err
	}
	var ln net.Listener
	if l, err := attach.Listen(st.Config().RuntimeDir); err != nil {
		logf("%v; other editors on this runtime directory cannot attach", err)
	} else {
		ln = l
	}
	g := st.Current().Graph
	logf("took the runtime directory over: serving %d nodes, %d edges to this editor and the others attached (pid %d)", g.NumNodes(), g.NumEdges(), os.Getpid())
	s.d, s.served = d, make(chan error, 1)
	go func() { s.served <- mcpserver.Serve(ctx, d, served, served, ln, s.log) }()
	var roots []string
	for _, r := range st.Current().Roots {
		roots = append(roots, r.Path)
	}
	return mine, attach.Hello{Pid: os.Getpid(), Roots: roots, Config: mcpserver.HandoverConfig(st.Config())}, nil
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
