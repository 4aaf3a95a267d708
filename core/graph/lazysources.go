package graph

import "sync/atomic"

// lazySources stands for the per-edge source array of a spliced CSR,
// which a splice does not write: every edge's source follows from the
// offsets, and its readers (Source, a Finalize or Clone of the graph) are
// few and off the paths a daemon tick and a query take. A tick on go-std
// saves ≈ 2.6 MB of allocation and one pass over the edges; the first
// reader pays both, once per graph. Copies of a csr share it, so every
// copy reads the same array.
type lazySources struct {
	src atomic.Pointer[[]NodeID]
}

// edgeSources returns the source of every forward edge, deriving it from
// the offsets on the first call when c was built without it. Safe on any
// number of goroutines; small enough to inline into Source.
func (c *csr) edgeSources() []NodeID {
	z := c.lazySrc
	if z == nil {
		return c.sources
	}
	p := z.src.Load()
	if p == nil {
		p = z.derive(c)
	}
	return *p
}

// derive builds the array and publishes it; readers racing on the first
// call may each build one, and all return the one published first.
func (z *lazySources) derive(c *csr) *[]NodeID {
	src := sourcesOf(c.offsets, len(c.targets))
	z.src.CompareAndSwap(nil, &src)
	return z.src.Load()
}

// sourcesOf lists the source of each of the m edges the forward offsets
// lay out.
func sourcesOf(offsets []uint32, m int) []NodeID {
	src := make([]NodeID, m)
	for s := range len(offsets) - 1 {
		for e := offsets[s]; e < offsets[s+1]; e++ {
			src[e] = NodeID(s)
		}
	}
	return src
}
