package structure

import (
	"cmp"
	"slices"
)

// crossCuttingLayers: dependents in this many layers make a unit
// cross-cutting (a logger, a config reader, an error package).
const crossCuttingLayers = 3

// utilities classifies orphans, cross-cutting units and bridges; a unit
// gets the first kind that applies, in that order.
func (L *Layering) utilities() {
	u := L.Units
	bridge := articulation(u)
	L.crossCutting = make([]bool, u.Len())
	for v := range u.Len() {
		if L.Level[v] < 0 {
			L.Utility = append(L.Utility, Utility{Unit: v, Kind: Orphan})
			continue
		}
		layers := map[int]bool{}
		for _, l := range u.In[v] {
			layers[L.Level[l.To]] = true
		}
		it := Utility{Unit: v, Dependents: len(u.In[v]), Dependencies: len(u.Out[v]), Layers: len(layers)}
		switch {
		case len(layers) >= crossCuttingLayers:
			it.Kind = CrossCutting
			L.crossCutting[v] = true
		case bridge[v]:
			for _, l := range u.Out[v] {
				layers[L.Level[l.To]] = true
			}
			it.Kind, it.Layers = Bridge, len(layers)
		default:
			continue
		}
		L.Utility = append(L.Utility, it)
	}
	slices.SortFunc(L.Utility, func(a, b Utility) int {
		return cmp.Or(cmp.Compare(a.Kind, b.Kind), cmp.Compare(b.Layers, a.Layers),
			cmp.Compare(b.Dependents+b.Dependencies, a.Dependents+a.Dependencies), cmp.Compare(a.Unit, b.Unit))
	})
}

// articulation marks the units whose removal cuts at least two units off
// from at least two others in the undirected dependency graph (a pendant
// file hanging off one unit does not make it a bridge). Iterative DFS
// with low-points (Hopcroft–Tarjan).
func articulation(u *Units) []bool {
	n := u.Len()
	nb := make([][]int, n)
	for v := range n {
		for _, l := range u.Out[v] {
			nb[v] = append(nb[v], l.To)
			nb[l.To] = append(nb[l.To], v)
		}
	}
	disc, low, size := make([]int, n), make([]int, n), make([]int, n)
	for i := range disc {
		disc[i] = -1
	}
	cut := make([]bool, n)
	type frame struct{ v, parent, next int }
	t := 0
	for root := range n {
		if disc[root] >= 0 || len(nb[root]) == 0 {
			continue
		}
		start := t
		stack := []frame{{root, -1, 0}}
		disc[root], low[root], size[root] = t, t, 1
		t++
		var cuts []int // (child, parent) pairs whose subtree hangs off parent
		for len(stack) > 0 {
			f := &stack[len(stack)-1]
			if f.next < len(nb[f.v]) {
				w := nb[f.v][f.next]
				f.next++
				if disc[w] < 0 {
					disc[w], low[w], size[w] = t, t, 1
					t++
					stack = append(stack, frame{w, f.v, 0})
				} else if w != f.parent {
					low[f.v] = min(low[f.v], disc[w])
				}
				continue
			}
			v, p := f.v, f.parent
			stack = stack[:len(stack)-1]
			if p >= 0 {
				low[p] = min(low[p], low[v])
				size[p] += size[v]
				if low[v] >= disc[p] {
					cuts = append(cuts, v, p)
				}
			}
		}
		total := t - start
		for i := 0; i < len(cuts); i += 2 {
			c, p := cuts[i], cuts[i+1]
			// The root is a cut vertex only with two DFS children; any
			// other p cuts c's subtree off the rest.
			if p == root && size[c] == total-1 {
				continue
			}
			if size[c] >= 2 && total-1-size[c] >= 2 {
				cut[p] = true
			}
		}
	}
	return cut
}
