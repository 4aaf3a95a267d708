package code

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/history"
	"github.com/m1nd-go/m1nd/core/testcorpus"
	"github.com/m1nd-go/m1nd/ingest/adapter"
	"github.com/m1nd-go/m1nd/ingest/gitmeta"
	"github.com/m1nd-go/m1nd/ingest/internal/graphdump"
)

func ingest(t *testing.T, req adapter.Request) *adapter.Output {
	t.Helper()
	out, err := Ingest(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func secs(t time.Time) float64 { return float64(t.UnixNano()) / 1e9 }

func TestIngestFixture(t *testing.T) {
	r := newFixtureRepo(t)
	out := ingest(t, adapter.Request{Root: r.Dir})
	d := graphdump.Of(out.Graph)

	mustEdge := func(src, rel, dst string) {
		t.Helper()
		if !d.Has(src, rel, dst) {
			t.Errorf("missing edge %s -%s-> %s", src, rel, dst)
		}
	}
	noEdge := func(src, rel, dst string) {
		t.Helper()
		if d.Has(src, rel, dst) {
			t.Errorf("unexpected edge %s -%s-> %s", src, rel, dst)
		}
	}
	// Structure.
	mustEdge("dir::app", "contains", "file::app/models.py")
	mustEdge("file::app/models.py", "contains", "file::app/models.py::User")
	mustEdge("file::app/models.py::User", "contains", "file::app/models.py::User::save")
	// Import hints and receiver types.
	mustEdge("file::app/service.py", "imports", "file::app/models.py::User")
	mustEdge("file::app/service.py", "imports", "file::app/util.py")
	mustEdge("file::app/service.py::Service::run", "calls", "file::app/models.py::User::save")
	noEdge("file::app/service.py::Service::run", "calls", "file::app/models.py::Account::save")
	// Same-named helpers: same file beats same directory beats elsewhere;
	// util.helper() follows the imported module.
	mustEdge("file::app/service.py::Service::run", "calls", "file::app/service.py::helper")
	mustEdge("file::app/service.py::helper", "calls", "file::app/util.py::helper")
	noEdge("file::app/service.py::helper", "calls", "file::lib/util.py::helper")
	mustEdge("file::tests/test_service.py", "imports", "file::app/service.py::Service")
	mustEdge("file::tests/test_service.py::test_run", "calls", "file::app/service.py::Service::run")
	// Go: package import, pkg.Func, method through an inferred receiver.
	mustEdge("file::cmd/main.go", "imports", "dir::store")
	mustEdge("file::cmd/main.go::main", "calls", "file::store/db.go::New")
	// db := store.New(); db.Query(): db is typed by New's declared result.
	mustEdge("file::cmd/main.go::main", "calls", "file::store/db.go::DB::Query")
	// Tests and packages.
	mustEdge("file::store/db_test.go", "tests", "file::store/db.go")
	mustEdge("file::tests/test_service.py", "tests", "file::app/service.py")
	mustEdge("package::go::example.com/shop", "contains", "file::store/db.go")
	mustEdge("package::python::app", "contains", "file::app/models.py")
	noEdge("package::go::example.com/shop", "contains", "file::lib/util.py")

	for _, e := range d.Edges {
		cs, dir := CausalStrength(e.Relation)
		if e.Causal != cs || e.Direction != dir.String() {
			t.Errorf("%s -%s-> %s: causal %v %s, want %v %s", e.Source, e.Relation, e.Target, e.Causal, e.Direction, cs, dir)
		}
		if strings.HasPrefix(e.Target, "ref::") || strings.HasPrefix(e.Source, "ref::") {
			t.Errorf("unresolved reference kept: %s -%s-> %s", e.Source, e.Relation, e.Target)
		}
	}
	for _, c := range []struct {
		rel string
		cs  float32
		dir graph.Direction
	}{{"contains", 0.8, graph.Bidirectional}, {"implements", 0.7, graph.Bidirectional}, {"imports", 0.6, graph.Forward},
		{"imports::type", 0.6, graph.Forward}, {"calls", 0.5, graph.Forward}, {"references", 0.3, graph.Forward}, {"inherits", 0.4, graph.Forward}} {
		if cs, dir := CausalStrength(c.rel); cs != c.cs || dir != c.dir {
			t.Errorf("CausalStrength(%s) = %v %v", c.rel, cs, dir)
		}
	}

	// Provenance and git enrichment: service.py changed in all three
	// commits, util.py in two, models.py once.
	svc, _ := d.Node("file::app/service.py::Service::run")
	if svc.Prov.SourcePath != "app/service.py" || svc.Prov.LineStart != 6 || svc.Prov.LineEnd != 9 || svc.Prov.Namespace != "code" {
		t.Errorf("provenance %+v", svc.Prov)
	}
	if svc.LastModified != secs(day(2)) || svc.ChangeFrequency != gitmeta.ChangeFrequency(3) {
		t.Errorf("service.py times: %v %v", svc.LastModified, svc.ChangeFrequency)
	}
	if u, _ := d.Node("file::app/util.py"); u.LastModified != secs(day(1)) {
		t.Errorf("util.py last_modified %v", u.LastModified)
	}
	if dn, _ := d.Node("dir::app"); dn.LastModified != secs(day(2)) || dn.Type != "Directory" {
		t.Errorf("dir::app %+v", dn)
	}
	for _, n := range d.Nodes {
		if strings.Contains(n.ID, "secrets") || strings.Contains(n.ID, "debug.log") || strings.Contains(n.ID, "node_modules") ||
			strings.Contains(n.ID, "data.bin") || strings.Contains(n.ID, "latin.txt") {
			t.Errorf("skipped file in graph: %s", n.ID)
		}
	}

	st := out.Stats
	want := adapter.Stats{
		Adapter: "code", FilesScanned: 13, FilesParsed: 11, FilesSkippedBinary: 1, FilesSkippedEncoding: 1, FilesIgnored: 2,
		Languages:          map[string]int{"go": 3, "gomod": 1, "markdown": 1, "python": 6},
		ReferencesResolved: st.ReferencesResolved, // checked below
		// testing, testing.T (the standard library is not in the
		// repository); db.Query() and New().Query() resolve through New's
		// declared result type.
		ReferencesUnresolved: 2,
		TestLinks:            2, Packages: 2, CommitsRead: 3, CommitGroups: 3, GitHistory: "read",
		NodesCreated: out.Graph.NumNodes(), EdgesCreated: len(d.Edges), GraphNodes: out.Graph.NumNodes(), GraphEdges: len(d.Edges),
	}
	got := st
	got.ElapsedMs, got.PhaseMs, got.Warnings = 0, nil, nil
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("stats (-want +got):\n%s", diff)
	}
	if st.ReferencesResolved < 13 || st.ReferencesAmbiguous != 0 {
		t.Errorf("resolved %d ambiguous %d", st.ReferencesResolved, st.ReferencesAmbiguous)
	}
	if out.Root.GitBranch != "master" || out.Root.GitHead == "" || out.Root.GitRoot != r.Dir {
		t.Errorf("root info %+v", out.Root)
	}
	wantGroups := [][]string{{"file::app/service.py"}, {"file::app/service.py", "file::app/util.py"}}
	groups := history.Groups(out.Commits)
	if diff := cmp.Diff(wantGroups, groups[:2]); diff != "" || len(groups[2]) != 11 {
		t.Errorf("commit groups (-want +got):\n%s\nlast group %v", diff, groups[2])
	}
	for i, c := range out.Commits {
		if len(c.Hash) != 40 || c.Time <= 0 || c.Author == "" || c.Subject == "" {
			t.Errorf("commit %d lacks its identity: %+v", i, c)
		}
		if i > 0 && c.Time > out.Commits[i-1].Time {
			t.Errorf("commits not newest first at %d", i)
		}
	}
}

func TestOutsideGit(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"a.py": "def f():\n    return g()\n\n\ndef g():\n    pass\n"})
	mtime := time.Date(2023, 5, 1, 0, 0, 0, 0, time.UTC)
	os.Chtimes(filepath.Join(dir, "a.py"), mtime, mtime)
	out := ingest(t, adapter.Request{Root: dir})
	d := graphdump.Of(out.Graph)
	n, ok := d.Node("file::a.py::f")
	if !ok || n.ChangeFrequency != gitmeta.NotGitFrequency || n.LastModified != secs(mtime) {
		t.Errorf("node %+v", n)
	}
	if out.Commits != nil || out.Root.GitRoot != "" || !d.Has("file::a.py::f", "calls", "file::a.py::g") {
		t.Errorf("commits %v root %+v edges %v", out.Commits, out.Root, d.EdgeStrings())
	}
}

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	if err := testcorpus.Write(dir, files); err != nil {
		t.Fatal(err)
	}
}

// checkConsistent verifies what a partial graph still promises: each file
// present has all its extracted nodes, and its directory chain.
func checkConsistent(t *testing.T, d graphdump.Dump) {
	t.Helper()
	ids := map[string]bool{}
	for _, n := range d.Nodes {
		ids[n.ID] = true
	}
	for _, n := range d.Nodes {
		if n.Type != "File" {
			continue
		}
		p := strings.TrimPrefix(n.ID, "file::")
		if dir := filepath.ToSlash(filepath.Dir(p)); dir != "." && !ids["dir::"+dir] {
			t.Errorf("file %s without its directory node", p)
		}
	}
	for _, e := range d.Edges {
		if !ids[e.Source] || !ids[e.Target] {
			t.Errorf("dangling edge %s -> %s", e.Source, e.Target)
		}
	}
}

func TestBudgets(t *testing.T) {
	r := newFixtureRepo(t)
	full := ingest(t, adapter.Request{Root: r.Dir})

	part := ingest(t, adapter.Request{Root: r.Dir, MaxNodes: 8})
	st := part.Stats
	if !st.Partial || st.BudgetExhausted != "max_nodes" {
		t.Fatalf("max_nodes: partial=%v budget=%q", st.Partial, st.BudgetExhausted)
	}
	if st.FilesParsed == 0 || st.FilesParsed >= full.Stats.FilesParsed || part.Graph.NumNodes() >= full.Graph.NumNodes() {
		t.Errorf("partial graph: %d files %d nodes (full: %d files %d nodes)", st.FilesParsed, part.Graph.NumNodes(), full.Stats.FilesParsed, full.Graph.NumNodes())
	}
	pd := graphdump.Of(part.Graph)
	checkConsistent(t, pd)
	fd := graphdump.Of(full.Graph)
	// Files in the partial graph are complete: same nodes as in the full one.
	for _, n := range pd.Nodes {
		if !strings.HasPrefix(n.ID, "file::") {
			continue
		}
		if _, ok := fd.Node(n.ID); !ok {
			t.Errorf("partial graph invented %s", n.ID)
		}
	}
	for _, n := range fd.Nodes {
		file, _, _ := strings.Cut(strings.TrimPrefix(n.ID, "file::"), "::")
		if _, ok := pd.Node("file::" + file); ok && strings.HasPrefix(n.ID, "file::") {
			if _, ok := pd.Node(n.ID); !ok {
				t.Errorf("partial graph has file %s but not its node %s", file, n.ID)
			}
		}
	}

	to := ingest(t, adapter.Request{Root: r.Dir, Timeout: time.Nanosecond})
	if !to.Stats.Partial || to.Stats.BudgetExhausted != "timeout" || !to.Graph.Finalized() {
		t.Errorf("timeout: %+v finalized=%v", to.Stats, to.Graph.Finalized())
	}
	checkConsistent(t, graphdump.Of(to.Graph))
}

func TestProgressAndCancel(t *testing.T) {
	r := newFixtureRepo(t)
	var mu sync.Mutex
	var phases []adapter.Phase
	var last adapter.Progress
	ingest(t, adapter.Request{Root: r.Dir, Progress: func(p adapter.Progress) {
		mu.Lock()
		defer mu.Unlock()
		if len(phases) == 0 || phases[len(phases)-1] != p.Phase {
			phases = append(phases, p.Phase)
		}
		last = p
	}})
	want := []adapter.Phase{adapter.PhaseWalk, adapter.PhaseExtract, adapter.PhaseBuild, adapter.PhaseResolve, adapter.PhaseEnrich, adapter.PhaseFinalize, adapter.PhaseDone}
	if !slices.Equal(phases, want) {
		t.Errorf("phases %v, want %v", phases, want)
	}
	if last.Done != last.Total || last.Total != 11 {
		t.Errorf("last report %+v", last)
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Ingest(ctx, adapter.Request{Root: r.Dir}); err == nil {
		t.Error("cancelled ingest succeeded")
	}
	if _, err := Ingest(context.Background(), adapter.Request{Root: filepath.Join(r.Dir, "missing")}); err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Errorf("missing root: %v", err)
	}
}
