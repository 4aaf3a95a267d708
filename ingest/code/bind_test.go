package code

import (
	"testing"

	"github.com/m1nd-go/m1nd/ingest/adapter"
	"github.com/m1nd-go/m1nd/ingest/extract"
)

// TestBindReadsNoExtraction: bind gets the relations it binds from the
// resolved outcomes, not from the extractions' edges, so that these need
// not live past the parallel pass (issue 29). The edges are withheld
// around bind (copies without them; the shared results are untouched)
// and the graph must still be a plain full ingest's, edge for edge.
// Reading edges[o.edge].Relation in bind, as before, panics here.
func TestBindReadsNoExtraction(t *testing.T) {
	r := newFixtureRepo(t)
	defer func(f func(*run) func()) { beforeBind = f }(beforeBind)
	withheld := 0
	beforeBind = func(rn *run) func() {
		kept := make([]*extract.Result, len(rn.included))
		for i := range rn.included {
			fr := rn.included[i].fr
			kept[i] = fr.res
			bare := *fr.res
			bare.Edges = nil
			fr.res = &bare
			withheld += len(kept[i].Edges)
		}
		return func() {
			for i := range rn.included {
				rn.included[i].fr.res = kept[i]
			}
		}
	}
	got := ingest(t, adapter.Request{Root: r.Dir})
	if withheld == 0 {
		t.Fatal("no edge was withheld: the seam did not run")
	}
	beforeBind = func(*run) func() { return func() {} }
	sameEdges(t, r.Dir, got, "edges withheld from bind")
}
