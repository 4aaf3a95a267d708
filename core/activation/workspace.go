package activation

import (
	"math/bits"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/internal/freelist"
)

// Workspace is one query's scratch memory: dense per-node buffers reset
// sparsely after use, so a query costs what it touches, not the size of
// the graph, and concurrent queries never share state (the graph's own
// NodeStorage.Activation is not used). Get one from a Pool; a Workspace is
// not safe for concurrent use.
type Workspace struct {
	n   int
	c   []cell  // per node, one cache line's quarter
	idx []int32 // Merge: node → 1 + row
	// bits is collect's bitmap of touched nodes, all zero between calls.
	bits []uint64

	touched  []graph.NodeID // act or aux non-zero
	pending  []graph.NodeID // D1: arrivals of the current depth
	frontier []graph.NodeID
	next     []graph.NodeID
	heap     []heapEntry
	bloom    Bloom
	rows     [][graph.NumDimensions]float32
	rowNode  []graph.NodeID
	cand     []graph.Scored
	lows     []float32 // Merge's floor heap
	bon      []float32 // Merge: each row's bonused sum

	// lend makes the next collect return out (see Lend); out keeps its
	// array between runs.
	lend bool
	out  []graph.Scored
	// merged is MergeKeepingLent's answer, kept between runs.
	merged []Activated

	// layout is the packed reverse adjacency the pool was built with;
	// imp is layout while a run's graph is the one it describes, else nil
	// (the engines then read the CSR itself, with the same result).
	layout *graph.Importers
	imp    *graph.Importers
	// plain is set while imp is and its generation has no inhibitory edge:
	// the engines then skip reading each edge's polarity.
	plain bool
}

// cell is a node's scratch. The fields sit together because D1 reads and
// writes them together for every arrival at a node, which lands at random:
// one cache miss instead of up to four.
type cell struct {
	act   float32 // activation (D1), forward best (D4)
	aux   float32 // per-depth incoming max (D1), backward best (D4)
	inh   float32 // per-depth inhibition (D1)
	flags uint8
}

const (
	flagTouched uint8 = 1 << iota
	flagPending
	flagFrontier
	flagSettledFwd
	flagSettledBwd
)

// NewWorkspace returns scratch for graphs of n nodes.
func NewWorkspace(n int) *Workspace {
	return &Workspace{
		n:   n,
		c:   make([]cell, n),
		idx: make([]int32, n),
	}
}

// Len is the number of nodes the workspace serves.
func (w *Workspace) Len() int { return w.n }

func (w *Workspace) touch(n graph.NodeID) {
	if w.c[n].flags&flagTouched == 0 {
		w.c[n].flags |= flagTouched
		w.touched = append(w.touched, n)
	}
}

// reset clears every buffer the last engine run used.
func (w *Workspace) reset() {
	for _, n := range w.touched {
		w.c[n] = cell{}
	}
	for _, n := range w.pending {
		w.c[n].aux, w.c[n].inh, w.c[n].flags = 0, 0, 0
	}
	for _, n := range w.frontier {
		w.c[n].flags = 0
	}
	for _, n := range w.next {
		w.c[n].flags = 0
	}
	w.touched, w.pending = w.touched[:0], w.pending[:0]
	w.frontier, w.next = w.frontier[:0], w.next[:0]
	w.heap = w.heap[:0]
}

// Lend makes the next engine run on w (Wavefront, Heap, Structural,
// Causal) return its result in w's own buffer instead of a new slice. The
// slice is valid until the next lent run on w or w's Put; later runs of
// Merge on w leave it alone. The query engine lends D1's and D4's results
// because Merge reads them at once and drops them: a go-std query's D1
// and D4 reach 15,000–35,000 nodes each, a new slice per call that is
// allocated, zeroed and collected.
func (w *Workspace) Lend() { w.lend = true }

// collect returns the touched nodes with a positive act in ascending
// NodeID order, as a new slice or lent (see Lend). The order stays when
// lent: Merge reads a node's row index and PageRank, and in node order
// those reads go through memory in sequence. The touched list is put in
// order through a bitmap of the nodes (n/64 words), so neither a sort of
// the list nor a scan of every node's cell is needed.
func (w *Workspace) collect() []graph.Scored {
	if len(w.bits) != (w.n+63)/64 {
		w.bits = make([]uint64, (w.n+63)/64)
	}
	for _, n := range w.touched {
		w.bits[n>>6] |= 1 << (n & 63)
	}
	var out []graph.Scored
	if w.lend {
		out = w.out[:0]
	} else {
		out = make([]graph.Scored, 0, len(w.touched))
	}
	for i, b := range w.bits {
		if b == 0 {
			continue
		}
		w.bits[i] = 0
		for ; b != 0; b &= b - 1 {
			n := graph.NodeID(i<<6 | bits.TrailingZeros64(b))
			if v := w.c[n].act; v > 0 {
				out = append(out, graph.Scored{Node: n, Score: graph.Finite(v)})
			}
		}
	}
	if w.lend {
		w.lend, w.out = false, out
	}
	return out
}

// Pool hands out Workspaces for one graph size. Returned workspaces go
// to a free list that survives collections (freelist.List, keeping
// 2×GOMAXPROCS: a query engine's run holds two at once, the run's and
// D1's): a server holding a large graph collects every few queries (issue
// 29: on go-std, every fourth activate), so from a sync.Pool each
// workspace came back as a new one, its per-node arrays (≈ 20 bytes a
// node) allocated and zeroed and its row and list buffers grown again.
// The arrays hold no pointers, so keeping them costs the collector
// nothing to mark.
type Pool struct {
	n    int
	imp  *graph.Importers
	free freelist.List[*Workspace]
}

// NewPool returns a pool of workspaces for graphs of n nodes.
func NewPool(n int) *Pool { return &Pool{n: n} }

// NewPoolFor returns a pool of workspaces for g that also carry g's packed
// reverse adjacency (graph.NewImporters, built here once), which D1's
// reverse loop reads instead of the CSR while g keeps its generation. g
// must be finalized.
func NewPoolFor(g *graph.Graph) *Pool {
	g.TrackInWeightBound() // lets D1's reverse loop skip lists that carry nothing
	return &Pool{n: g.NumNodes(), imp: graph.NewImporters(g)}
}

// Importers is the packed reverse adjacency of NewPoolFor, or nil.
func (p *Pool) Importers() *graph.Importers { return p.imp }

// Get returns a clean workspace.
func (p *Pool) Get() *Workspace {
	if w, ok := p.free.Get(); ok {
		return w
	}
	w := NewWorkspace(p.n)
	w.layout = p.imp
	return w
}

// Put returns w to the pool; w must not be used afterwards. Workspaces of
// another size are dropped.
func (p *Pool) Put(w *Workspace) {
	if w == nil || w.n != p.n {
		return
	}
	w.reset()
	w.lend = false
	p.free.Put(w)
}

// workspace returns ws when it fits g, or a fresh one.
func workspace(ws *Workspace, g *graph.Graph) *Workspace {
	if ws == nil || ws.n != g.NumNodes() {
		return NewWorkspace(g.NumNodes())
	}
	ws.reset()
	ws.imp, ws.plain = nil, false
	if ws.layout.For(g) {
		ws.imp, ws.plain = ws.layout, !ws.layout.HasInhibitory()
	}
	return ws
}
