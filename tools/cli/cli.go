// Package cli is `m1nd`, the command line for people. It calls the same
// tool registry and dispatcher as the MCP server, on the same runtime
// directory; when a server holds that directory it talks to the server
// instead, as an MCP client over the server's attach socket.
package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/m1nd-go/m1nd/mcpserver/tools/system"
	"github.com/m1nd-go/m1nd/mcpserver/tools/toolset"

	"github.com/m1nd-go/m1nd/mcpserver/buildinfo"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

// Exit codes (m1nd help documents them).
const (
	ExitOK      = 0 // done
	ExitError   = 1 // the tool answered an error; doctor: something needs attention
	ExitUsage   = 2 // bad command line
	ExitBusy    = 3 // the runtime dir is held by a process m1nd cannot talk to
	ExitFailure = 4 // m1nd could not run the call (runtime dir unusable, server gone)
)

// Version is set with -ldflags "-X github.com/m1nd-go/m1nd/tools/cli.Version=...".
var Version = buildinfo.Placeholder

// env is the process the command runs in.
type env struct {
	Stdout, Stderr io.Writer
	Getenv         func(string) string
	Cwd            string
	StdoutTTY      bool
	StderrWidth    int // 0: stderr is not a terminal

	out style // stdout's colours
	ui  *ui
}

// Main runs m1nd with the process's stdio, environment and arguments.
func Main(ctx context.Context, args []string) int {
	cwd, err := os.Getwd()
	if err != nil {
		fmt.Fprintf(os.Stderr, "m1nd: %v\n", err)
		return ExitFailure
	}
	e := &env{Stdout: os.Stdout, Stderr: os.Stderr, Getenv: os.Getenv, Cwd: cwd,
		StdoutTTY: termWidth(os.Stdout) > 0, StderrWidth: termWidth(os.Stderr)}
	return run(ctx, e, args)
}

func run(ctx context.Context, e *env, args []string) int {
	reg := toolset.Builtin()
	inv, err := parse(args, reg)
	if err != nil {
		fmt.Fprintf(e.Stderr, "m1nd: %v\n", err)
		return ExitUsage
	}
	color := !inv.Opts.NoColor && colorAllowed(e.Getenv)
	e.out = style{color && e.StdoutTTY}
	e.ui = &ui{w: e.Stderr, width: e.StderrWidth, quiet: inv.Opts.JSON, verbose: inv.Opts.Verbose, st: style{color && e.StderrWidth > 0}}
	if inv.Opts.Help {
		return runHelp(e, reg, []string{inv.Cmd.Name}, inv.Tool)
	}
	switch inv.Cmd.Name {
	case "help":
		return runHelp(e, reg, inv.Rest, nil)
	case "version":
		fmt.Fprintf(e.Stdout, "m1nd %s (tools from m1nd-mcp %s)\n", Version, system.ServerVersion)
		return ExitOK
	case "doctor":
		return runDoctor(ctx, e, inv)
	case "serve":
		return runServe(e, inv)
	}
	return runTool(ctx, e, inv)
}

// runTool calls inv's tool and prints its answer.
func runTool(ctx context.Context, e *env, inv *invocation) int {
	rt := resolveRuntimeDir(inv.Opts.RuntimeDir, e.Cwd, e.Getenv)
	allow := prepareArgs(e, inv)
	if inv.Tool.Class == tools.Read && e.Getenv("M1ND_GRAPH_SOURCE") == "" {
		if _, err := os.Stat(rt.Path); err != nil {
			fmt.Fprintf(e.Stderr, "m1nd: no graph yet: %s does not exist\n  next: m1nd ingest %s\n", rt.Path, repoRoot(e.Cwd))
			return ExitError
		}
	}
	args, err := json.Marshal(inv.Args)
	if err != nil {
		fmt.Fprintf(e.Stderr, "m1nd: %v\n", err)
		return ExitUsage
	}
	b, err := open(ctx, e, inv, rt, allow)
	if err != nil {
		return report(e, err)
	}
	text, isErr, err := b.Call(ctx, inv.Tool.Name, args, e.ui.progress)
	if err == nil && !isErr && inv.Tool.Name == "ingest" {
		// An ingest's answer says it is done, whether or not its last
		// progress notifications arrived before it (an attached server's
		// may trail the answer, and an unchanged tree reports almost
		// none): its bar ends at 100 %.
		e.ui.progress(1, 1, "done")
	}
	e.ui.finish(err == nil && !isErr)
	if cerr := b.Close(); cerr != nil && err == nil {
		e.ui.notef("closing the runtime directory: %v", cerr)
	}
	switch {
	case err != nil:
		return report(e, err)
	case isErr && inv.Opts.JSON:
		fmt.Fprintln(e.Stdout, text)
		return ExitError
	case isErr:
		printToolError(e.Stderr, e.ui.st, inv.Tool.Name, text)
		return ExitError
	case inv.Opts.JSON:
		fmt.Fprintln(e.Stdout, text)
	default:
		render(e.Stdout, e.out, inv.Tool.Name, []byte(text))
		if inv.Tool.Name == "ingest" {
			// Where the graph and learned state live (git and most
			// searches skip it: it holds a .gitignore of "*").
			fmt.Fprintln(e.Stdout, e.out.dim("  runtime directory: "+rt.Path))
		}
	}
	return ExitOK
}

// prepareArgs fills what people leave out: agent_id, and ingest's path
// (this repository, made absolute: a server resolves it against its own
// directory). It returns the roots ingest may read: the path a person
// names is theirs to ingest, as --ingest is the server's.
func prepareArgs(e *env, inv *invocation) (allow []string) {
	a := inv.Args
	if _, ok := a["agent_id"]; !ok {
		a["agent_id"] = AgentID
	}
	if inv.Tool.Name == "ingest" {
		p, _ := a["path"].(string)
		if p == "" {
			p = repoRoot(e.Cwd)
		} else if !filepath.IsAbs(p) {
			p = filepath.Join(e.Cwd, p)
		}
		a["path"] = p
		return []string{p}
	}
	for _, k := range []string{"node_id", "source", "target", "file_path"} {
		if p, ok := a[k].(string); ok {
			a[k] = repoRelative(e.Cwd, p)
		}
	}
	return nil
}

// repoRelative rewrites a file named relative to a subdirectory of the
// repository as the tools read it: relative to the repository root.
// Anything else (node ids, labels, paths from the root) is left as typed.
func repoRelative(cwd, p string) string {
	root := repoRoot(cwd)
	if p == "" || filepath.IsAbs(p) || root == cwd {
		return p
	}
	abs := filepath.Join(cwd, p)
	if _, err := os.Stat(abs); err != nil {
		return p
	}
	if rel, err := filepath.Rel(root, abs); err == nil && !strings.HasPrefix(rel, "..") {
		return filepath.ToSlash(rel)
	}
	return p
}

// report prints an error that ended the command and returns its exit code.
func report(e *env, err error) int {
	var x *exitError
	if errors.As(err, &x) {
		fmt.Fprintf(e.Stderr, "m1nd: %s\n", x.msg)
		return x.code
	}
	fmt.Fprintf(e.Stderr, "m1nd: %v\n", err)
	return ExitFailure
}

// printToolError prints a teaching error: what went wrong, the hint, the
// next step and a valid call.
func printToolError(w io.Writer, st style, tool, text string) {
	var te struct {
		Error   string `json:"error"`
		Hint    string `json:"hint"`
		Next    string `json:"suggested_next_step"`
		Example struct {
			Name string         `json:"name"`
			Args map[string]any `json:"arguments"`
		} `json:"example"`
	}
	if json.Unmarshal([]byte(text), &te) != nil || te.Error == "" {
		fmt.Fprintf(w, "%s %s\n", st.red("m1nd "+tool+":"), text)
		return
	}
	fmt.Fprintf(w, "%s %s\n", st.red("m1nd "+tool+":"), te.Error)
	if te.Hint != "" {
		fmt.Fprintf(w, "  hint: %s\n", te.Hint)
	}
	if te.Next != "" {
		fmt.Fprintf(w, "  next: %s\n", te.Next)
	}
	if te.Example.Name != "" {
		delete(te.Example.Args, "agent_id")
		ex, _ := json.Marshal(te.Example.Args)
		fmt.Fprintf(w, "  example: m1nd call %s '%s'\n", te.Example.Name, ex)
	}
}
