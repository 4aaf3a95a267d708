package structure

import "container/heap"

// feedbackOrder orders the nodes of one strongly connected component so
// that as little dependency weight as possible points backwards: the
// greedy heuristic of Eades, Lin and Smyth (1993). Nodes nothing in the
// component depends on go first, pure dependencies last, and when neither
// is left the node with the largest (out-weight − in-weight) goes next.
// The backward edges of the order are the component's feedback edges —
// the imports that point up. It returns each node's position.
func feedbackOrder(u *Units, comp []int, inComp []bool) map[int]int {
	outW := make(map[int]int, len(comp))
	inW := make(map[int]int, len(comp))
	for _, v := range comp {
		for _, l := range u.Out[v] {
			if inComp[l.To] {
				outW[v] += l.Weight
				inW[l.To] += l.Weight
			}
		}
	}
	removed := make(map[int]bool, len(comp))
	h := &deltaHeap{}
	for _, v := range comp {
		heap.Push(h, deltaItem{outW[v] - inW[v], v})
	}
	var head, tail []int // head: top of the stack first; tail: reversed bottom
	var sinks, sources []int
	for _, v := range comp {
		if outW[v] == 0 {
			sinks = append(sinks, v)
		} else if inW[v] == 0 {
			sources = append(sources, v)
		}
	}
	remove := func(v int) {
		removed[v] = true
		for _, l := range u.Out[v] {
			if w := l.To; inComp[w] && !removed[w] {
				inW[w] -= l.Weight
				if inW[w] == 0 && outW[w] > 0 {
					sources = append(sources, w)
				}
				heap.Push(h, deltaItem{outW[w] - inW[w], w})
			}
		}
		for _, l := range u.In[v] {
			if w := l.To; inComp[w] && !removed[w] {
				outW[w] -= l.Weight
				if outW[w] == 0 {
					sinks = append(sinks, w)
				}
				heap.Push(h, deltaItem{outW[w] - inW[w], w})
			}
		}
	}
	for len(head)+len(tail) < len(comp) {
		switch {
		case len(sinks) > 0:
			v := sinks[len(sinks)-1]
			sinks = sinks[:len(sinks)-1]
			if !removed[v] {
				tail = append(tail, v)
				remove(v)
			}
		case len(sources) > 0:
			v := sources[len(sources)-1]
			sources = sources[:len(sources)-1]
			if !removed[v] {
				head = append(head, v)
				remove(v)
			}
		default:
			it := heap.Pop(h).(deltaItem)
			if removed[it.v] || it.delta != outW[it.v]-inW[it.v] {
				continue // a stale entry
			}
			head = append(head, it.v)
			remove(it.v)
		}
	}
	pos := make(map[int]int, len(comp))
	for i, v := range head {
		pos[v] = i
	}
	for i, v := range tail {
		pos[v] = len(comp) - 1 - i
	}
	return pos
}

type deltaItem struct{ delta, v int }

// deltaHeap pops the largest delta first, the lowest index on ties.
type deltaHeap []deltaItem

func (h deltaHeap) Len() int { return len(h) }
func (h deltaHeap) Less(i, j int) bool {
	if h[i].delta != h[j].delta {
		return h[i].delta > h[j].delta
	}
	return h[i].v < h[j].v
}
func (h deltaHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *deltaHeap) Push(x any)   { *h = append(*h, x.(deltaItem)) }
func (h *deltaHeap) Pop() any {
	old := *h
	it := old[len(old)-1]
	*h = old[:len(old)-1]
	return it
}
