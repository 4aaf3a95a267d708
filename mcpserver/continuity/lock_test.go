package continuity

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/m1nd-go/m1nd/core/graph"
)

// chain builds a → b → c → d (calls) plus file containment for a, with
// optional extra nodes and edges.
func chain(t testing.TB, extra func(g *graph.Graph, id map[string]graph.NodeID)) *graph.Graph {
	t.Helper()
	g := graph.New()
	id := map[string]graph.NodeID{}
	for _, x := range []string{"file::a.py", "file::a.py::f", "file::b.py", "file::c.py", "file::d.py"} {
		typ := graph.File
		if strings.Count(x, "::") > 1 {
			typ = graph.Function
		}
		n, err := g.AddNode(graph.Node{ExternalID: x, Label: x[strings.LastIndex(x, ":")+1:], Type: typ})
		if err != nil {
			t.Fatal(err)
		}
		id[x] = n
	}
	g.AddEdge(graph.Edge{Source: id["file::a.py"], Target: id["file::a.py::f"], Relation: "contains", Weight: 1, Direction: graph.Bidirectional})
	g.AddEdge(graph.Edge{Source: id["file::a.py::f"], Target: id["file::b.py"], Relation: "calls", Weight: 0.5})
	g.AddEdge(graph.Edge{Source: id["file::b.py"], Target: id["file::c.py"], Relation: "imports", Weight: 0.5})
	g.AddEdge(graph.Edge{Source: id["file::c.py"], Target: id["file::d.py"], Relation: "imports", Weight: 0.5})
	if extra != nil {
		extra(g, id)
	}
	g.Finalize()
	return g
}

func lookupAll(t testing.TB, g *graph.Graph, xs ...string) []graph.NodeID {
	var out []graph.NodeID
	for _, x := range xs {
		n, ok := g.Lookup(x)
		if !ok {
			t.Fatalf("no node %s", x)
		}
		out = append(out, n)
	}
	return out
}

func ext(g *graph.Graph, ns []graph.NodeID) []string {
	var out []string
	for _, n := range ns {
		out = append(out, g.ExternalID(n))
	}
	slices.Sort(out)
	return out
}

func TestRegionNodes(t *testing.T) {
	g := chain(t, nil)
	roots := lookupAll(t, g, "file::b.py")
	for _, c := range []struct {
		scope  string
		radius int
		want   string
	}{
		{ScopeNode, 0, "file::b.py"},
		{ScopeSubgraph, 1, "file::a.py::f,file::b.py,file::c.py"},
		{ScopeSubgraph, 2, "file::a.py,file::a.py::f,file::b.py,file::c.py,file::d.py"},
	} {
		got, err := RegionNodes(g, c.scope, roots, c.radius, nil)
		if err != nil || strings.Join(ext(g, got), ",") != c.want {
			t.Errorf("%s r=%d: %v %v, want %s", c.scope, c.radius, ext(g, got), err, c.want)
		}
	}
}

func TestRegionTooBig(t *testing.T) {
	g := graph.New()
	hub, _ := g.AddNode(graph.Node{ExternalID: "hub"})
	for i := range MaxBaselineNodes + 10 {
		n, _ := g.AddNode(graph.Node{ExternalID: fmt.Sprint("n", i)})
		g.AddEdge(graph.Edge{Source: n, Target: hub, Relation: "imports", Weight: 1})
	}
	g.Finalize()
	if _, err := RegionNodes(g, ScopeSubgraph, []graph.NodeID{hub}, 1, nil); err == nil {
		t.Fatal("a region over the limit was taken")
	} else if k, _ := kindOf(err); k != Limit {
		t.Errorf("kind %v", k)
	}
}

func env(g *graph.Graph, gen uint64, files map[string]FileHash) Env {
	return Env{Graph: g, GraphGen: gen, Epoch: "e1",
		FileOf: func(n graph.NodeID) graph.NodeID {
			x := g.ExternalID(n)
			if i := strings.Index(x[6:], "::"); i >= 0 {
				f, _ := g.Lookup(x[:6+i])
				return f
			}
			return n
		},
		Stat: func(f string) (int64, int64, bool) { h, ok := files[f]; return h.Size, h.MTimeNS, ok },
		Hash: func(f string) (FileHash, bool) { h, ok := files[f]; return h, ok },
	}
}

func TestCaptureAndDiff(t *testing.T) {
	g := chain(t, nil)
	files := map[string]FileHash{"file::a.py": {Path: "a.py", Size: 10, SHA256: "x"}, "file::b.py": {Path: "b.py", Size: 5, SHA256: "y"}}
	roots := lookupAll(t, g, "file::a.py")
	nodes, _ := RegionNodes(g, ScopeSubgraph, roots, 2, nil)
	base, err := Capture(env(g, 1, files), nodes)
	if err != nil {
		t.Fatal(err)
	}
	if len(base.Nodes) != 3 || len(base.Edges) != 2 || len(base.Boundary) != 1 || len(base.Files) != 2 {
		t.Fatalf("baseline %d nodes, edges %v, boundary %v, files %v", len(base.Nodes), base.Edges, base.Boundary, base.Files)
	}
	l := &Lock{ID: "lock_x_001", Scope: ScopeSubgraph, Radius: 2, Roots: []string{"file::a.py"}, Base: base}
	// Same graph, same generation: the fast path, no changes.
	if d, _ := DiffLock(env(g, 1, files), l); !d.NoChanges || !d.FastPath || d.BaselineStale {
		t.Errorf("unchanged: %+v", d)
	}
	// A new function in a.py calling c.py, b.py's contents edited.
	g2 := chain(t, func(g *graph.Graph, id map[string]graph.NodeID) {
		h, _ := g.AddNode(graph.Node{ExternalID: "file::a.py::h", Label: "h", Type: graph.Function})
		g.AddEdge(graph.Edge{Source: id["file::a.py"], Target: h, Relation: "contains", Weight: 1, Direction: graph.Bidirectional})
		g.AddEdge(graph.Edge{Source: h, Target: id["file::c.py"], Relation: "calls", Weight: 0.5})
	})
	files2 := map[string]FileHash{"file::a.py": files["file::a.py"], "file::b.py": {Path: "b.py", Size: 6, SHA256: "z"}}
	d, err := DiffLock(env(g2, 2, files2), l)
	if err != nil {
		t.Fatal(err)
	}
	want := Diff{LockID: "lock_x_001",
		NewNodes: []string{"file::a.py::h", "file::c.py"}, RemovedNodes: []string{}, ChangedNodes: []string{"file::a.py"},
		NewEdges: []string{"file::a.py::h|file::c.py|calls", "file::a.py|file::a.py::h|contains", "file::b.py|file::c.py|imports"}, RemovedEdges: []string{},
		BoundaryAdded: []string{"file::c.py|file::d.py|imports"}, BoundaryRemoved: []string{"file::b.py|file::c.py|imports"},
		WeightChanges: []WeightChange{}, FilesChanged: []FileChange{{NodeID: "file::b.py", Path: "b.py", Change: "modified"}},
		BaselineStale: true,
		Counts: map[string]int{"new_nodes": 2, "removed_nodes": 0, "changed_nodes": 1, "new_edges": 3, "removed_edges": 0,
			"boundary_edges_added": 1, "boundary_edges_removed": 1, "weight_changes": 0, "files_changed": 1},
	}
	if diff := cmp.Diff(want, d); diff != "" {
		t.Errorf("diff (-want +got):\n%s", diff)
	}
	// Learning moved a weight: reported, the graph's structure the same.
	e, _ := g.FindEdgeByName(lookupAll(t, g, "file::a.py::f")[0], lookupAll(t, g, "file::b.py")[0], "calls")
	g.UpdateWeight(e, func(float32) float32 { return 0.9 })
	ev := env(g, 1, files)
	ev.PlasGen = 1
	d, _ = DiffLock(ev, l)
	if d.NoChanges || d.FastPath || len(d.WeightChanges) != 1 || d.WeightChanges[0].NewWeight != 0.9 || d.BaselineStale {
		t.Errorf("after learning: %+v", d)
	}
}

func TestLockStore(t *testing.T) {
	dir := t.TempDir()
	s := open(t, dir)
	g := chain(t, nil)
	nodes, _ := RegionNodes(g, ScopeNode, lookupAll(t, g, "file::a.py"), 0, nil)
	base, _ := Capture(env(g, 1, nil), nodes)
	l, err := s.Locks.Create(Lock{AgentID: "jimi", Scope: ScopeNode, Roots: []string{"file::a.py"}, Base: base, PerspectiveID: "persp_jimi_001"})
	if err != nil || l.ID != "lock_jimi_001" || l.Strategy != WatchManual {
		t.Fatalf("create: %+v %v", l, err)
	}
	// Another agent can neither use nor see it.
	err = s.Locks.With("other", l.ID, func(*Lock) (*Lock, error) { return nil, nil })
	if k, _ := kindOf(err); k != NotOwner {
		t.Errorf("other agent: %v", err)
	}
	if k, _ := kindOf(s.Locks.Release("jimi", "lock_jimi_999")); k != NotFound {
		t.Errorf("unknown lock")
	}
	s.Locks.With("jimi", l.ID, func(l *Lock) (*Lock, error) { nl := *l; nl.Strategy = WatchOnIngest; return &nl, nil })
	s.Observe("graph_replaced", 2, 0)
	s.Observe("learned", 2, 1)
	ev, _, _ := s.Locks.Drain("jimi", l.ID)
	if len(ev) != 1 || ev[0].Kind != "graph_replaced" {
		t.Errorf("events %v", ev)
	}
	// Survives a restart, strategy included.
	s2 := open(t, dir)
	var got *Lock
	s2.Locks.With("jimi", l.ID, func(l *Lock) (*Lock, error) { got = l; return nil, nil })
	if got == nil || got.Strategy != WatchOnIngest || len(got.Base.Nodes) != 1 {
		t.Fatalf("after restart %+v", got)
	}
	if rel := s2.Locks.ReleaseForPerspective("jimi", "persp_jimi_001"); len(rel) != 1 || s2.Locks.Len() != 0 {
		t.Errorf("cascade release %v", rel)
	}
	if s3 := open(t, dir); s3.Locks.Len() != 0 {
		t.Errorf("released lock back after restart")
	}
	for i := range MaxLocksPerAgent {
		if _, err := s2.Locks.Create(Lock{AgentID: "jimi", Scope: ScopeNode, Roots: []string{"x"}, Base: base}); err != nil {
			t.Fatal(i, err)
		}
	}
	if _, err := s2.Locks.Create(Lock{AgentID: "jimi", Scope: ScopeNode, Roots: []string{"x"}, Base: base}); err == nil {
		t.Error("per-agent cap not enforced")
	}
}

func TestLocksConcurrent(t *testing.T) {
	s := open(t, t.TempDir())
	g := chain(t, nil)
	nodes, _ := RegionNodes(g, ScopeNode, lookupAll(t, g, "file::a.py"), 0, nil)
	base, _ := Capture(env(g, 1, nil), nodes)
	var wg sync.WaitGroup
	for a := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			agent := fmt.Sprint("agent-", a)
			for range 12 {
				l, err := s.Locks.Create(Lock{AgentID: agent, Scope: ScopeNode, Roots: []string{"file::a.py"}, Base: base})
				if err != nil {
					if k, _ := kindOf(err); k != Limit {
						t.Error(err)
					}
					continue
				}
				s.Locks.With(agent, l.ID, func(l *Lock) (*Lock, error) { nl := *l; nl.Rebases++; return &nl, nil })
				s.Observe("learned", 1, 1)
			}
		}()
	}
	wg.Wait()
	if s.Locks.Len() != 8*MaxLocksPerAgent {
		t.Errorf("%d locks, want %d", s.Locks.Len(), 8*MaxLocksPerAgent)
	}
}
