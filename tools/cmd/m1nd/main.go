// Command m1nd is the command line for people: ingest with a progress
// bar, seek, impact, why, search and any registered tool, on the same
// runtime directory as the MCP server (or through the server holding it);
// serve and doctor. `m1nd help` documents commands and exit codes.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/m1nd-go/m1nd/tools/cli"
)

func main() {
	// A signal cancels the call; the runtime directory is still saved and
	// released before exit.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := cli.Main(ctx, os.Args[1:])
	stop()
	os.Exit(code)
}
