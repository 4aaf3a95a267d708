package analysis

import (
	"runtime"
	"sync"
	"weak"

	"github.com/m1nd-go/m1nd/core/graph"
)

// impactScratch is one Impact call's node-indexed working memory: a walk
// per direction and the rollup. It is reused across calls (see
// impactShelf), so every array is either stamped per call or put back to
// zero, for the entries the call touched, before the scratch is returned.
type impactScratch struct {
	walks [2]walkScratch
	roll  rollScratch
}

// walkScratch is one direction's propagation state.
type walkScratch struct {
	stamp    []uint32 // reached in this walk when == cur
	inScope  []uint32 // part of the change when == cur
	cur      uint32
	sig      []float32
	hop      []uint8
	parent   []graph.NodeID
	pedge    []graph.EdgeIdx
	prev     []bool
	inNext   []uint32 // per-layer "already in next" stamp
	lstamp   uint32
	touched  []graph.NodeID
	scope    []graph.NodeID // the change: the source and what it holds
	frontier []graph.NodeID
	fsig     []float32
	next     []graph.NodeID
}

func (s *walkScratch) reset(n int) {
	if len(s.stamp) < n {
		s.stamp = make([]uint32, n)
		s.inScope = make([]uint32, n)
		s.inNext = make([]uint32, n)
		s.sig = make([]float32, n)
		s.hop = make([]uint8, n)
		s.parent = make([]graph.NodeID, n)
		s.pedge = make([]graph.EdgeIdx, n)
		s.prev = make([]bool, n)
		s.cur = 0
		s.lstamp = 0
	}
	s.cur++
	if s.cur == 0 {
		clear(s.stamp)
		clear(s.inScope)
		s.cur = 1
	}
	s.touched = s.touched[:0]
}

// rollScratch holds the rollup's aggregate of every listed-to-be node
// (an affected entity, or the file holding it), indexed by that node. A
// zero hop marks an unused entry; done zeroes the entries in keys.
type rollScratch struct {
	hop    []uint8   // the aggregate's hop distance (0: none yet)
	walk   []uint8   // the walk (direction) of that reach
	miss   []float64 // Π(1 − signal) of its members at that hop and walk
	best   []graph.NodeID
	ents   []int32        // affected entities rolled into it
	from   []int32        // where in its walk's touched that reach began
	slot   []int32        // 1 + its place among the listed, 0 if not listed
	unit   []graph.NodeID // memo of units.of: 1 + the unit, 0 if not known
	keys   []graph.NodeID // the aggregates made, in the order first reached
	ranks  []impactRank
	heap   []impactRank
	far    []impactRank
	member []memberRef
}

func (r *rollScratch) reset(n int) {
	if len(r.hop) < n {
		r.hop = make([]uint8, n)
		r.walk = make([]uint8, n)
		r.miss = make([]float64, n)
		r.best = make([]graph.NodeID, n)
		r.ents = make([]int32, n)
		r.slot = make([]int32, n)
		r.from = make([]int32, n)
		r.unit = make([]graph.NodeID, n)
	}
	r.keys = r.keys[:0]
}

// done zeroes what the call wrote: the aggregates in keys and the unit
// memo of every node the walks reached.
func (r *rollScratch) done(walks []*impactWalk) {
	for _, k := range r.keys {
		r.hop[k], r.walk[k], r.miss[k], r.best[k], r.ents[k], r.slot[k], r.from[k] = 0, 0, 0, 0, 0, 0, 0
	}
	r.keys = r.keys[:0]
	for _, w := range walks {
		for _, v := range w.s.touched {
			r.unit[v] = 0
		}
	}
}

// impactShelf keeps the scratch of finished calls for the next ones,
// outside a sync.Pool: a collection empties a pool, and remaking the
// node-sized arrays then costs more than the rest of a call. It holds
// at most one scratch per processor (as many calls as can run at once)
// and only for the last graph asked about: a replaced graph's scratch,
// sized to it, is dropped. It refers to that graph weakly, so it never
// keeps a replaced graph alive.
type impactShelf struct {
	mu    sync.Mutex
	graph weak.Pointer[graph.Graph]
	free  []*impactScratch
}

var impactScratchShelf impactShelf

func (sh *impactShelf) get(g *graph.Graph) *impactScratch {
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if wg := weak.Make(g); sh.graph != wg {
		sh.graph, sh.free = wg, nil
	}
	if n := len(sh.free); n > 0 {
		s := sh.free[n-1]
		sh.free[n-1] = nil
		sh.free = sh.free[:n-1]
		return s
	}
	return &impactScratch{}
}

func (sh *impactShelf) put(g *graph.Graph, s *impactScratch) {
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if sh.graph == weak.Make(g) && len(sh.free) < runtime.GOMAXPROCS(0) {
		sh.free = append(sh.free, s)
	}
}
