package plasticity

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/internal/finite"
)

// primingBefore is priming as it was before its scratch (maps and slices
// made on every call): the reference the kept-scratch version must equal
// exactly.
func primingBefore(m *memory, g *graph.Graph, seeds []graph.NodeID, maxSeeds, limit int, bigramBoost float32) []graph.Scored {
	if len(seeds) == 0 || m.ring.size == 0 {
		return nil
	}
	qs := seedKeys(g, seeds, maxSeeds)
	shared := map[int32][]string{}
	for _, s := range qs {
		for _, slot := range m.slotsOf(s) {
			shared[slot] = append(shared[slot], s)
		}
	}
	if len(shared) == 0 {
		return nil
	}
	slots := make([]int32, 0, len(shared))
	for s := range shared {
		slots = append(slots, s)
	}
	slices.Sort(slots)
	score := map[string]float64{}
	total := 0.0
	for _, slot := range slots {
		rec := &m.ring.items[slot]
		sh := shared[slot]
		jac := float64(len(sh)) / float64(len(qs)+len(rec.seeds)-len(sh))
		mult := 1.0
		for i, a := range sh {
			for _, b := range sh[i+1:] {
				if bigramCount(m, a, b) >= 2 {
					mult += float64(bigramBoost)
				}
			}
		}
		rw := jac * min(mult, 2)
		total += rw
		for _, n := range rec.nodes {
			score[n.key] += rw * float64(n.w)
		}
	}
	if total <= 0 {
		return nil
	}
	out := make([]graph.Scored, 0, len(score))
	for k, v := range score {
		s := finite.Clamp(float32(v/total), 0, 1)
		if s < 1e-3 || slices.Contains(qs, k) {
			continue
		}
		id, ok := g.Lookup(k)
		if !ok {
			continue
		}
		out = append(out, graph.Scored{Node: id, Score: s})
	}
	graph.SortScored(out)
	if len(out) > limit {
		out = out[:limit]
	}
	return out
}

// bigramCount is how many records have seeds a and b (a before b).
func bigramCount(m *memory, a, b string) int32 {
	ia, oka := m.seedID[a]
	ib, okb := m.seedID[b]
	if !oka || !okb {
		return 0
	}
	return m.bigrams[bigramKey(ia, ib)]
}

// primedMemory is a graph of n nodes and a query memory of recs random
// records (a ring of capacity cap, so older ones were evicted).
func primedMemory(t testing.TB, n, recs, capacity int) (*graph.Graph, *memory, *rand.Rand) {
	t.Helper()
	names := make([]string, n)
	for i := range names {
		names[i] = fmt.Sprint("f", i)
	}
	g := build(t, names, nil)
	r := rand.New(rand.NewPCG(27, 29))
	m := newMemory(capacity)
	for range recs {
		seeds := randomNodes(r, n, 1+r.IntN(6))
		var act []graph.Scored
		for _, a := range randomNodes(r, n, 1+r.IntN(60)) {
			act = append(act, graph.Scored{Node: a, Score: r.Float32()})
		}
		graph.SortScored(act)
		m.record(g, "q", seeds, act, time.Time{}, 16, 50)
	}
	return g, &m, r
}

func randomNodes(r *rand.Rand, n, k int) []graph.NodeID {
	out := make([]graph.NodeID, k)
	for i := range out {
		out[i] = graph.NodeID(r.IntN(n))
	}
	return out
}

// TestPrimingEqualsBefore: keeping priming's scratch between calls
// changes no score, no order, no tie (issue 29 keeps answers
// byte-identical), over many calls on one memory.
func TestPrimingEqualsBefore(t *testing.T) {
	g, m, r := primedMemory(t, 80, 400, 150)
	for i := range 300 {
		seeds := randomNodes(r, 80, 1+r.IntN(20))
		want := primingBefore(m, g, seeds, 16, 50, 0.25)
		got := m.priming(g, seeds, 16, 50, 0.25)
		if !slices.Equal(got, want) {
			t.Fatalf("call %d, seeds %v:\n got %v\nwant %v", i, seeds, got, want)
		}
	}
}

// TestPrimingAllocatesOnlyItsAnswer: once warm, a priming call allocates
// the slice it returns and nothing else (before: maps of shared slots and
// of scores, a slice per slot, ≈ 0.05 MB a call on go-std).
func TestPrimingAllocatesOnlyItsAnswer(t *testing.T) {
	g, m, _ := primedMemory(t, 80, 400, 150)
	seeds := []graph.NodeID{3, 17, 42, 5}
	if len(m.priming(g, seeds, 16, 50, 0.25)) == 0 {
		t.Fatal("the test needs a primed answer")
	}
	if n := testing.AllocsPerRun(50, func() { m.priming(g, seeds, 16, 50, 0.25) }); n > 1 {
		t.Errorf("%v allocations a call, want 1 (the answer)", n)
	}
}

// TestPrimingScratchHoldsNoKeys: between calls the scratch holds no
// external ID, so it cannot keep a replaced graph's strings alive.
func TestPrimingScratchHoldsNoKeys(t *testing.T) {
	g, m, _ := primedMemory(t, 80, 400, 150)
	m.priming(g, []graph.NodeID{3, 17, 42, 5}, 16, 50, 0.25)
	sc := &m.scratch
	if len(sc.score) != 0 || slices.ContainsFunc(sc.qs[:cap(sc.qs)], func(s string) bool { return s != "" }) {
		t.Errorf("scratch keeps keys: %d scores, qs %q", len(sc.score), sc.qs[:cap(sc.qs)])
	}
}

// TestPrimingFollowsTheGraph: the node IDs a record keeps are those of
// the graph asked about last; asked about another graph (renumbered,
// some nodes gone, others new), then the first again, with records
// recorded and imported on each, priming answers as looking every key up
// in the graph asked about would.
func TestPrimingFollowsTheGraph(t *testing.T) {
	g1, m, r := primedMemory(t, 80, 400, 150)
	// g2 holds f20..f99 in reverse order: IDs move, f0..f19 are gone.
	var names []string
	for i := 99; i >= 20; i-- {
		names = append(names, fmt.Sprint("f", i))
	}
	g2 := build(t, names, nil)
	graphs := []*graph.Graph{g1, g2}
	for i := range 600 {
		g := graphs[(i/7)%2] // runs of calls on each graph
		n := g.NumNodes()
		seeds := randomNodes(r, n, 1+r.IntN(20))
		switch i % 5 {
		case 3:
			var act []graph.Scored
			for _, a := range randomNodes(r, n, 1+r.IntN(60)) {
				act = append(act, graph.Scored{Node: a, Score: r.Float32()})
			}
			graph.SortScored(act)
			m.record(g, "q", seeds, act, time.Time{}, 16, 50)
			continue
		case 4:
			rec := memRecord{seeds: seedKeys(g, seeds, 16)}
			for _, a := range randomNodes(r, n, 5) {
				rec.nodes = append(rec.nodes, memNode{key: g.ExternalID(a), w: r.Float32()})
			}
			m.push(rec) // as ImportQueryMemory adds one: no IDs
		}
		want := primingBefore(m, g, seeds, 16, 50, 0.25)
		if got := m.priming(g, seeds, 16, 50, 0.25); !slices.Equal(got, want) {
			t.Fatalf("call %d on graph %d, seeds %v:\n got %v\nwant %v", i, (i/7)%2+1, seeds, got, want)
		}
		if got, want := m.primingCount(g, seeds, 16, 50, 0.25), len(want); got != want {
			t.Fatalf("call %d: primingCount %d, priming lists %d", i, got, want)
		}
	}
}

// TestSeedIndexAgreesWithRecords: after every record of a small ring's
// many evictions (seed IDs freed and reused), the bigram counts by ID and
// each seed's slots are what the live records say, counted by the seeds'
// strings.
func TestSeedIndexAgreesWithRecords(t *testing.T) {
	g, m, r := primedMemory(t, 40, 0, 25)
	for i := range 600 {
		seeds := randomNodes(r, 40, 1+r.IntN(8))
		m.record(g, "q", seeds, []graph.Scored{{Node: seeds[0], Score: 1}}, time.Time{}, 16, 50)
		want := map[[2]string]int32{}
		slots := map[string][]int32{}
		for slot := range m.ring.items {
			rec := &m.ring.items[slot]
			for j, a := range rec.seeds {
				slots[a] = append(slots[a], int32(slot))
				for _, b := range rec.seeds[j+1:] {
					want[[2]string{a, b}]++
				}
			}
		}
		got := map[[2]string]int32{}
		for k, c := range m.bigrams {
			got[[2]string{m.seeds[k>>32].key, m.seeds[uint32(k)].key}] = c
		}
		if !maps.Equal(got, want) {
			t.Fatalf("record %d: bigrams by ID %v, by the records %v", i, got, want)
		}
		if len(m.seedID) != len(slots) {
			t.Fatalf("record %d: %d seeds numbered, %d in the records", i, len(m.seedID), len(slots))
		}
		for k, want := range slots {
			got := slices.Sorted(slices.Values(m.slotsOf(k)))
			if !slices.Equal(got, want) {
				t.Fatalf("record %d: seed %s in slots %v, want %v", i, k, got, want)
			}
		}
	}
}

// TestUpdateCountsPrimingOnce: Update reports as PrimingNodes the size of
// the Priming answer asked just before for the same seeds of the same
// graph, without summing memory again, and sums again whenever anything
// in between could change it: another query recorded, a reset, an
// import, other seeds, another graph.
func TestUpdateCountsPrimingOnce(t *testing.T) {
	g1, _, r := primedMemory(t, 80, 0, 150)
	var names []string
	for i := 99; i >= 20; i-- {
		names = append(names, fmt.Sprint("f", i))
	}
	g2 := build(t, names, nil)
	e := newEngine(t)
	query := func(g *graph.Graph, seeds []graph.NodeID) Query {
		var act []graph.Scored
		for _, a := range randomNodes(r, g.NumNodes(), 1+r.IntN(40)) {
			act = append(act, graph.Scored{Node: a, Score: r.Float32()})
		}
		return Query{Text: "q", Seeds: seeds, Activated: act}
	}
	for i := range 400 {
		g := []*graph.Graph{g1, g2}[(i/9)%2]
		seeds := randomNodes(r, g.NumNodes(), 1+r.IntN(12))
		q := query(g, seeds)
		primed, err := e.Priming(g, seeds)
		if err != nil {
			t.Fatal(err)
		}
		hit := true
		switch i % 8 {
		case 1: // another query recorded in between
			if _, err := e.Update(g, query(g, randomNodes(r, g.NumNodes(), 3))); err != nil {
				t.Fatal(err)
			}
			hit = false
		case 2:
			e.ResetMemory()
			hit = false
		case 3:
			if err := e.ImportQueryMemory([]QueryRecord{{Query: "x", Seeds: []string{g.ExternalID(seeds[0])}, Nodes: []ScoredNode{{NodeID: g.ExternalID(seeds[0]), Score: 1}}}}); err != nil {
				t.Fatal(err)
			}
			hit = false
		case 4: // Update for other seeds
			q.Seeds = append(slices.Clone(seeds), (seeds[0]+1)%graph.NodeID(g.NumNodes()))
			hit = false
		case 5: // Update for the same seeds (node IDs) of the other graph
			if g == g1 {
				g = g2
			} else {
				g = g1
			}
			q = query(g, seeds)
			hit = false
		}
		e.mu.Lock()
		want := e.mem.primingCount(g, q.Seeds, e.p.MemorySeedsPerQuery, e.p.PrimingLimit, e.p.BigramBoost)
		if hit {
			if want != len(primed) {
				t.Fatalf("query %d: memory unchanged, but %d primed nodes counted and %d listed", i, want, len(primed))
			}
			want = 1000 + i // a count Update can only have taken from Priming
			e.primed.n = want
		}
		e.mu.Unlock()
		st, err := e.Update(g, q)
		if err != nil {
			t.Fatal(err)
		}
		if st.PrimingNodes != want {
			t.Fatalf("query %d (case %d): PrimingNodes %d, want %d", i, i%8, st.PrimingNodes, want)
		}
	}
}
