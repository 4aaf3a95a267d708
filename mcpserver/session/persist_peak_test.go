package session

import (
	"runtime"
	"testing"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/graph/graphtest"
	"github.com/m1nd-go/m1nd/core/plasticity"
)

// What a save allocates is a few bytes an edge: the cut's original
// weights (one float an edge), the learned state of the few edges that
// learned, the string numbering, 64 KB write buffers. The cut used to copy
// the whole per-edge state (14 bytes an edge) and each file had a 1 MB
// buffer: 42 bytes an edge on these 242 K edges, 11.8 now; on go-std
// that copy was most of the auto-save's peak (activate-speed9.md).
func TestPersistAllocatesAFewBytesAnEdge(t *testing.T) {
	s := openAt(t, t.TempDir())
	defer s.Close()
	publish(t, s, graphtest.PowerLaw(50_000, 200_000, 7))
	if _, err := s.Persist("manual"); err != nil { // the first one writes the baseline
		t.Fatal(err)
	}
	learnOn(t, s, graph.NodeID(3), plasticity.Correct)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	if _, err := s.Persist("manual"); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	m := s.Current().Graph.NumEdges()
	alloc := after.TotalAlloc - before.TotalAlloc
	if limit := uint64(8*m) + 2<<20; alloc > limit {
		t.Errorf("a persist of %d edges allocated %d bytes, want at most %d (%.1f bytes an edge)", m, alloc, limit, float64(alloc)/float64(m))
	}
	t.Logf("persist of %d edges allocated %d bytes", m, alloc)
}
