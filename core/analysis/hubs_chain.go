package analysis

import (
	"fmt"
	"slices"
	"strings"

	"github.com/m1nd-go/m1nd/core/graph"
)

// follows reports whether the hop hub → next serves pred, which reached
// the hub: pred names something of next (a name the hub re-exports, or
// the module itself), a definition of the hub itself (then pred takes
// the hub's own module, which runs all of it: passed through, as the
// names truth reads it — immer's tests take produce from src/immer.ts),
// or something of a hub next that gathers it. When pred imports no name
// through the hub (a namespace import read as pkg.X, an unresolved
// default import), what it takes is unknown and every hop is followed.
func (r *hubReader) follows(pred, hub, next graph.NodeID) bool {
	used := r.usedBy(pred).byUnit
	if len(used[next]) > 0 || slices.ContainsFunc(used[hub], func(x graph.NodeID) bool { return x != hub }) {
		return true
	}
	if r.isHub(next) {
		for _, f := range r.d.Dependencies(hub) {
			if len(used[f]) > 0 && f != next && slices.Contains(r.d.Dependencies(next), f) {
				return true
			}
		}
	}
	return !r.importsNames(pred, hub)
}

// importsNames reports whether pred imports names through hub: one of
// the hub's own definitions, or one the hub imports itself (a
// re-export). A namespace import (import pkg, then pkg.X) or a default
// import the graph did not resolve leaves what pred takes unknown.
func (r *hubReader) importsNames(pred, hub graph.NodeID) bool {
	for _, x := range r.usedBy(pred).imported {
		if r.d.Unit(x) == hub || slices.Contains(r.usedBy(hub).imported, x) {
			return true
		}
	}
	return false
}

// unfollowedHop is the index of the first hub in chain whose next hop
// its predecessor does not follow, or of the first unit whose link to
// the next is only a misbound import (misbound); -1 when every hop serves.
func (r *hubReader) unfollowedHop(chain []graph.NodeID) (at int, misbound bool) {
	for j := 0; j+1 < len(chain); j++ {
		if r.misbound(chain[j], chain[j+1]) {
			return j, true
		}
		if j > 0 && r.isHub(chain[j]) && !r.follows(chain[j-1], chain[j], chain[j+1]) {
			return j, false
		}
	}
	return -1, false
}

// hubSearchCap bounds the states one narrowed search expands.
const hubSearchCap = 200000

// hubStep is a search state: a unit, and for a hub the unit it was
// reached from (what it may lead to depends on who came in).
type hubStep struct{ u, pred graph.NodeID }

// search is a breadth-first search from a to b within maxHops, leaving a
// hub only toward what its predecessor takes from it (type-only links
// skipped when runtime). The chain found, nil if none, and the states
// expanded. Links are read in ascending order: deterministic.
func (r *hubReader) search(a, b graph.NodeID, maxHops int, runtime bool) ([]graph.NodeID, int) {
	start := hubStep{a, graph.NoNode}
	parent := map[hubStep]hubStep{start: start}
	frontier, expanded := []hubStep{start}, 0
	for hop := 0; hop < maxHops && len(frontier) > 0 && expanded < hubSearchCap; hop++ {
		var next []hubStep
		for _, s := range frontier {
			expanded++
			for _, v := range r.d.Dependencies(s.u) {
				if (runtime && r.d.TypeOnly(s.u, v)) || r.misbound(s.u, v) || (s.pred != graph.NoNode && !r.follows(s.pred, s.u, v)) {
					continue
				}
				t := hubStep{v, graph.NoNode}
				if r.isHub(v) {
					t.pred = s.u
				}
				if _, seen := parent[t]; seen {
					continue
				}
				parent[t] = s
				if v == b {
					return chainBack(parent, t), expanded
				}
				next = append(next, t)
			}
		}
		frontier = next
	}
	return nil, expanded
}

func chainBack(parent map[hubStep]hubStep, end hubStep) []graph.NodeID {
	var out []graph.NodeID
	for s := end; ; s = parent[s] {
		out = append(out, s.u)
		if parent[s] == s {
			break
		}
	}
	slices.Reverse(out)
	return out
}

// takenText says what pred takes through hub: up to 4 names with the
// module each comes from ("X (pkg/b.py)").
func (r *hubReader) takenText(pred, hub graph.NodeID) string {
	used := r.usedBy(pred).byUnit
	var files []graph.NodeID
	for f := range used {
		if f == hub || slices.Contains(r.d.Dependencies(hub), f) {
			files = append(files, f)
		}
	}
	slices.Sort(files)
	var names []string
	for _, f := range files {
		for _, x := range uniqueNodes(used[f]) {
			n := r.g.Label(x)
			if x == f {
				n = "the module"
			}
			names = append(names, fmt.Sprintf("%s (%s)", n, r.name(f)))
		}
	}
	if len(names) > 4 {
		names = append(names[:4], fmt.Sprintf("%d more", len(names)-4))
	}
	return strings.Join(names, ", ")
}

// hubChain is the note for a chain that only a hub hop makes: a hop its
// importer does not take, so no evidence either way.
func (r *hubReader) hubChain(orig Evidence, at int) Evidence {
	chain := orig.Nodes
	pred, hub, next := chain[at-1], chain[at], chain[at+1]
	return Evidence{Type: "hub_chain", LikelihoodFactor: 1, Nodes: chain, Relations: orig.Relations, PathWeight: orig.PathWeight,
		Description: fmt.Sprintf("no chain that follows the names used: %s reaches %s only through the re-export hub %s, which %s imports for %s; the hub also imports %s, of which %s names nothing — importing a hub runs all of it, so %s is loaded, but %s's code does not depend on it",
			r.name(chain[0]), r.name(chain[len(chain)-1]), r.name(hub), r.name(pred), r.takenText(pred, hub), r.name(next), r.name(pred), r.name(next), r.name(pred))}
}

// misboundChain is the note for a chain that only a misbound import
// makes: the name u imports is bound, by a module u imports, to another
// node than the one the graph linked.
func (r *hubReader) misboundChain(orig Evidence, at int) Evidence {
	chain := orig.Nodes
	u, f := chain[at], chain[at+1]
	return Evidence{Type: "hub_chain", LikelihoodFactor: 1, Nodes: chain, Relations: orig.Relations, PathWeight: orig.PathWeight,
		Description: fmt.Sprintf("no chain that follows the names used: %s reaches %s only through %s, whose member %s imports by a name that the module it imports the name from binds to %s — importing that module runs all of it, so %s may be loaded, but %s's code does not depend on it",
			r.name(chain[0]), r.name(chain[len(chain)-1]), r.name(f), r.name(u), r.reboundText(u, f), r.name(f), r.name(u))}
}

// pathOf is the path evidence of a chain the narrowed search found:
// PathFactor of its length and strength (the product of its links'
// strengths), the description saying which shorter chain it avoids.
func (r *hubReader) pathOf(found []graph.NodeID, avoided string) Evidence {
	e := Evidence{Type: "path_found", Nodes: found, PathWeight: 1}
	for j := 0; j+1 < len(found); j++ {
		edge, w, ok := r.d.link(found[j], found[j+1])
		rel := "imports"
		if ok {
			rel = usageOf(r.g, edge).Relation
		}
		e.PathWeight *= w
		e.Relations = append(e.Relations, rel)
	}
	e.PathWeight = graph.Finite(e.PathWeight)
	e.LikelihoodFactor = PathFactor(len(found)-1, e.PathWeight)
	var via []string
	for _, v := range found[1 : len(found)-1] {
		via = append(via, r.name(v))
	}
	e.Description = fmt.Sprintf("%s depends on %s through %d hops, via %s — not via %s (a shorter chain)",
		r.name(found[0]), r.name(found[len(found)-1]), len(found)-1, strings.Join(via, " → "), avoided)
	return e
}

// narrowedPath is pathOf a chain that avoids a hub hop its importer does
// not take.
func (r *hubReader) narrowedPath(found []graph.NodeID, orig Evidence, at int) Evidence {
	pred, hub := orig.Nodes[at-1], orig.Nodes[at]
	return r.pathOf(found, fmt.Sprintf("the re-export hub %s, which %s imports for %s only, none of it from %s",
		r.name(hub), r.name(pred), r.takenText(pred, hub), r.name(orig.Nodes[at+1])))
}
