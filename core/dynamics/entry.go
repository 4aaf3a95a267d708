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
	EntryHTTPHandler                  // a request handler (ServeHTTP, a routed view, a function handle… or …Handler)
	EntryCLICommand                   // a command (a function cmd…, …Command, run/execute under cmd/ or cli)
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
// out-degree (more reach first), then by ID. Names are read by words
// (handleIndex is "handle index"), and only ServeHTTP and routed views
// may be methods.
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
	ws := words(label)
	if len(ws) == 0 {
		return 0, false
	}
	first, last := ws[0], ws[len(ws)-1]
	dir := "/" + path.Dir(g.SourcePath(n)) + "/"
	fn := !method(g, rels, n) // methods are reached through their objects
	switch {
	case fn && (label == "main" || label == "__main__"):
		return EntryMain, true
	case label == "ServeHTTP" || routed(g, rels, n) || fn && (first == "handle" || last == "handler") && !calledDirectly(g, rels, n):
		return EntryHTTPHandler, true
	case fn && (first == "cmd" || last == "command" || last == "cmd" ||
		(label == "run" || label == "Run" || label == "execute" || label == "Execute") && (strings.Contains(dir, "/cmd/") || strings.Contains(dir, "cli"))):
		return EntryCLICommand, true
	case fn && public(g, n) && !called(g, rels, n) && flowsOut(g, rels, n):
		return EntryPublic, true
	}
	return 0, false
}

// method: a function a class, struct or type holds (or tagged method).
func method(g *graph.Graph, rels relCache, n graph.NodeID) bool {
	if g.HasTag(n, "method") {
		return true
	}
	lo, hi := g.InRange(n)
	for p := lo; p < hi; p++ {
		e := g.InEdge(p)
		if g.IsMirror(e) || rels.of(g, e).name != "contains" {
			continue
		}
		switch g.Type(g.InSource(p)) {
		case graph.Class, graph.Struct, graph.Type:
			return true
		}
	}
	return false
}

// flowsOut: n calls or references something.
func flowsOut(g *graph.Graph, rels relCache, n graph.NodeID) bool {
	lo, hi := g.OutRange(n)
	for e := lo; e < hi; e++ {
		if r := rels.of(g, e); !g.IsMirror(e) && !r.reversed && flowRelations[r.name] {
			return true
		}
	}
	return false
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

// calledDirectly: some code other than a test calls n. A handler is
// registered as a value (referenced), not called: a function named like
// one that the code calls is a helper (starlette's
// _lookup_exception_handler, mux's methodNotAllowedHandler constructor).
func calledDirectly(g *graph.Graph, rels relCache, n graph.NodeID) bool {
	lo, hi := g.InRange(n)
	for p := lo; p < hi; p++ {
		e := g.InEdge(p)
		if r := rels.of(g, e); !g.IsMirror(e) && r.name == "calls" && !r.reversed && !isTest(g, g.InSource(p)) {
			return true
		}
	}
	return false
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
