package structure

import (
	"slices"
)

// Louvain bounds: passes of local moving per level, and levels.
const (
	louvainPasses = 50
	louvainLevels = 20
)

// ugraph is an undirected weighted graph (each link once per direction
// in adj, self-loops in self).
type ugraph struct {
	adj  [][]wlink
	self []float64
	deg  []float64
	m2   float64 // twice the total weight
}

type wlink struct {
	to int
	w  float64
}

// undirected folds u's links into one undirected weight per pair.
func undirected(u *Units) *ugraph {
	n := u.Len()
	g := &ugraph{adj: make([][]wlink, n), self: make([]float64, n), deg: make([]float64, n)}
	w := map[[2]int]float64{}
	for v := range n {
		for _, l := range u.Out[v] {
			a, b := min(v, l.To), max(v, l.To)
			w[[2]int{a, b}] += float64(l.Weight)
		}
	}
	for k, x := range w {
		g.adj[k[0]] = append(g.adj[k[0]], wlink{k[1], x})
		g.adj[k[1]] = append(g.adj[k[1]], wlink{k[0], x})
	}
	g.finish()
	return g
}

func (g *ugraph) finish() {
	g.m2 = 0
	for v := range g.adj {
		slices.SortFunc(g.adj[v], func(a, b wlink) int { return a.to - b.to })
		g.deg[v] = 2 * g.self[v]
		for _, l := range g.adj[v] {
			g.deg[v] += l.w
		}
		g.m2 += g.deg[v]
	}
}

// Louvain partitions units into communities by modularity (Blondel et
// al. 2008): local moving, then aggregation, until no move raises
// modularity. Links are undirected, weighted by file links; visiting
// order and ties follow unit indices, so the result is deterministic.
// It returns each unit's community, numbered 0.. by first member.
func Louvain(u *Units) []int {
	g := undirected(u)
	n := u.Len()
	comm := make([]int, n)
	for i := range comm {
		comm[i] = i
	}
	for level := 0; level < louvainLevels; level++ {
		local, moved := g.localMoving()
		if !moved {
			break
		}
		for i := range comm {
			comm[i] = local[comm[i]]
		}
		g = g.aggregate(local)
	}
	return renumber(comm)
}

// localMoving moves single nodes to the neighbouring community with the
// best modularity gain until a pass moves none; it returns the
// communities (renumbered) and whether anything moved.
func (g *ugraph) localMoving() ([]int, bool) {
	n := len(g.adj)
	comm := make([]int, n)
	tot := make([]float64, n)
	for i := range comm {
		comm[i], tot[i] = i, g.deg[i]
	}
	if g.m2 == 0 {
		return comm, false
	}
	moved := false
	w := map[int]float64{}
	var keys []int
	for pass := 0; pass < louvainPasses; pass++ {
		changes := 0
		for v := range n {
			clear(w)
			for _, l := range g.adj[v] {
				w[comm[l.to]] += l.w
			}
			old := comm[v]
			tot[old] -= g.deg[v]
			keys = keys[:0]
			for c := range w {
				keys = append(keys, c)
			}
			slices.Sort(keys)
			// Staying wins ties; otherwise the lowest community id.
			best, bestGain := old, w[old]-tot[old]*g.deg[v]/g.m2
			for _, c := range keys {
				if gain := w[c] - tot[c]*g.deg[v]/g.m2; gain > bestGain+1e-12 {
					best, bestGain = c, gain
				}
			}
			comm[v] = best
			tot[best] += g.deg[v]
			if best != old {
				changes++
				moved = true
			}
		}
		if changes == 0 {
			break
		}
	}
	return renumber(comm), moved
}

// aggregate builds the graph of communities.
func (g *ugraph) aggregate(comm []int) *ugraph {
	k := 0
	for _, c := range comm {
		k = max(k, c+1)
	}
	out := &ugraph{adj: make([][]wlink, k), self: make([]float64, k), deg: make([]float64, k)}
	w := map[[2]int]float64{}
	for v := range g.adj {
		cv := comm[v]
		out.self[cv] += g.self[v]
		for _, l := range g.adj[v] {
			if cw := comm[l.to]; cw == cv {
				out.self[cv] += l.w / 2 // each inner link is seen from both ends
			} else if cv < cw {
				w[[2]int{cv, cw}] += l.w
			}
		}
	}
	for p, x := range w {
		out.adj[p[0]] = append(out.adj[p[0]], wlink{p[1], x})
		out.adj[p[1]] = append(out.adj[p[1]], wlink{p[0], x})
	}
	out.finish()
	return out
}

// renumber numbers communities 0.. in order of their first member.
func renumber(comm []int) []int {
	id := map[int]int{}
	out := make([]int, len(comm))
	for i, c := range comm {
		if _, ok := id[c]; !ok {
			id[c] = len(id)
		}
		out[i] = id[c]
	}
	return out
}

// Modularity is Newman's modularity of the partition part of u's
// undirected link graph: the share of link weight inside parts minus what
// random wiring with the same degrees would put there. 0 without links.
func Modularity(u *Units, part []int) float64 {
	return undirected(u).modularity(part)
}

func (g *ugraph) modularity(part []int) float64 {
	if g.m2 == 0 {
		return 0
	}
	k := 0
	for _, c := range part {
		k = max(k, c+1)
	}
	in, tot := make([]float64, k), make([]float64, k)
	for v := range g.adj {
		c := part[v]
		tot[c] += g.deg[v]
		in[c] += 2 * g.self[v]
		for _, l := range g.adj[v] {
			if part[l.to] == c {
				in[c] += l.w
			}
		}
	}
	q := 0.0
	for c := range tot {
		q += in[c]/g.m2 - (tot[c]/g.m2)*(tot[c]/g.m2)
	}
	return q
}

// CutWeight is the link weight between different parts.
func CutWeight(u *Units, part []int) int {
	cut := 0
	for v := range u.Len() {
		for _, l := range u.Out[v] {
			if part[v] != part[l.To] {
				cut += l.Weight
			}
		}
	}
	return cut
}
