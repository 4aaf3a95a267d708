// Command m1nd-openclaw-client calls one tool on a running m1nd-openclaw:
//
//	m1nd-openclaw-client [--socket PATH] [--result-only] TOOL [JSON]
//
// It prints the response line (or, with --result-only, the result alone)
// and exits 1 when the tool reports an error.
package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/m1nd-go/m1nd/openclaw"
)

const usage = `usage: m1nd-openclaw-client [--socket PATH] [--result-only] [--timeout SECONDS] TOOL [JSON-ARGUMENTS]

  m1nd-openclaw-client health
  m1nd-openclaw-client activate '{"query": "auth", "top_k": 5}'
`

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	socket := os.Getenv("M1ND_OPENCLAW_SOCKET")
	if socket == "" {
		socket = openclaw.DefaultSocket
	}
	resultOnly := false
	timeout := 10 * time.Minute
	var pos []string
	for i := 0; i < len(args); i++ {
		switch a := args[i]; a {
		case "-h", "--help":
			fmt.Fprint(stdout, usage)
			return 0
		case "--socket":
			if i+1 >= len(args) {
				fmt.Fprint(stderr, usage)
				return 2
			}
			i++
			socket = args[i]
		case "--result-only":
			resultOnly = true
		case "--timeout":
			if i+1 >= len(args) {
				fmt.Fprint(stderr, usage)
				return 2
			}
			i++
			var s float64
			if _, err := fmt.Sscan(args[i], &s); err != nil || s <= 0 {
				fmt.Fprintf(stderr, "--timeout needs a positive number of seconds, got %q\n", args[i])
				return 2
			}
			timeout = time.Duration(s * float64(time.Second))
		default:
			pos = append(pos, a)
		}
	}
	if len(pos) < 1 || len(pos) > 2 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	var raw json.RawMessage
	if len(pos) == 2 {
		if !json.Valid([]byte(pos[1])) {
			fmt.Fprintf(stderr, "arguments are not valid JSON: %s\n%s", pos[1], usage)
			return 2
		}
		raw = json.RawMessage(pos[1])
	}
	resp, result, err := openclaw.Call(socket, pos[0], raw, timeout)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	switch {
	case resultOnly && resp.OK:
		var v any
		json.Unmarshal(result, &v)
		enc.Encode(v)
	case resultOnly:
		enc.Encode(resp.Error)
	default:
		var v any
		json.Unmarshal(result, &v)
		resp.Result = v
		enc.Encode(resp)
	}
	if !resp.OK {
		return 1
	}
	return 0
}
