// Command m1nd-mcp is m1nd's MCP server over stdio. It only parses flags
// and configuration, handles signals, and hands stdin/stdout to the server.
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
)

// version is set with -ldflags "-X main.version=...".
var version = "0.1.0-dev"

const usage = `m1nd-mcp — local MCP runtime for coding agents (stdio).

Usage:
  m1nd-mcp [CONFIG.json] [flags]

Flags:
  --runtime-dir DIR      keep the graph, plasticity and sidecars in DIR (enables persistence)
  --graph-source PATH    graph snapshot path (.json = JSON v3, otherwise binary)
  --plasticity-state P   learned-weights file path
  --ingest PATH          ingest PATH at start when the loaded graph is empty
  --allow-root DIR       let the ingest tool read DIR (repeatable; besides the
                         --ingest path and roots ingested before; with none of
                         these the working directory is the only root)
  --stdio                serve MCP on stdin/stdout (the default)
  --no-gui               accepted for compatibility (there is no GUI)
  --version              print the version
  --help                 this help

Configuration precedence: CONFIG.json, then environment (M1ND_GRAPH_SOURCE,
M1ND_PLASTICITY_STATE, M1ND_RUNTIME_DIR, M1ND_XLR_ENABLED, M1ND_DOMAIN,
M1ND_AUTO_PERSIST_INTERVAL, M1ND_ALLOW_ROOTS), then flags, then defaults. Logs go to stderr;
stdout carries only protocol messages.
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	logf := func(format string, a ...any) {
		fmt.Fprintf(stderr, "[m1nd] "+format+"\n", a...)
	}
	var cfgFile, runtimeDir, graphSource, plastState, ingestPath string
	var allowRoots []string
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
			return 0
		case "--version", "-version":
			fmt.Fprintf(stdout, "m1nd-mcp %s\n", version)
			return 0
		case "--stdio", "--no-gui":
		case "--runtime-dir":
			runtimeDir, ok = needVal()
		case "--graph-source":
			graphSource, ok = needVal()
		case "--plasticity-state":
			plastState, ok = needVal()
		case "--ingest":
			ingestPath, ok = needVal()
		case "--allow-root":
			var r string
			if r, ok = needVal(); ok {
				allowRoots = append(allowRoots, r)
			}
		default:
			if strings.HasPrefix(a, "-") {
				logf("unknown flag %s\n%s", a, usage)
				return 2
			}
			if cfgFile != "" {
				logf("unexpected argument %q (only one config file)", a)
				return 2
			}
			cfgFile = a
		}
		if !ok {
			return 2
		}
	}
	tools.ServerVersion = version

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	d, err := mcpserver.Open(ctx, mcpserver.Options{
		ConfigFile: cfgFile, RuntimeDir: runtimeDir, GraphSource: graphSource,
		PlasticityState: plastState, IngestOnStart: ingestPath, AllowRoots: allowRoots,
	}, os.Getenv, logf)
	if err != nil {
		logf("%v", err)
		return 1
	}
	st := d.Session
	g := st.Current().Graph
	logf("server ready: %d nodes, %d edges, %d tools (%s)", g.NumNodes(), g.NumEdges(), len(d.Registry.All()), version)

	err = mcpserver.ServeStdio(ctx, d, stdin, stdout)
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
