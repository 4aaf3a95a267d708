package dynamics

import (
	"cmp"
	"path"
	"slices"
	"strings"

	"github.com/m1nd-go/m1nd/core/graph"
)

// EntryKind says why a function is an entry point.
type EntryKind uint8

// Entry kinds, in the order they are preferred.
const (
	EntryMain        EntryKind = iota // a main function
	EntryHTTPHandler                  // a request handler (ServeHTTP, handle…, …Handler, a routed view)
	EntryCLICommand                   // a command (cmd…, …Command, run/execute under cmd/ or cli)
	EntryPublic                       // a public function nothing in the repository calls
)

// String names the kind.
func (k EntryKind) String() string {
	return [...]string{"main", "http_handler", "cli_command", "public_uncalled"}[k]
}

// EntryPoint is a function execution starts from.
type EntryPoint struct {
	Node graph.NodeID
	Kind EntryKind
}

// routeDecorators are decorator labels that route requests to a view.
var routeDecorators = map[string]bool{"route": true, "get": true, "post": true, "put": true, "delete": true,
	"patch": true, "api_view": true, "websocket": true, "endpoint": true}

// DiscoverEntryPoints lists the functions (not tests) inside scope (a
// path prefix, "" for all) where execution starts, by kind, then by
// out-degree (more reach first), then by ID.
func DiscoverEntryPoints(g *graph.Graph, scope string) []EntryPoint {
	rels := relCache{}
	var out []EntryPoint
	for i := 0; i < g.NumNodes(); i++ {
		n := graph.NodeID(i)
		if g.Type(n) != graph.Function || !inScope(g, n, scope) || isTest(g, n) {
			continue
		}
		if k, ok := entryKind(g, rels, n); ok {
			out = append(out, EntryPoint{n, k})
		}
	}
	slices.SortFunc(out, func(a, b EntryPoint) int {
		if c := cmp.Compare(a.Kind, b.Kind); c != 0 {
			return c
		}
		if c := cmp.Compare(g.OutDegree(b.Node), g.OutDegree(a.Node)); c != 0 {
			return c
		}
		return cmp.Compare(a.Node, b.Node)
	})
	return out
}

func entryKind(g *graph.Graph, rels relCache, n graph.NodeID) (EntryKind, bool) {
	label := g.Label(n)
	low := strings.ToLower(label)
	dir := "/" + path.Dir(g.SourcePath(n)) + "/"
	switch {
	case low == "main" || low == "__main__":
		return EntryMain, true
	case label == "ServeHTTP" || strings.HasPrefix(low, "handle") || strings.HasSuffix(low, "handler") ||
		strings.HasSuffix(low, "_view") || strings.HasSuffix(low, "endpoint") || routed(g, rels, n):
		return EntryHTTPHandler, true
	case strings.HasPrefix(low, "cmd") || strings.HasSuffix(low, "command") || strings.HasSuffix(low, "_cmd") ||
		(low == "run" || low == "execute") && (strings.Contains(dir, "/cmd/") || strings.Contains(dir, "cli")):
		return EntryCLICommand, true
	case public(g, n) && !called(g, rels, n) && g.OutDegree(n) > 1:
		return EntryPublic, true
	}
	return 0, false
}

// routed: decorated by a routing decorator (@app.route, @router.get).
func routed(g *graph.Graph, rels relCache, n graph.NodeID) bool {
	lo, hi := g.OutRange(n)
	for e := lo; e < hi; e++ {
		if rels.of(g, e).name != "decorated_by" {
			continue
		}
		l := strings.ToLower(g.Label(g.Target(e)))
		if i := strings.LastIndexByte(l, '.'); i >= 0 {
			l = l[i+1:]
		}
		if routeDecorators[l] {
			return true
		}
	}
	return false
}

func public(g *graph.Graph, n graph.NodeID) bool {
	return g.HasTag(n, "public") || g.HasTag(n, "exported")
}

// called: some code other than a test calls or references n.
func called(g *graph.Graph, rels relCache, n graph.NodeID) bool {
	lo, hi := g.InRange(n)
	for p := lo; p < hi; p++ {
		e := g.InEdge(p)
		if r := rels.of(g, e); !g.IsMirror(e) && (r.name == "calls" || r.name == "references") && !isTest(g, g.InSource(p)) {
			return true
		}
	}
	return false
}

func inScope(g *graph.Graph, n graph.NodeID, scope string) bool {
	return inScopePath(g.SourcePath(n), scope)
}

// isTest: a test function or anything in a test file.
func isTest(g *graph.Graph, n graph.NodeID) bool {
	return g.HasTag(n, "test") || testPath(g.SourcePath(n))
}
