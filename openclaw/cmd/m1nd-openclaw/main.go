// Command m1nd-openclaw serves m1nd's tools on a Unix socket for OpenClaw:
// one JSON request per line, one JSON response per line. It shares the
// server's configuration, session and dispatch with m1nd-mcp.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/m1nd-go/m1nd/mcpserver/tools/system"

	"github.com/m1nd-go/m1nd/mcpserver"
	"github.com/m1nd-go/m1nd/mcpserver/buildinfo"
	"github.com/m1nd-go/m1nd/openclaw"
)

var version = buildinfo.Placeholder

const usage = `m1nd-openclaw — m1nd tools on a Unix socket (JSON lines).

Usage:
  m1nd-openclaw [flags]

Flags (shared with m1nd-mcp):
` + mcpserver.FlagsUsage + `
m1nd-openclaw only:
  --socket PATH            socket path (default $M1ND_OPENCLAW_SOCKET or /tmp/m1nd-openclaw.sock)
  --default-agent-id ID    agent_id injected when a request has none
                           (default $M1ND_OPENCLAW_AGENT_ID or "openclaw")
  --version, --help

Limits (a client past one gets an error line saying which):
  --max-connections N      connections served at once; more are refused (default 64)
  --idle-timeout DUR       close a connection without a request for DUR (default 5m)
  --read-timeout DUR       a request line must arrive in full within DUR of its
                           first byte (default 30s)
  --write-timeout DUR      a client must read a response within DUR (default 30s)
  --max-request-bytes N    longest request line; longer ones are discarded (default 8388608)
  --max-buffered-bytes N   request bytes held across all connections (default 67108864)
  DUR is a Go duration: 500ms, 30s, 5m, 1h.

Protocol:
  → {"id": 1, "tool": "activate", "arguments": {"query": "auth"}}
  ← {"id": 1, "ok": true, "result": {...}, "elapsed_ms": 3.1}
`

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	logf := func(format string, a ...any) { fmt.Fprintf(stderr, "[m1nd-openclaw] "+format+"\n", a...) }
	cfg, code := parseArgs(args, stdout, logf)
	if code >= 0 {
		return code
	}
	system.ServerVersion = version
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	d, err := mcpserver.Open(ctx, cfg.opts, os.Getenv, logf)
	if err != nil {
		logf("%v", err)
		return 1
	}
	ln, err := openclaw.Listen(cfg.socket)
	if err != nil {
		logf("%v", err)
		d.Session.Close()
		return 1
	}
	defer os.Remove(cfg.socket)
	g := d.Session.Current().Graph
	logf("listening on %s: %d nodes, %d edges, %d tools", cfg.socket, g.NumNodes(), g.NumEdges(), len(d.Registry.All()))
	b := cfg.bridge
	b.Dispatcher, b.Logf = d, logf
	serveErr := b.Serve(ctx, ln)
	logf("shutting down, persisting")
	if err := d.Session.Close(); err != nil {
		logf("final persist failed: %v", err)
		return 1
	}
	if serveErr != nil {
		logf("%v", serveErr)
		return 1
	}
	return 0
}

type config struct {
	socket string
	opts   mcpserver.Options
	bridge *openclaw.Bridge
}

// parseArgs reads the flags; code is an exit code when the command is
// done (help, version, a bad flag), -1 to go on serving.
func parseArgs(args []string, stdout io.Writer, logf func(string, ...any)) (cfg config, code int) {
	cfg.socket = os.Getenv("M1ND_OPENCLAW_SOCKET")
	if cfg.socket == "" {
		cfg.socket = openclaw.DefaultSocket
	}
	cfg.bridge = &openclaw.Bridge{DefaultAgent: os.Getenv("M1ND_OPENCLAW_AGENT_ID")}
	b, opts := cfg.bridge, &cfg.opts
	for i := 0; i < len(args); i++ {
		name, val, hasVal := strings.Cut(args[i], "=")
		value := func() (string, bool) {
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
		ok := true
		switch name {
		case "-h", "--help":
			fmt.Fprint(stdout, usage)
			return cfg, 0
		case "--version":
			fmt.Fprintf(stdout, "m1nd-openclaw %s\n", version)
			return cfg, 0
		case "--socket":
			cfg.socket, ok = value()
		case "--default-agent-id":
			b.DefaultAgent, ok = value()
		case "--max-connections", "--max-request-bytes", "--max-buffered-bytes":
			ok = setCount(b, name, value, logf)
		case "--idle-timeout", "--read-timeout", "--write-timeout":
			ok = setDuration(b, name, value, logf)
		default:
			var known bool
			if known, ok = opts.SetFlag(name, value); !known {
				logf("unknown argument %s\n%s", args[i], usage)
				return cfg, 2
			}
		}
		if !ok {
			return cfg, 2
		}
	}
	if b.MaxBufferedBytes > 0 && b.MaxBufferedBytes < int64(orDefault(b.MaxRequestBytes, openclaw.DefaultMaxRequestBytes)) {
		logf("--max-buffered-bytes (%d) must be at least --max-request-bytes, or no request of the largest size could ever be read", b.MaxBufferedBytes)
		return cfg, 2
	}
	return cfg, -1
}

func setCount(b *openclaw.Bridge, name string, value func() (string, bool), logf func(string, ...any)) bool {
	s, ok := value()
	if !ok {
		return false
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n <= 0 || n > 1<<40 {
		logf("%s needs a positive whole number, got %q", name, s)
		return false
	}
	switch name {
	case "--max-connections":
		b.MaxConnections = int(n)
	case "--max-request-bytes":
		b.MaxRequestBytes = int(n)
	case "--max-buffered-bytes":
		b.MaxBufferedBytes = n
	}
	return true
}

func setDuration(b *openclaw.Bridge, name string, value func() (string, bool), logf func(string, ...any)) bool {
	s, ok := value()
	if !ok {
		return false
	}
	d, err := time.ParseDuration(s)
	if err != nil || d <= 0 {
		logf("%s needs a positive duration such as 30s or 5m, got %q", name, s)
		return false
	}
	switch name {
	case "--idle-timeout":
		b.IdleTimeout = d
	case "--read-timeout":
		b.ReadTimeout = d
	case "--write-timeout":
		b.WriteTimeout = d
	}
	return true
}

func orDefault(v, def int) int {
	if v <= 0 {
		return def
	}
	return v
}
