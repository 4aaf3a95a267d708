package plasticity

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/m1nd-go/m1nd/core/graph"
)

// TestSeedKeysRoom: seedKeys answers as before (sorted unique keys, the
// first seeds winning when capped) and makes room for at most limit keys,
// not for every seed handed over (activate hands over a few hundred and
// keeps 16).
func TestSeedKeysRoom(t *testing.T) {
	names := make([]string, 40)
	for i := range names {
		names[i] = fmt.Sprintf("s%02d", i)
	}
	g := build(t, names, nil)
	var many []graph.NodeID
	for i := 0; i < 300; i++ {
		many = append(many, graph.NodeID((i*7)%len(names)))
	}
	for _, tc := range []struct {
		name  string
		seeds []graph.NodeID
		limit int
	}{
		{"none", nil, 16},
		{"fewer than the limit", many[:5], 16},
		{"repeats past the limit", many, 16},
		{"limit one", many, 1},
		{"no limit", many, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := seedKeys(g, tc.seeds, tc.limit)
			var want []string
			for _, s := range tc.seeds {
				k := g.ExternalID(s)
				if !slices.Contains(want, k) && (tc.limit <= 0 || len(want) < tc.limit) {
					want = append(want, k)
				}
			}
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Fatalf("keys %v, want %v", got, want)
			}
			room := len(tc.seeds)
			if tc.limit > 0 {
				room = min(room, tc.limit)
			}
			if cap(got) > room {
				t.Fatalf("room for %d keys, want at most %d (%d seeds, limit %d)", cap(got), room, len(tc.seeds), tc.limit)
			}
		})
	}
}

// TestRecordAllocations: remembering a query costs its three pieces (the
// query text, its seed keys, its node list), the node list made once at
// its size rather than grown by append.
func TestRecordAllocations(t *testing.T) {
	names := make([]string, 80)
	for i := range names {
		names[i] = fmt.Sprintf("n%02d", i)
	}
	g := build(t, names, nil)
	seeds := make([]graph.NodeID, 200)
	for i := range seeds {
		seeds[i] = graph.NodeID(i % 30)
	}
	nodes := make([]graph.Scored, 70)
	for i := range nodes {
		nodes[i] = graph.Scored{Node: graph.NodeID(i), Score: 1 - float32(i)/100}
	}
	m := newMemory(4)
	at := time.Unix(0, 0)
	for i := 0; i < 8; i++ { // the ring full of this query: counts and lists at size
		m.record(g, "parse json", seeds, nodes, at, 16, 50)
	}
	got := testing.AllocsPerRun(50, func() {
		m.record(g, "parse json", seeds, nodes, at, 16, 50)
	})
	if got > 3 {
		t.Fatalf("record: %.0f allocations, want at most 3 (query, seed keys, node list)", got)
	}
	if rec := m.ring.items[(m.ring.next+len(m.ring.items)-1)%len(m.ring.items)]; len(rec.nodes) != 50 || len(rec.seeds) != 16 {
		t.Fatalf("newest record has %d nodes and %d seeds, want 50 and 16", len(rec.nodes), len(rec.seeds))
	}
}
