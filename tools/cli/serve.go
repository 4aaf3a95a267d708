package cli

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
)

// ServerBinary is the MCP server `m1nd serve` runs.
const ServerBinary = "m1nd-mcp"

// runServe becomes m1nd-mcp (exec: same pid, signals and stdio), serving
// this repository on its runtime directory as `make run` does. The
// defaults come first so the user's own m1nd-mcp flags override them.
//
// m1nd-mcp's run logic lives in its package main; until it is a library
// function, exec is how serve stays the very same server.
func runServe(e *env, inv *invocation) int {
	bin, err := findServer()
	if err != nil {
		fmt.Fprintf(e.Stderr, "m1nd: %v\n", err)
		return ExitFailure
	}
	rt := resolveRuntimeDir(inv.Opts.RuntimeDir, e.Cwd, e.Getenv)
	args := []string{bin, "--runtime-dir", rt.Path, "--ingest", repoRoot(e.Cwd)}
	for _, r := range inv.Opts.AllowRoots {
		args = append(args, "--allow-root", r)
	}
	if inv.Opts.NoAttach {
		args = append(args, "--no-attach")
	}
	args = append(args, inv.Rest...)
	err = syscall.Exec(bin, args, os.Environ())
	fmt.Fprintf(e.Stderr, "m1nd: exec %s: %v\n", bin, err)
	return ExitFailure
}

// findServer finds m1nd-mcp next to this binary (make build puts both in
// bin/), else on PATH.
func findServer() (string, error) {
	if self, err := os.Executable(); err == nil {
		p := filepath.Join(filepath.Dir(self), ServerBinary)
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	p, err := exec.LookPath(ServerBinary)
	if err == nil {
		return p, nil
	}
	if errors.Is(err, exec.ErrNotFound) {
		return "", fmt.Errorf("%s is neither next to m1nd nor on PATH: `make build` puts both in bin/", ServerBinary)
	}
	return "", err
}
