package semantic

import (
	"reflect"
	"runtime"
	"testing"
)

// TestScratchKeptAcrossCollections: a query after collections takes the
// scratch the last one returned (a sync.Pool dropped it within two, and
// its three per-node arrays came back new on every few activate calls;
// issue 29), and the reused scratch answers as a new one does.
func TestScratchKeptAcrossCollections(t *testing.T) {
	g := labels(t, "authentication_service", "auth.py", "session.py", "", "database.py", "render_view")
	ix := newIndex(t, g, nil)
	first := ix.Query("authentication", 10)
	sc := ix.scratch()
	ix.release(sc)
	runtime.GC()
	runtime.GC()
	again := ix.scratch()
	if again != sc {
		t.Fatal("the scratch was dropped by collections")
	}
	ix.release(again)
	if second := ix.Query("authentication", 10); !reflect.DeepEqual(first, second) {
		t.Fatalf("a reused scratch answers %v, a new one %v", second, first)
	}
}
