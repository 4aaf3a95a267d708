package dynamics

import (
	"github.com/m1nd-go/m1nd/core/analysis"
	"github.com/m1nd-go/m1nd/core/graph"
)

// Direction says which way a simulation follows dependency edges.
type Direction uint8

const (
	// Forward follows edges as they read, dependent → dependency: from a
	// node to what it imports, calls, references, inherits or contains.
	Forward Direction = iota
	// Backward goes to the dependents: importers, callers, subclasses,
	// containers.
	Backward
	// Both follows edges either way.
	Both
)

// String names the direction.
func (d Direction) String() string {
	switch d {
	case Forward:
		return "forward"
	case Backward:
		return "backward"
	}
	return "both"
}

// ParseDirection reads "forward", "backward" or "both" (any case).
func ParseDirection(s string) (Direction, bool) {
	switch s {
	case "forward", "Forward":
		return Forward, true
	case "backward", "Backward":
		return Backward, true
	case "both", "Both", "":
		return Both, true
	}
	return Both, false
}

// contact is one edge a simulation may cross from a node (no pointers:
// the collector never scans the large lists of them).
type contact struct {
	to     graph.NodeID
	edge   graph.EdgeIdx
	factor float64
}

// contacts appends u's contacts in direction d to buf: every edge with a
// transmission factor, once per logical edge (mirrors of bidirectional
// edges are skipped). Containers take no part, but a dependency on one
// is a dependency on what it holds: a Go file imports a package's
// directory, and so each of its files (forward); a file's importers are
// those of its directory (backward). A file that holds no code (a
// README, go.mod beside the package) is not what an import brings in.
func contacts(g *graph.Graph, rels relCache, u graph.NodeID, d Direction, buf []contact) []contact {
	lo, hi := g.OutRange(u)
	for e := lo; e < hi; e++ {
		r := rels.of(g, e)
		// An out-edge reads forward unless it is a passive form.
		if g.IsMirror(e) || r.factor == 0 || !(d == Both || (d == Forward) != r.reversed) {
			continue
		}
		t := g.Target(e)
		switch {
		case !container(g, t):
			buf = append(buf, contact{t, e, r.factor})
		case r.name != "contains" && !r.reversed:
			buf = held(g, rels, t, e, r.factor, buf)
		}
	}
	ilo, ihi := g.InRange(u)
	for p := ilo; p < ihi; p++ {
		e := g.InEdge(p)
		r := rels.of(g, e)
		if g.IsMirror(e) || r.factor == 0 || !(d == Both || (d == Backward) != r.reversed) {
			continue
		}
		s := g.InSource(p)
		switch {
		case !container(g, s):
			buf = append(buf, contact{s, e, r.factor})
		case r.name == "contains" && !analysis.IsDataFile(g, u):
			buf = holders(g, rels, s, buf)
		}
	}
	return buf
}

// held appends the code container c holds (not containers, not data
// files), reached by edge e.
func held(g *graph.Graph, rels relCache, c graph.NodeID, e graph.EdgeIdx, factor float64, buf []contact) []contact {
	lo, hi := g.OutRange(c)
	for x := lo; x < hi; x++ {
		if t := g.Target(x); !g.IsMirror(x) && rels.of(g, x).name == "contains" && !container(g, t) && !analysis.IsDataFile(g, t) {
			buf = append(buf, contact{t, e, factor})
		}
	}
	return buf
}

// holders appends what depends on container c (its importers).
func holders(g *graph.Graph, rels relCache, c graph.NodeID, buf []contact) []contact {
	lo, hi := g.InRange(c)
	for p := lo; p < hi; p++ {
		e := g.InEdge(p)
		r := rels.of(g, e)
		if s := g.InSource(p); !g.IsMirror(e) && r.factor > 0 && r.name != "contains" && !r.reversed && !container(g, s) {
			buf = append(buf, contact{s, e, r.factor})
		}
	}
	return buf
}
