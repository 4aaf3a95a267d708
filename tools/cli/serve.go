package cli

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/m1nd-go/m1nd/mcpserver/mcpcmd"
)

// ServerBinary is the MCP server binary clients are configured with
// (doctor checks it is there; serve runs the same code in-process).
const ServerBinary = "m1nd-mcp"

// runServe runs the MCP server on stdio — the very code of m1nd-mcp
// (mcpcmd.Main) — serving this repository on its runtime directory as
// `make run` does. The defaults come first so the user's own m1nd-mcp
// flags override them.
func runServe(e *env, inv *invocation) int {
	rt := resolveRuntimeDir(inv.Opts.RuntimeDir, e.Cwd, e.Getenv)
	args := []string{"--runtime-dir", rt.Path, "--ingest", repoRoot(e.Cwd)}
	for _, r := range inv.Opts.AllowRoots {
		args = append(args, "--allow-root", r)
	}
	if inv.Opts.NoAttach {
		args = append(args, "--no-attach")
	}
	return mcpcmd.Main(append(args, inv.Rest...), os.Stdin, e.Stdout, e.Stderr)
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
