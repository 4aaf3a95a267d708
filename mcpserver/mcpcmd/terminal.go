package mcpcmd

import (
	"io"
	"os"
	"path/filepath"
	"strings"
)

// isTerminal reports whether r is a character device other than
// /dev/null: a terminal, in practice. A person who starts m1nd-mcp by hand
// gets a silent process waiting for JSON-RPC; a client always connects a
// pipe.
func isTerminal(r io.Reader) bool {
	f, ok := r.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	if err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		return false
	}
	null, err := os.Stat(os.DevNull)
	return err != nil || !os.SameFile(fi, null)
}

// executable is this binary's absolute path, as a client config needs it.
func executable() string {
	if p, err := os.Executable(); err == nil {
		return p
	}
	if p, err := filepath.Abs(os.Args[0]); err == nil {
		return p
	}
	return os.Args[0]
}

// terminalHint is the line a person sees on a terminal: what this process
// is waiting for and a command that talks to it, with the arguments it was
// started with. Path arguments are made absolute because the inspector (or
// a client) may start it from another directory.
func terminalHint(args []string, exe string) string {
	pathFlags := map[string]bool{"--runtime-dir": true, "--graph-source": true, "--plasticity-state": true, "--ingest": true, "--allow-root": true}
	abs := func(p string) string {
		if a, err := filepath.Abs(p); err == nil {
			return a
		}
		return p
	}
	out := []string{shellQuote(exe)}
	for i := 0; i < len(args); i++ {
		a := args[i]
		name, val, hasVal := strings.Cut(a, "=")
		switch {
		case pathFlags[name] && hasVal:
			a = name + "=" + abs(val)
		case pathFlags[name] && i+1 < len(args):
			out = append(out, shellQuote(a))
			i++
			a = abs(args[i])
		case !strings.HasPrefix(a, "-"):
			a = abs(a) // the configuration file
		}
		out = append(out, shellQuote(a))
	}
	return "m1nd-mcp is an MCP server on stdio and waits for an MCP client (Ctrl-C stops it). " +
		"Configure it in your client (README: Client configuration) or try it with: " +
		"npx @modelcontextprotocol/inspector -- " + strings.Join(out, " ")
}

// shellQuote quotes s for a POSIX shell when it needs quoting.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,+@%") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
