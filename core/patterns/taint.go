package patterns

import (
	"cmp"
	"slices"

	"github.com/m1nd-go/m1nd/core/graph"
)

// Defaults of TaintParams (docs/design.md#patterns).
const (
	DefaultTaintDepth  = 6
	DefaultTaintVisits = 20_000
	DefaultTaintPaths  = 20
)

// TaintParams configures Taint.
type TaintParams struct {
	// MaxDepth bounds the hops from an entry (0: 6).
	MaxDepth int
	// MaxVisits bounds the nodes expanded (0: 20,000).
	MaxVisits int
	// MaxPaths bounds the paths returned (0: 20); Total counts them all.
	MaxPaths int
	// Follow says which relations carry taint (nil: calls, instantiates,
	// uses — the call and data edges).
	Follow func(relation string) bool
	// Sink reports whether tainted data reaching a node is a finding;
	// Sanitiser whether a node cleans it (validation, escaping, quoting).
	Sink, Sanitiser func(graph.NodeID) bool
}

// TaintPath is one way from an entry to a sink.
type TaintPath struct {
	// Nodes runs from the entry to the sink.
	Nodes []graph.NodeID
	// Sanitisers are the nodes of the path that clean the data (none: the
	// data reaches the sink as it came in).
	Sanitisers []graph.NodeID
}

// TaintResult is Taint's answer.
type TaintResult struct {
	// Paths lists the unsanitised paths first, then shorter, then by node
	// IDs; Total counts the paths found, Unsanitised those without a
	// sanitiser.
	Paths              []TaintPath
	Total, Unsanitised int
	// Visited counts the nodes expanded; Truncated says MaxVisits stopped
	// the walk.
	Visited   int
	Truncated bool
}

var defaultTaintRelations = map[string]bool{"calls": true, "instantiates": true, "uses": true}

// Taint walks from the entries along call and data edges (breadth first,
// so each path is a shortest one; a sink ends its path) and reports every
// sink reached: once
// along a path with no sanitiser if there is one within MaxDepth, and
// once along a sanitised path when that is the only way there. Each node
// is expanded at most twice (unsanitised, sanitised): the walk is linear
// in the edges it reaches.
func Taint(g *graph.Graph, entries []graph.NodeID, p TaintParams) TaintResult {
	p.MaxDepth = cmp.Or(p.MaxDepth, DefaultTaintDepth)
	p.MaxVisits = cmp.Or(p.MaxVisits, DefaultTaintVisits)
	p.MaxPaths = cmp.Or(p.MaxPaths, DefaultTaintPaths)
	if p.Follow == nil {
		p.Follow = func(r string) bool { return defaultTaintRelations[r] }
	}
	type state struct {
		node  graph.NodeID
		clean bool
	}
	type visit struct {
		parent int // index into seen; -1 for an entry
		st     state
		depth  int
	}
	var seen []visit
	index := map[state]int{}
	var res TaintResult
	var out []TaintPath
	push := func(n graph.NodeID, parent, depth int) {
		clean := p.Sanitiser != nil && p.Sanitiser(n)
		if parent >= 0 {
			clean = clean || seen[parent].st.clean
		}
		st := state{n, clean}
		if _, ok := index[st]; ok {
			return
		}
		// An unsanitised path to n makes a sanitised one redundant.
		if _, ok := index[state{n, false}]; ok && clean {
			return
		}
		index[st] = len(seen)
		seen = append(seen, visit{parent, st, depth})
	}
	for _, e := range entries {
		push(e, -1, 0)
	}
	for i := 0; i < len(seen); i++ {
		if res.Visited >= p.MaxVisits {
			res.Truncated = true
			break
		}
		res.Visited++
		v := seen[i]
		if p.Sink != nil && p.Sink(v.st.node) {
			out = append(out, taintPath(p, i, func(k int) (graph.NodeID, int) { return seen[k].st.node, seen[k].parent }))
			continue // the finding; what the sink does inside is the library's
		}
		if v.depth >= p.MaxDepth {
			continue
		}
		lo, hi := g.OutRange(v.st.node)
		for e := lo; e < hi; e++ {
			if !g.IsMirror(e) && p.Follow(g.RelationName(e)) {
				push(g.Target(e), i, v.depth+1)
			}
		}
	}
	sanitised := func(t TaintPath) int { return min(1, len(t.Sanitisers)) }
	slices.SortFunc(out, func(a, b TaintPath) int {
		return cmp.Or(cmp.Compare(sanitised(a), sanitised(b)), cmp.Compare(len(a.Nodes), len(b.Nodes)), slices.Compare(a.Nodes, b.Nodes))
	})
	res.Total = len(out)
	for _, t := range out {
		if len(t.Sanitisers) == 0 {
			res.Unsanitised++
		}
	}
	res.Paths = out[:min(len(out), p.MaxPaths)]
	return res
}

// taintPath rebuilds the path ending at visit i.
func taintPath(p TaintParams, i int, at func(int) (graph.NodeID, int)) TaintPath {
	var t TaintPath
	for k := i; k >= 0; {
		n, parent := at(k)
		t.Nodes = append(t.Nodes, n)
		if p.Sanitiser != nil && p.Sanitiser(n) {
			t.Sanitisers = append(t.Sanitisers, n)
		}
		k = parent
	}
	slices.Reverse(t.Nodes)
	slices.Reverse(t.Sanitisers)
	return t
}
