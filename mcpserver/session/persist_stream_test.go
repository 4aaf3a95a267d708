package session

import (
	"os"
	"runtime"
	"testing"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/graph/graphtest"
	"github.com/m1nd-go/m1nd/core/plasticity"
)

// A persist streams the graph's snapshot to its file: what it allocates
// is well under the file's size. Encoding the file in memory first cost a
// copy of the graph's arrays and the file's bytes, more than twice the
// size, beside everything a large server holds (issue 29's peak).
func TestPersistDoesNotHoldTheFile(t *testing.T) {
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
	st, err := os.Stat(s.cfg.GraphSource)
	if err != nil {
		t.Fatal(err)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > uint64(st.Size()) {
		t.Errorf("a persist allocated %d bytes for a %d-byte snapshot: the file was built in memory", alloc, st.Size())
	}
	t.Logf("persist allocated %d bytes, snapshot %d bytes", after.TotalAlloc-before.TotalAlloc, st.Size())
}
