package mcpserver

import (
	"context"
	"fmt"
	"net/url"
	"path/filepath"
	"time"

	"github.com/m1nd-go/m1nd/mcpserver/tools"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// clientRoots asks a client that offers roots (MCP roots/list) which
// directories its user works in, once initialized and whenever they
// change, so health can say when the graph describes other ones.
func clientRoots(d *tools.Dispatcher) (func(context.Context, *mcp.InitializedRequest), func(context.Context, *mcp.RootsListChangedRequest)) {
	fetch := func(ss *mcp.ServerSession) {
		if ss == nil {
			return
		}
		if p := ss.InitializeParams(); p == nil || p.Capabilities == nil || p.Capabilities.RootsV2 == nil {
			return
		}
		// Not in the handler itself: the answer arrives on the connection
		// the handler is reading from. Under the session's lifetime: its
		// Close calls off a question still unanswered.
		d.Session.Go("roots/list", func(ctx context.Context) error {
			ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
			defer cancel()
			res, err := ss.ListRoots(ctx, nil)
			if err != nil {
				return nil // a client that does not answer keeps its roots unknown
			}
			var paths []string
			for _, r := range res.Roots {
				if p, ok := rootPath(r.URI); ok {
					paths = append(paths, p)
				}
			}
			d.Session.SetClientRoots(fmt.Sprintf("%p", ss), paths)
			return nil
		})
	}
	return func(_ context.Context, req *mcp.InitializedRequest) { fetch(req.Session) },
		func(_ context.Context, req *mcp.RootsListChangedRequest) { fetch(req.Session) }
}

// rootPath turns a file:// root URI into a clean local path.
func rootPath(uri string) (string, bool) {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" || u.Path == "" {
		return "", false
	}
	return filepath.Clean(u.Path), true
}
