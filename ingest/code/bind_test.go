package code

import (
	"testing"

	"github.com/m1nd-go/m1nd/ingest/adapter"
)

// TestBindReadsNoExtraction: resolve's parallel pass releases every
// file's extraction (issue 29), so bind and everything after it must do
// without them: bind gets its relations from the resolved outcomes,
// enrich and the layout from the facts the pass kept (keepFacts). Without
// a store a released extraction is gone for good, so a later reader
// panics or misses it; the graph must still be a plain full ingest's,
// edge for edge.
func TestBindReadsNoExtraction(t *testing.T) {
	r := newFixtureRepo(t)
	defer func(f func(*run) func()) { beforeBind = f }(beforeBind)
	files := 0
	beforeBind = func(rn *run) func() {
		for i := range rn.results {
			if fr := &rn.results[i]; fr.res != nil || fr.spilled != nil {
				t.Errorf("%s: extraction still held at bind", fr.file.Rel)
			}
		}
		files = len(rn.included)
		return func() {}
	}
	got := ingest(t, adapter.Request{Root: r.Dir})
	if files == 0 {
		t.Fatal("no file checked: the seam did not run")
	}
	beforeBind = func(*run) func() { return func() {} }
	sameEdges(t, r.Dir, got, "extractions released before bind")
}
