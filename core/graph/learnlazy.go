package graph

import "sync"

// lazyLearning marks a CSR built without its strengthen and weaken counts
// and LTP/LTD flags because every entry is zero: a splice with
// FreshWeights (every daemon tick), or of a base that had none. They are
// allocated, zero, the first time EdgePlasticity hands them to a writer;
// a daemon tick on go-std no longer allocates ≈ 3.9 MB for arrays that
// the next tick drops unread (state export and snapshot cuts read them
// through learning, which allocates nothing).
type lazyLearning struct {
	mu   sync.Mutex
	done bool // the arrays were allocated
}

// learning returns c's learning state as it is now. Strengthen, Weaken,
// LTP and LTD are nil while a lazy CSR has not allocated them: every
// entry is then zero. Safe beside EdgePlasticity on another goroutine.
func (c *csr) learning() EdgePlasticity {
	if z := c.lazy; z != nil {
		z.mu.Lock()
		defer z.mu.Unlock()
	}
	return c.plast
}

// materialize allocates a lazy CSR's zero learning arrays, once.
func (c *csr) materialize() {
	z := c.lazy
	if z == nil {
		return
	}
	z.mu.Lock()
	defer z.mu.Unlock()
	if !z.done {
		m := len(c.targets)
		p := &c.plast
		p.Strengthen, p.Weaken, p.LTP, p.LTD = make([]uint16, m), make([]uint16, m), make([]bool, m), make([]bool, m)
		z.done = true
	}
}

// LearningState returns the per-edge learning state without allocating,
// for readers: Strengthen, Weaken, LTP and LTD are nil when no edge has
// any yet (a graph spliced with FreshWeights that nothing learned on).
// Writers use EdgePlasticity, which allocates them.
func (g *Graph) LearningState() EdgePlasticity { return g.csr.learning() }
