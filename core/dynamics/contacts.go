package dynamics

import "github.com/m1nd-go/m1nd/core/graph"

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

// contact is one edge a simulation may cross from a node.
type contact struct {
	to     graph.NodeID
	factor float64
	rel    string
}

// contacts appends u's contacts in direction d to buf: every edge with a
// transmission factor, once per logical edge (mirrors of bidirectional
// edges are skipped), never into a container.
func contacts(g *graph.Graph, rels relCache, u graph.NodeID, d Direction, buf []contact) []contact {
	lo, hi := g.OutRange(u)
	for e := lo; e < hi; e++ {
		if g.IsMirror(e) {
			continue
		}
		r := rels.of(g, e)
		// An out-edge reads forward unless it is a passive form.
		if r.factor > 0 && (d == Both || (d == Forward) != r.reversed) && !container(g, g.Target(e)) {
			buf = append(buf, contact{g.Target(e), r.factor, r.name})
		}
	}
	ilo, ihi := g.InRange(u)
	for p := ilo; p < ihi; p++ {
		e := g.InEdge(p)
		if g.IsMirror(e) {
			continue
		}
		r := rels.of(g, e)
		if r.factor > 0 && (d == Both || (d == Backward) != r.reversed) && !container(g, g.InSource(p)) {
			buf = append(buf, contact{g.InSource(p), r.factor, r.name})
		}
	}
	return buf
}
