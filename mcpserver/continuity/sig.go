package continuity

import (
	"hash/fnv"
	"strconv"

	"github.com/m1nd-go/m1nd/core/graph"
)

// Stamp says what a file looked like when the graph was built from it
// (size and modification time), by file node external id; ok is false
// when unknown. Nil means no stamps.
type Stamp func(fileID string) (size, mtimeNS int64, ok bool)

// Signature summarises what a node is in the graph — its type, label,
// extent, every edge with its relation and the node at the other end, and
// for a file its size and time on disk when ingested — so that comparing
// two signatures of the same external id tells whether the node changed.
// Edge weights are left out: learning moves them all the time. The edge
// part is an order-independent sum, so no sorting or allocation is needed
// even for hubs.
func Signature(g *graph.Graph, id graph.NodeID, stamp Stamp) string {
	h := fnv.New64a()
	p := g.Provenance(id)
	h.Write([]byte(g.Type(id).String() + "\x00" + g.Label(id) + "\x00" + strconv.FormatInt(int64(p.LineEnd)-int64(p.LineStart), 10)))
	if stamp != nil && g.Type(id) == graph.File {
		if size, mt, ok := stamp(g.ExternalID(id)); ok {
			h.Write([]byte("\x00" + strconv.FormatInt(size, 10) + "\x00" + strconv.FormatInt(mt, 10)))
		}
	}
	var sum, n uint64
	eh := fnv.New64a()
	add := func(dir byte, e graph.EdgeIdx, other graph.NodeID) {
		eh.Reset()
		eh.Write([]byte{dir})
		eh.Write([]byte(g.RelationName(e)))
		eh.Write([]byte{0})
		eh.Write([]byte(g.ExternalID(other)))
		sum += eh.Sum64()
		n++
	}
	lo, hi := g.OutRange(id)
	for e := lo; e < hi; e++ {
		if !g.IsMirror(e) {
			add('o', e, g.Target(e))
		}
	}
	ilo, ihi := g.InRange(id)
	for pos := ilo; pos < ihi; pos++ {
		if e := g.InEdge(pos); !g.IsMirror(e) {
			add('i', e, g.InSource(pos))
		}
	}
	return strconv.FormatUint(h.Sum64(), 36) + "." + strconv.FormatUint(sum, 36) + "." + strconv.FormatUint(n, 36)
}
