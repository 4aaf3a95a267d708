package dynamics

import (
	"cmp"
	"path"
	"slices"
	"strings"

	"github.com/m1nd-go/m1nd/core/graph"
)

// Span is one runtime span, as an overlay reads it: its name, its
// attributes (strings), how long it took and whether it failed.
type Span struct {
	Name       string
	Service    string
	Attrs      map[string]string
	DurationNs int64
	Error      bool
}

// MapStrategy says how spans find their nodes.
type MapStrategy uint8

const (
	// CodeAttribute: the OpenTelemetry code attributes (code.function or
	// code.function.name, code.namespace, code.filepath or
	// code.file.path), then the span name for spans without them.
	CodeAttribute MapStrategy = iota
	// LabelMatch: the span name only ("chargeCard", "Cart.Total",
	// "GET /checkout" matches nothing).
	LabelMatch
	// ExactID: the attribute m1nd.node_id, or a span name that is a node
	// id.
	ExactID
)

// NodeHeat is what the spans mapped to one node said.
type NodeHeat struct {
	Node    graph.NodeID
	Calls   int
	Errors  int
	TotalNs int64
	MaxNs   int64
	// Heat in [0, 1]: half its share of the busiest node's calls, half
	// its share of the largest total time.
	Heat float64
}

// OverlayResult is spans painted onto a graph.
type OverlayResult struct {
	Nodes    []NodeHeat // hottest first, ties by node ID
	Mapped   int        // spans that found a node
	Unmapped []int      // indexes of the spans that did not
}

// Overlay maps each span to a node with strategy and sums calls, errors
// and time per node.
func Overlay(g *graph.Graph, spans []Span, strategy MapStrategy) OverlayResult {
	var res OverlayResult
	by := map[graph.NodeID]*NodeHeat{}
	for i, sp := range spans {
		n, ok := MapSpan(g, sp, strategy)
		if !ok {
			res.Unmapped = append(res.Unmapped, i)
			continue
		}
		res.Mapped++
		h := by[n]
		if h == nil {
			h = &NodeHeat{Node: n}
			by[n] = h
		}
		h.Calls++
		h.TotalNs += max(sp.DurationNs, 0)
		h.MaxNs = max(h.MaxNs, sp.DurationNs)
		if sp.Error {
			h.Errors++
		}
	}
	maxCalls, maxTime := 0, int64(0)
	for _, h := range by {
		maxCalls, maxTime = max(maxCalls, h.Calls), max(maxTime, h.TotalNs)
	}
	for _, h := range by {
		h.Heat = 0.5 * float64(h.Calls) / float64(maxCalls)
		if maxTime > 0 {
			h.Heat += 0.5 * float64(h.TotalNs) / float64(maxTime)
		}
		res.Nodes = append(res.Nodes, *h)
	}
	slices.SortFunc(res.Nodes, func(a, b NodeHeat) int {
		if c := cmp.Compare(b.Heat, a.Heat); c != 0 {
			return c
		}
		return cmp.Compare(a.Node, b.Node)
	})
	return res
}

// MapSpan finds a span's node.
func MapSpan(g *graph.Graph, sp Span, strategy MapStrategy) (graph.NodeID, bool) {
	switch strategy {
	case ExactID:
		for _, id := range []string{sp.Attrs["m1nd.node_id"], sp.Name} {
			if n, ok := g.Lookup(id); ok && id != "" {
				return n, true
			}
		}
		return graph.NoNode, false
	case CodeAttribute:
		fn := first(sp.Attrs, "code.function.name", "code.function")
		if fn != "" {
			return byCode(g, fn, sp.Attrs["code.namespace"], first(sp.Attrs, "code.file.path", "code.filepath"))
		}
	}
	return byName(g, sp.Name)
}

func first(attrs map[string]string, keys ...string) string {
	for _, k := range keys {
		if v := attrs[k]; v != "" {
			return v
		}
	}
	return ""
}

// byCode: the functions named fn (its last dotted part), narrowed to the
// receiver the namespace names ("main.(*Cart)" → Cart) and to the file
// whose path ends the span's file path; one left is the answer.
func byCode(g *graph.Graph, fn, namespace, file string) (graph.NodeID, bool) {
	name := fn
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		namespace, name = strings.TrimSuffix(namespace+"."+name[:i], "."), name[i+1:]
	}
	recv := receiver(namespace)
	var cands []graph.NodeID
	for _, n := range g.NodesByLabel(name) {
		if !callable(g, n) {
			continue
		}
		if recv != "" && !strings.HasSuffix(g.ExternalID(n), "::"+recv+"::"+name) {
			continue
		}
		if file != "" && !pathEnds(file, g.SourcePath(n)) {
			continue
		}
		cands = append(cands, n)
	}
	if len(cands) == 1 {
		return cands[0], true
	}
	return graph.NoNode, false
}

// receiver is the type a namespace ends with: "main.(*Cart)" → "Cart",
// "shop.cart.Cart" → "Cart" (capitalised like a type), "" for a package
// ("main", "example.com/app/lib").
func receiver(ns string) string {
	if i := strings.LastIndexByte(ns, '('); i >= 0 {
		return strings.Trim(ns[i+1:], "*)")
	}
	i := strings.LastIndexAny(ns, "./")
	if i < 0 || ns[i] == '/' {
		return ""
	}
	last := ns[i+1:]
	if last == "" || strings.ToUpper(last[:1]) != last[:1] || strings.ToLower(last[:1]) == last[:1] {
		return ""
	}
	return last
}

// pathEnds: the span's (often absolute) path ends with the node's
// repository-relative one.
func pathEnds(spanPath, rel string) bool {
	spanPath = path.Clean(strings.ReplaceAll(spanPath, "\\", "/"))
	return rel != "" && (spanPath == rel || strings.HasSuffix(spanPath, "/"+rel))
}

func callable(g *graph.Graph, n graph.NodeID) bool {
	t := g.Type(n)
	return t == graph.Function || t == graph.Class || t == graph.Struct
}

// byName: the span name, or its last dotted part ("Cart.Total" →
// Cart::Total, then Total), when exactly one function has it.
func byName(g *graph.Graph, name string) (graph.NodeID, bool) {
	name = strings.TrimSpace(name)
	if name == "" || strings.ContainsAny(name, " /") {
		return graph.NoNode, false
	}
	recv, base := "", name
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		recv, base = name[:i], name[i+1:]
		if j := strings.LastIndexByte(recv, '.'); j >= 0 {
			recv = recv[j+1:]
		}
	}
	var cands []graph.NodeID
	for _, n := range g.NodesByLabel(base) {
		if callable(g, n) && (recv == "" || strings.HasSuffix(g.ExternalID(n), "::"+recv+"::"+base)) {
			cands = append(cands, n)
		}
	}
	if len(cands) == 1 {
		return cands[0], true
	}
	return graph.NoNode, false
}
