package structure

import "slices"

// StronglyConnected returns the strongly connected components of the
// directed graph adj (adj[v] lists v's successors), each ascending, in
// reverse topological order: a component comes after every component it
// has an edge into. It is Tarjan's algorithm with an explicit stack, so a
// deep graph cannot overflow the goroutine stack.
func StronglyConnected(adj [][]int) [][]int {
	n := len(adj)
	const unseen = -1
	index := make([]int, n)
	low := make([]int, n)
	onStack := make([]bool, n)
	for i := range index {
		index[i] = unseen
	}
	var comps [][]int
	var stack []int
	type frame struct{ v, next int }
	var call []frame
	counter := 0
	for root := 0; root < n; root++ {
		if index[root] != unseen {
			continue
		}
		call = append(call, frame{root, 0})
		index[root], low[root] = counter, counter
		counter++
		stack = append(stack, root)
		onStack[root] = true
		for len(call) > 0 {
			f := &call[len(call)-1]
			v := f.v
			if f.next < len(adj[v]) {
				w := adj[v][f.next]
				f.next++
				if index[w] == unseen {
					index[w], low[w] = counter, counter
					counter++
					stack = append(stack, w)
					onStack[w] = true
					call = append(call, frame{w, 0})
				} else if onStack[w] && index[w] < low[v] {
					low[v] = index[w]
				}
				continue
			}
			call = call[:len(call)-1]
			if len(call) > 0 {
				if p := call[len(call)-1].v; low[v] < low[p] {
					low[p] = low[v]
				}
			}
			if low[v] != index[v] {
				continue
			}
			var comp []int
			for {
				w := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				onStack[w] = false
				comp = append(comp, w)
				if w == v {
					break
				}
			}
			slices.Sort(comp)
			comps = append(comps, comp)
		}
	}
	return comps
}
