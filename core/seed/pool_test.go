package seed

import (
	"runtime"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/m1nd-go/m1nd/core/graph/graphtest"
)

// TestScratchKeptAcrossCollections: a Find after collections takes the
// scratch the last one returned (a sync.Pool dropped it within two
// collections, and its four per-node accumulators came back new; issue
// 29), and the reused scratch answers as a new one does.
func TestScratchKeptAcrossCollections(t *testing.T) {
	g, _ := graphtest.Backend()
	f := finder(t, g, true, nil)
	first := f.FindSemantic("authentication", 0)
	sc := f.scratch()
	f.release(sc)
	runtime.GC()
	runtime.GC()
	again := f.scratch()
	if again != sc {
		t.Fatal("the scratch was dropped by collections")
	}
	f.release(again)
	if diff := cmp.Diff(first, f.FindSemantic("authentication", 0)); diff != "" {
		t.Fatalf("seeds from a reused scratch (-first +again):\n%s", diff)
	}
}
