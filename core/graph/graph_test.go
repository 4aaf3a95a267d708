package graph_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/graph/graphtest"
)

func TestInterner(t *testing.T) {
	in := graph.NewInterner()
	if in.String(0) != "" || in.Len() != 1 {
		t.Fatal("handle 0 must be the empty string")
	}
	tests := []string{"auth", "session", "auth", "", "Auth"}
	seen := map[string]graph.Str{}
	for _, s := range tests {
		h := in.Intern(s)
		if prev, ok := seen[s]; ok && prev != h {
			t.Errorf("Intern(%q) = %d, earlier %d", s, h, prev)
		}
		seen[s] = h
		if got := in.String(h); got != s {
			t.Errorf("String(Intern(%q)) = %q", s, got)
		}
	}
	if in.Len() != 4 {
		t.Errorf("Len = %d, want 4 distinct strings incl. empty", in.Len())
	}
	if _, ok := in.Lookup("missing"); ok {
		t.Error("Lookup of an absent string succeeded")
	}
	if in.String(999) != "" {
		t.Error("unknown handle must resolve to empty")
	}
}

func TestNodeTypes(t *testing.T) {
	tests := []struct {
		in   string
		want graph.NodeType
	}{
		{"File", graph.File}, {"function", graph.Function}, {"COST", graph.Cost},
		{"Custom(3)", graph.Custom(3)}, {"7", graph.Module},
	}
	for _, tc := range tests {
		got, err := graph.ParseNodeType(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("ParseNodeType(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
		if back, _ := graph.ParseNodeType(got.String()); back != got {
			t.Errorf("%v does not round-trip through String", got)
		}
	}
	if _, err := graph.ParseNodeType("Widget"); err == nil {
		t.Error("unknown type accepted")
	}
	if n, ok := graph.Custom(2).IsCustom(); !ok || n != 2 {
		t.Error("Custom(2).IsCustom")
	}
}

func TestAddNodeErrors(t *testing.T) {
	g := graph.New()
	if _, err := g.AddNode(graph.Node{}); !errors.Is(err, graph.ErrEmptyExternalID) {
		t.Errorf("empty id: %v", err)
	}
	id, err := g.AddNode(graph.Node{ExternalID: "file::a.py", Label: "a.py"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = g.AddNode(graph.Node{ExternalID: "file::a.py", Label: "other"})
	if !errors.Is(err, graph.ErrDuplicateNode) {
		t.Fatalf("duplicate: %v", err)
	}
	if g.NumNodes() != 1 || g.Label(id) != "a.py" {
		t.Error("a rejected duplicate changed the graph")
	}
	if err := g.AddEdge(graph.Edge{Source: id, Target: 5, Relation: "calls", Weight: 1}); !errors.Is(err, graph.ErrUnknownNode) {
		t.Errorf("edge to unknown node: %v", err)
	}
}

func TestFiniteGuards(t *testing.T) {
	nan, inf := float32(math.NaN()), float32(math.Inf(1))
	g := graph.New()
	a, _ := g.AddNode(graph.Node{ExternalID: "a", ChangeFrequency: nan, LastModified: math.Inf(-1)})
	b, _ := g.AddNode(graph.Node{ExternalID: "b", ChangeFrequency: 7})
	for _, w := range []float32{nan, inf, -inf} {
		if err := g.AddEdge(graph.Edge{Source: a, Target: b, Relation: "calls", Weight: w}); !errors.Is(err, graph.ErrNonFinite) {
			t.Errorf("weight %v accepted: %v", w, err)
		}
		if err := g.AddEdge(graph.Edge{Source: a, Target: b, Relation: "calls", Weight: 1, CausalStrength: w}); !errors.Is(err, graph.ErrNonFinite) {
			t.Errorf("causal %v accepted: %v", w, err)
		}
	}
	if err := g.AddEdge(graph.Edge{Source: a, Target: b, Relation: "calls", Weight: 1}); err != nil {
		t.Fatal(err)
	}
	g.Finalize()
	if g.ChangeFrequency(a) != 0 || g.ChangeFrequency(b) != 1 || g.LastModified(a) != 0 {
		t.Errorf("node numbers not guarded: %v %v %v", g.ChangeFrequency(a), g.ChangeFrequency(b), g.LastModified(a))
	}
	e, _ := g.FindEdgeByName(a, b, "calls")
	if _, err := g.UpdateWeight(e, func(float32) float32 { return nan }); !errors.Is(err, graph.ErrNonFinite) {
		t.Error("UpdateWeight accepted NaN")
	}
	if err := g.AtomicMaxWeight(e, inf); !errors.Is(err, graph.ErrNonFinite) {
		t.Error("AtomicMaxWeight accepted Inf")
	}
	if g.Weight(e) != 1 {
		t.Errorf("weight changed to %v by rejected updates", g.Weight(e))
	}
}

// checkCSR verifies the structural invariants of a finalized graph.
func checkCSR(t *testing.T, g *graph.Graph) {
	t.Helper()
	n := g.NumNodes()
	seenRev := make([]int, g.NumEdges())
	for v := 0; v < n; v++ {
		id := graph.NodeID(v)
		lo, hi := g.OutRange(id)
		if lo > hi {
			t.Fatalf("offsets not monotone at node %d", v)
		}
		for e := lo; e < hi; e++ {
			if g.Source(e) != id {
				t.Fatalf("edge %d source %d, expected %d", e, g.Source(e), id)
			}
			if e > lo {
				if g.Target(e-1) > g.Target(e) {
					t.Fatalf("edges of node %d not sorted by target at %d", v, e)
				}
				for k := e - 1; k >= lo && g.Target(k) == g.Target(e); k-- {
					if g.Relation(k) == g.Relation(e) {
						t.Fatalf("node %d repeats a (target, relation) at edge %d", v, e)
					}
					if k == 0 {
						break
					}
				}
			}
			if g.EdgeDirection(e) == graph.Bidirectional && g.Source(e) != g.Target(e) {
				if _, ok := g.FindEdge(g.Target(e), g.Source(e), g.Relation(e)); !ok {
					t.Fatalf("bidirectional edge %d has no reverse entry", e)
				}
			}
		}
		ilo, ihi := g.InRange(id)
		for p := ilo; p < ihi; p++ {
			e := g.InEdge(p)
			if g.Target(e) != id || g.Source(e) != g.InSource(p) {
				t.Fatalf("reverse entry %d of node %d points at edge %d (%d->%d)", p, v, e, g.Source(e), g.Target(e))
			}
			seenRev[e]++
		}
	}
	for e, c := range seenRev {
		if c != 1 {
			t.Fatalf("edge %d appears %d times in the reverse CSR", e, c)
		}
	}
}

func TestCSRInvariantsRandom(t *testing.T) {
	for seed := uint64(1); seed <= 20; seed++ {
		r := rand.New(rand.NewPCG(seed, 7))
		g := graph.New()
		n := 1 + r.IntN(60)
		for i := 0; i < n; i++ {
			g.AddNode(graph.Node{ExternalID: string(rune('A'+i%26)) + string(rune('a'+i/26))})
		}
		rels := []string{"calls", "contains", "imports"}
		for k := r.IntN(200); k > 0; k-- {
			d := graph.Forward
			if r.IntN(3) == 0 {
				d = graph.Bidirectional
			}
			g.AddEdge(graph.Edge{Source: graph.NodeID(r.IntN(n)), Target: graph.NodeID(r.IntN(n)), Relation: rels[r.IntN(3)], Weight: r.Float32(), Direction: d})
		}
		g.Finalize()
		checkCSR(t, g)
	}
	checkCSR(t, graphtest.PowerLaw(5000, 13000, 3))
}

func TestDuplicateEdgesKeepMaxWeight(t *testing.T) {
	g := graph.New()
	a, _ := g.AddNode(graph.Node{ExternalID: "a"})
	b, _ := g.AddNode(graph.Node{ExternalID: "b"})
	for _, w := range []float32{0.2, 0.9, 0.4} {
		g.AddEdge(graph.Edge{Source: a, Target: b, Relation: "calls", Weight: w})
	}
	g.AddEdge(graph.Edge{Source: a, Target: b, Relation: "imports", Weight: 0.1})
	g.Finalize()
	if g.NumEdges() != 2 {
		t.Fatalf("want 2 edges (one per relation), got %d", g.NumEdges())
	}
	e, ok := g.FindEdgeByName(a, b, "calls")
	if !ok || g.Weight(e) != 0.9 || g.EdgePlasticity().Original[e] != 0.9 {
		t.Errorf("calls weight %v ok=%v", g.Weight(e), ok)
	}
	if got := len(g.EdgesBetween(a, b)); got != 2 {
		t.Errorf("EdgesBetween = %d", got)
	}
}

// pageRankDense is an independent reference: the Google matrix with dense
// rows, dangling nodes linking everywhere, iterated to a fixed point.
func pageRankDense(n int, edges [][2]int) []float64 {
	out := make([][]int, n)
	for _, e := range edges {
		out[e[0]] = append(out[e[0]], e[1])
	}
	m := make([][]float64, n) // m[i][j]: probability of moving i -> j
	for i := range m {
		m[i] = make([]float64, n)
		for j := range m[i] {
			m[i][j] = 0.15 / float64(n)
			if len(out[i]) == 0 {
				m[i][j] += 0.85 / float64(n)
			}
		}
		for _, j := range out[i] {
			m[i][j] += 0.85 / float64(len(out[i]))
		}
	}
	p := make([]float64, n)
	for i := range p {
		p[i] = 1 / float64(n)
	}
	for it := 0; it < 1000; it++ {
		q := make([]float64, n)
		for i := range m {
			for j := range m[i] {
				q[j] += p[i] * m[i][j]
			}
		}
		p = q
	}
	return p
}

func TestPageRankAgainstReference(t *testing.T) {
	tests := []struct {
		name  string
		n     int
		edges [][2]int
	}{
		{"chain", 4, [][2]int{{0, 1}, {1, 2}, {2, 3}}},
		{"star-in", 5, [][2]int{{1, 0}, {2, 0}, {3, 0}, {4, 0}}},
		{"cycle+tail", 5, [][2]int{{0, 1}, {1, 2}, {2, 0}, {3, 2}, {4, 3}}},
		{"isolated", 3, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := graph.New()
			for i := 0; i < tc.n; i++ {
				g.AddNode(graph.Node{ExternalID: string(rune('a' + i))})
			}
			for _, e := range tc.edges {
				g.AddEdge(graph.Edge{Source: graph.NodeID(e[0]), Target: graph.NodeID(e[1]), Relation: "r", Weight: 1})
			}
			g.Finalize()
			want := pageRankDense(tc.n, tc.edges)
			got := graph.PageRankRaw(g, 0.85, 1000, 1e-12)
			maxw := 0.0
			for i := range want {
				if math.Abs(got[i]-want[i]) > 1e-6 {
					t.Errorf("node %d: pagerank %v, reference %v", i, got[i], want[i])
				}
				maxw = math.Max(maxw, want[i])
			}
			for i := range want {
				norm := g.PageRank(graph.NodeID(i))
				if math.Abs(float64(norm)-want[i]/maxw) > 1e-3 {
					t.Errorf("node %d: normalised %v, want %v", i, norm, want[i]/maxw)
				}
				if norm < 0 || norm > 1 {
					t.Errorf("normalised pagerank %v outside [0,1]", norm)
				}
			}
		})
	}
}

func TestLookups(t *testing.T) {
	g := graph.New()
	f, _ := g.AddNode(graph.Node{ExternalID: "file::a.py", Label: "a.py", Type: graph.File, Tags: []string{"python", "api", "api"}, Provenance: graph.Provenance{SourcePath: "a.py"}})
	h1, _ := g.AddNode(graph.Node{ExternalID: "file::a.py::handle", Label: "handle", Type: graph.Function, Tags: []string{"api"}, Provenance: graph.Provenance{SourcePath: "a.py", LineStart: 3, LineEnd: 9}})
	h2, _ := g.AddNode(graph.Node{ExternalID: "file::b.py::handle", Label: "handle", Type: graph.Function})
	g.AddEdge(graph.Edge{Source: f, Target: h1, Relation: "contains", Weight: 1, Direction: graph.Bidirectional})
	g.AddEdge(graph.Edge{Source: h2, Target: h1, Relation: "calls", Weight: 0.5})
	g.Finalize()

	if diff := cmp.Diff([]graph.NodeID{h1, h2}, g.NodesByLabel("handle")); diff != "" {
		t.Errorf("NodesByLabel: %s", diff)
	}
	if diff := cmp.Diff([]graph.NodeID{f, h1}, g.NodesByTag("api")); diff != "" {
		t.Errorf("NodesByTag: %s", diff)
	}
	if diff := cmp.Diff([]graph.NodeID{f, h1}, g.NodesByPath("a.py")); diff != "" {
		t.Errorf("NodesByPath: %s", diff)
	}
	if diff := cmp.Diff([]string{"python", "api"}, g.Tags(f)); diff != "" {
		t.Errorf("tags deduplicated: %s", diff)
	}
	if !g.HasTag(h1, "api") || g.HasTag(h2, "api") {
		t.Error("HasTag")
	}
	if diff := cmp.Diff([]graph.NodeID{h1}, g.FindNodes("file::a.py::handle")); diff != "" {
		t.Error(diff)
	}
	if diff := cmp.Diff([]graph.NodeID{h1, h2}, g.FindNodes("HANDLE")); diff != "" {
		t.Error(diff)
	}
	if diff := cmp.Diff(map[graph.NodeType]int{graph.File: 1, graph.Function: 2}, g.CountByType()); diff != "" {
		t.Error(diff)
	}
	d := g.Degrees()
	if d.Edges != 3 || d.MaxIn != 2 || math.Abs(d.AvgDegree-1) > 1e-9 {
		t.Errorf("degrees %+v", d)
	}
	want := []graph.Neighbor{
		{Node: f, Edge: 1, Relation: "contains", Weight: 1},
		{Node: f, Edge: 0, Relation: "contains", Weight: 1, Incoming: true},
		{Node: h2, Edge: 2, Relation: "calls", Weight: 0.5, Incoming: true},
	}
	if diff := cmp.Diff(want, g.Neighbors(h1)); diff != "" {
		t.Errorf("Neighbors(h1): %s", diff)
	}
	if p := g.Provenance(h1); p.LineStart != 3 || p.LineEnd != 9 || p.SourcePath != "a.py" {
		t.Errorf("provenance %+v", p)
	}
}

func TestMerge(t *testing.T) {
	base := graph.New()
	a, _ := base.AddNode(graph.Node{ExternalID: "a", Label: "old-a", Tags: []string{"x"}})
	b, _ := base.AddNode(graph.Node{ExternalID: "b"})
	base.AddEdge(graph.Edge{Source: a, Target: b, Relation: "calls", Weight: 1})
	base.Finalize()
	gen := base.Generation()
	e, _ := base.FindEdgeByName(a, b, "calls")
	base.AtomicWriteWeight(e, 2.5) // learned

	other := graph.New()
	oa, _ := other.AddNode(graph.Node{ExternalID: "a", Label: "new-a", Tags: []string{"y"}})
	oc, _ := other.AddNode(graph.Node{ExternalID: "c"})
	ob, _ := other.AddNode(graph.Node{ExternalID: "b"})
	other.AddEdge(graph.Edge{Source: oa, Target: ob, Relation: "calls", Weight: 0.3})
	other.AddEdge(graph.Edge{Source: oc, Target: oa, Relation: "contains", Weight: 1, Direction: graph.Bidirectional})
	other.Finalize()

	if err := base.Merge(other); err != nil {
		t.Fatal(err)
	}
	if base.Finalized() {
		t.Error("graph claims to be finalized with staged changes")
	}
	base.Finalize()
	checkCSR(t, base)
	if base.Generation() != gen+1 {
		t.Errorf("generation %d, want %d", base.Generation(), gen+1)
	}
	if base.NumNodes() != 3 || base.Label(a) != "new-a" || !base.HasTag(a, "y") || base.HasTag(a, "x") {
		t.Errorf("node a not updated in place: %q %v", base.Label(a), base.Tags(a))
	}
	e, ok := base.FindEdgeByName(a, b, "calls")
	if !ok || base.Weight(e) != 2.5 {
		t.Errorf("learned weight lost in merge: %v", base.Weight(e))
	}
	c, _ := base.Lookup("c")
	if _, ok := base.FindEdgeByName(a, c, "contains"); !ok {
		t.Error("merged bidirectional edge lacks its mirror")
	}
}

func TestCloneIsIndependent(t *testing.T) {
	g := graphtest.PowerLaw(500, 1300, 9)
	c := g.Clone()
	c.AtomicWriteWeight(0, 2.9)
	if g.Weight(0) == 2.9 {
		t.Error("clone shares weights")
	}
	c.UpsertNode(graph.Node{ExternalID: g.ExternalID(1), Label: "renamed"})
	c.Finalize()
	if g.Label(1) == "renamed" {
		t.Error("clone shares nodes")
	}
	checkCSR(t, c)
}

func TestRawRoundTrip(t *testing.T) {
	g := graphtest.PowerLaw(2000, 5000, 4)
	g.AtomicWriteWeight(3, 1.75)
	g.EdgePlasticity().Strengthen[3] = 4
	r, err := g.ToRaw()
	if err != nil {
		t.Fatal(err)
	}
	h, err := graph.FromRaw(r)
	if err != nil {
		t.Fatal(err)
	}
	r2, _ := h.ToRaw()
	if diff := cmp.Diff(r, r2); diff != "" {
		t.Errorf("raw round trip differs: %s", diff)
	}
	checkCSR(t, h)
	if h.Generation() != g.Generation() {
		t.Error("generation lost")
	}
	// Corruptions are errors, not panics.
	bad := *r
	bad.Targets = append([]uint32(nil), r.Targets...)
	bad.Targets[0] = 1 << 30
	if _, err := graph.FromRaw(&bad); err == nil {
		t.Error("out-of-range target accepted")
	}
	bad = *r
	bad.Offsets = r.Offsets[:3]
	if _, err := graph.FromRaw(&bad); err == nil {
		t.Error("short offsets accepted")
	}
}

func TestAtomicWeightsConcurrent(t *testing.T) {
	g := graphtest.PowerLaw(1000, 3000, 5)
	var wg sync.WaitGroup
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := 0; i < 2000; i++ {
				e := graph.EdgeIdx((i*7 + w) % g.NumEdges())
				switch i % 3 {
				case 0:
					g.UpdateWeight(e, func(old float32) float32 { return old + 0.001 })
				case 1:
					g.AtomicMaxWeight(e, float32(i%5)/2)
				default:
					_ = g.Weight(e)
				}
			}
		}(w)
	}
	wg.Wait()
	for e := 0; e < g.NumEdges(); e++ {
		if !graph.IsFinite(g.Weight(graph.EdgeIdx(e))) {
			t.Fatal("non-finite weight after concurrent updates")
		}
	}
	// AtomicMaxWeight only raises.
	g.AtomicWriteWeight(0, 1)
	g.AtomicMaxWeight(0, 0.5)
	if g.Weight(0) != 1 {
		t.Error("AtomicMaxWeight lowered a weight")
	}
	g.AtomicMaxWeight(0, 1.5)
	if g.Weight(0) != 1.5 {
		t.Error("AtomicMaxWeight did not raise")
	}
}
