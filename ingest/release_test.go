package ingest

import (
	"testing"

	"github.com/m1nd-go/m1nd/ingest/adapter"
)

// TestReleaseWorth pins when an ingest's memory release (a full collection
// and a scavenge) runs: after a full build the size of go-std's, not after
// one the size of py-335's (73 ms of CPU for a few MB) nor after a patch.
func TestReleaseWorth(t *testing.T) {
	patched := &adapter.IncrementalStats{Patched: true}
	rebuilt := &adapter.IncrementalStats{RebuildReason: "many files changed"}
	for _, c := range []struct {
		name  string
		st    Stats
		worth bool
	}{
		{"py-335 full", Stats{NodesCreated: 4260, EdgesCreated: 12431}, false},
		{"empty", Stats{}, false},
		{"just under", Stats{NodesCreated: 50_000, EdgesCreated: 49_999}, false},
		{"at the threshold", Stats{NodesCreated: 50_000, EdgesCreated: 50_000}, true},
		{"go-std full", Stats{NodesCreated: 120423, EdgesCreated: 734255}, true},
		{"go-std patched", Stats{NodesCreated: 120423, EdgesCreated: 734255, Incremental: patched}, false},
		{"go-std rebuilt", Stats{NodesCreated: 120423, EdgesCreated: 734255, Incremental: rebuilt}, true},
	} {
		if got := ReleaseWorth(c.st); got != c.worth {
			t.Errorf("%s: ReleaseWorth = %v, want %v", c.name, got, c.worth)
		}
		if c.worth {
			continue
		}
		if ReleaseMemory(c.st) {
			t.Errorf("%s: ReleaseMemory released after an ingest not worth it", c.name)
		}
	}
}
