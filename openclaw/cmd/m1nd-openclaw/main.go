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
	"strings"
	"syscall"

	"github.com/m1nd-go/m1nd/mcpserver"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
	"github.com/m1nd-go/m1nd/openclaw"
)

var version = "0.1.0-dev"

const usage = `m1nd-openclaw — m1nd tools on a Unix socket (JSON lines).

Usage:
  m1nd-openclaw [flags]

Flags:
  --socket PATH            socket path (default $M1ND_OPENCLAW_SOCKET or /tmp/m1nd-openclaw.sock)
  --config FILE            JSON configuration file (as m1nd-mcp's)
  --graph PATH             graph snapshot path
  --plasticity PATH        learned-weights file path
  --runtime-dir DIR        runtime directory (graph, plasticity, sidecars)
  --domain NAME            domain (default "code")
  --default-agent-id ID    agent_id injected when a request has none
                           (default $M1ND_OPENCLAW_AGENT_ID or "openclaw")
  --ingest PATH            ingest PATH at start when the graph is empty
  --version, --help

Protocol:
  → {"id": 1, "tool": "activate", "arguments": {"query": "auth"}}
  ← {"id": 1, "ok": true, "result": {...}, "elapsed_ms": 3.1}
`

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	logf := func(format string, a ...any) { fmt.Fprintf(stderr, "[m1nd-openclaw] "+format+"\n", a...) }
	socket := os.Getenv("M1ND_OPENCLAW_SOCKET")
	if socket == "" {
		socket = openclaw.DefaultSocket
	}
	agent := os.Getenv("M1ND_OPENCLAW_AGENT_ID")
	var opts mcpserver.Options
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
			return 0
		case "--version":
			fmt.Fprintf(stdout, "m1nd-openclaw %s\n", version)
			return 0
		case "--socket":
			socket, ok = value()
		case "--config":
			opts.ConfigFile, ok = value()
		case "--graph":
			opts.GraphSource, ok = value()
		case "--plasticity":
			opts.PlasticityState, ok = value()
		case "--runtime-dir":
			opts.RuntimeDir, ok = value()
		case "--domain":
			opts.Domain, ok = value()
		case "--default-agent-id":
			agent, ok = value()
		case "--ingest":
			opts.IngestOnStart, ok = value()
		default:
			logf("unknown argument %s\n%s", args[i], usage)
			return 2
		}
		if !ok {
			return 2
		}
	}
	tools.ServerVersion = version
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	d, err := mcpserver.Open(ctx, opts, os.Getenv, logf)
	if err != nil {
		logf("%v", err)
		return 1
	}
	ln, err := openclaw.Listen(socket)
	if err != nil {
		logf("%v", err)
		d.Session.Close()
		return 1
	}
	defer os.Remove(socket)
	g := d.Session.Current().Graph
	logf("listening on %s: %d nodes, %d edges, %d tools", socket, g.NumNodes(), g.NumEdges(), len(d.Registry.All()))
	b := &openclaw.Bridge{Dispatcher: d, DefaultAgent: agent, Logf: logf}
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
