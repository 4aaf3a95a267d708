package tools

import (
	"slices"

	"github.com/m1nd-go/m1nd/core/analysis"
	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/mcpserver/session"
)

var (
	entityDepsKey = session.NewKey[*analysis.DepGraph]("tools.deps.entity")
	fileDepsKey   = session.NewKey[*analysis.DepGraph]("tools.deps.file")
)

// DepGraph is the dependency view of the bundle's graph at one level,
// built once per graph and shared by every call and every tool.
func DepGraph(b *session.Bundle, fileLevel bool) (*analysis.DepGraph, error) {
	key := entityDepsKey
	if fileLevel {
		key = fileDepsKey
	}
	return session.Derive(b, key, func(g *graph.Graph) (*analysis.DepGraph, error) { return analysis.NewDepGraph(g, fileLevel) })
}

// ResolvePair resolves two names given together (a claim's subject and
// object, why's source and target, a pair to remove) so that each side
// is read in the light of the other: "queue_manager depends on codec"
// means the codec.go queue_manager.go imports, not a shallower codec.go
// elsewhere. Each name is first resolved alone; then, among the
// candidates comparable to a side's best (same place and kind: depth
// and centrality are what the other side may overrule), the pair
// nearest in the file dependency graph is taken. Directed pairs (a
// depends on b) prefer a link from a to b over one from b to a. The
// answer alone stands when no pair is connected within a few hops, or
// when it is already among the nearest; a name too ambiguous alone is
// taken when exactly one of its candidates is nearest.
func ResolvePair(b *session.Bundle, refA, paramA, refB, paramB string, directed bool) (Resolution, Resolution, error) {
	ra, errA := Resolve(b, refA, paramA)
	rb, errB := Resolve(b, refB, paramB)
	g := b.Graph
	ga, gb := pairGroup(g, ra, errA, refA), pairGroup(g, rb, errB, refB)
	if errA != nil && len(ga) < 2 {
		return ra, rb, errA
	}
	if errB != nil && len(gb) < 2 {
		return ra, rb, errB
	}
	if len(ga) > 1 || len(gb) > 1 {
		if d, err := DepGraph(b, true); err == nil {
			ra, rb, errA, errB = nearestPair(g, d, ra, rb, errA, errB, ga, gb, directed)
		}
	}
	if errA != nil {
		return ra, rb, errA
	}
	return ra, rb, errB
}

// maxGroup bounds the candidates of one side that context may choose
// among: beyond a dozen, a name is too common for nearness to mean much.
const maxGroup = 12

// pairGroup is the candidates of a side that the other side may choose
// among, best first: those of the same place and kind as the best, at
// most one directory deeper (prometheus's rules/alerting.go AlertingRule
// is not overruled by a namesake three levels down). A resolution by
// exact id or path is its own group.
func pairGroup(g *graph.Graph, r Resolution, err error, ref string) []graph.NodeID {
	if err == nil && !r.Named {
		return []graph.NodeID{r.ID}
	}
	ranked := rankedNames(g, ref)
	if len(ranked) == 0 {
		return nil
	}
	top := rankOf(g, ranked[0])
	var out []graph.NodeID
	for _, id := range ranked {
		if r := rankOf(g, id); r.place == top.place && r.kind == top.kind && r.deprecated == top.deprecated && r.depth <= top.depth+1 && len(out) < maxGroup {
			out = append(out, id)
		}
	}
	return out
}

// rankedNames is every candidate of a free name, ranked as Resolve ranks
// them.
func rankedNames(g *graph.Graph, ref string) []graph.NodeID {
	for _, name := range append([]string{ref}, nameVariants(ref)...) {
		cands := nameCandidates(g, name)
		if len(cands) == 0 {
			cands = foldedCandidates(g, name)
		}
		if len(cands) > 0 {
			_, ranked, _ := pickName(g, ref, cands)
			return ranked
		}
	}
	return nil
}

// nearestPair re-picks each side among its group by the nearness of the
// pair; see ResolvePair.
func nearestPair(g *graph.Graph, d *analysis.DepGraph, ra, rb Resolution, errA, errB error, ga, gb []graph.NodeID, directed bool) (Resolution, Resolution, error, error) {
	best, pairs := unreachable, [][2]int(nil)
	for i, a := range ga {
		dist := hopsFrom(d, d.Unit(a))
		for j, b := range gb {
			switch p := proximity(d, d.Unit(a), d.Unit(b), dist, directed); {
			case p < best:
				best, pairs = p, [][2]int{{i, j}}
			case p == best && p < unreachable:
				pairs = append(pairs, [2]int{i, j})
			}
		}
	}
	if best == unreachable {
		return ra, rb, errA, errB
	}
	// The best ranked nearest pair: pairs are in (i, j) order, so the
	// first of least i+j.
	pick := pairs[0]
	for _, p := range pairs {
		if errA == nil && errB == nil && ga[p[0]] == ra.ID && gb[p[1]] == rb.ID {
			return ra, rb, errA, errB // the names alone already give a nearest pair
		}
		if p[0]+p[1] < pick[0]+pick[1] {
			pick = p
		}
	}
	ra, errA = repick(ra, errA, ga, pick[0], onlyOne(pairs, 0))
	rb, errB = repick(rb, errB, gb, pick[1], onlyOne(pairs, 1))
	return ra, rb, errA, errB
}

// onlyOne reports whether the nearest pairs agree on side k's candidate.
func onlyOne(pairs [][2]int, k int) bool {
	for _, p := range pairs {
		if p[k] != pairs[0][k] {
			return false
		}
	}
	return true
}

// repick takes group[i] for the side: always when the side resolved
// alone, only when the nearest pairs agree on it when it did not.
func repick(r Resolution, err error, group []graph.NodeID, i int, agreed bool) (Resolution, error) {
	id := group[i]
	if err != nil && !agreed || err == nil && id == r.ID {
		return r, err
	}
	out := Resolution{ID: id, Ref: r.Ref, Named: true}
	for _, c := range group {
		if c != id && len(out.Alternatives) < maxAlternatives {
			out.Alternatives = append(out.Alternatives, c)
		}
	}
	return out, nil
}

// Nearness of a pair of units, lower is nearer: the same file, a direct
// link in the claimed direction, one against it, then two or three hops
// either way.
const (
	nearSame = iota
	nearLink
	nearBackLink
	nearTwoHops
	nearThreeHops
	unreachable
)

// proximity is how near units a and b are; dist is hopsFrom(a).
func proximity(d *analysis.DepGraph, a, b graph.NodeID, dist map[graph.NodeID]int, directed bool) int {
	switch {
	case a == graph.NoNode || b == graph.NoNode:
		return unreachable
	case a == b:
		return nearSame
	case hasLink(d.Dependencies(a), b):
		return nearLink
	case hasLink(d.Dependents(a), b):
		if directed {
			return nearBackLink
		}
		return nearLink
	}
	if h, ok := dist[b]; ok {
		return nearTwoHops + h - 2
	}
	return unreachable
}

func hasLink(sorted []graph.NodeID, x graph.NodeID) bool {
	_, ok := slices.BinarySearch(sorted, x)
	return ok
}

// hopsFrom is the undirected distance from u to the units within three
// dependency links of it.
func hopsFrom(d *analysis.DepGraph, u graph.NodeID) map[graph.NodeID]int {
	if u == graph.NoNode {
		return nil
	}
	dist := map[graph.NodeID]int{u: 0}
	frontier := []graph.NodeID{u}
	for h := 1; h <= 3 && len(frontier) > 0; h++ {
		var next []graph.NodeID
		for _, v := range frontier {
			for _, w := range slices.Concat(d.Dependencies(v), d.Dependents(v)) {
				if _, seen := dist[w]; !seen {
					dist[w] = h
					next = append(next, w)
				}
			}
		}
		frontier = next
	}
	return dist
}
