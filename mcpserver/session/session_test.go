package session

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/graph/graphtest"
)

func openAt(t *testing.T, dir string) *State {
	t.Helper()
	cfg := DefaultConfig()
	cfg.RuntimeDir = dir
	s, err := Open(cfg, t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func publish(t *testing.T, s *State, g *graph.Graph) {
	t.Helper()
	if _, err := s.Build("graph_replaced", func(old *Bundle) (*graph.Graph, []Root, error) {
		return g, []Root{{Path: "/repo", Adapter: "code", Mode: "replace"}}, nil
	}); err != nil {
		t.Fatal(err)
	}
}

func TestPersistAndReload(t *testing.T) {
	dir := t.TempDir()
	s := openAt(t, dir)
	g := graphtest.PowerLaw(500, 1300, 3)
	publish(t, s, g)
	e := graph.EdgeIdx(7)
	g.AtomicWriteWeight(e, 2.5)
	src, dst, rel := g.ExternalID(g.Source(e)), g.ExternalID(g.Target(e)), g.RelationName(e)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{DefaultGraphFile, DefaultPlasticityFile, RootsFile, DriftBaselineFile} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("%s not written: %v", f, err)
		}
	}
	s2 := openAt(t, dir)
	defer s2.Close()
	h := s2.Current().Graph
	if h.NumNodes() != 500 || h.NumEdges() != g.NumEdges() {
		t.Fatalf("reloaded %d nodes %d edges", h.NumNodes(), h.NumEdges())
	}
	a, _ := h.Lookup(src)
	b, _ := h.Lookup(dst)
	e2, ok := h.FindEdgeByName(a, b, rel)
	if !ok || h.Weight(e2) != 2.5 {
		t.Errorf("learned weight not restored: %v", h.Weight(e2))
	}
	if roots := s2.Current().Roots; len(roots) != 1 || roots[0].Path != "/repo" {
		t.Errorf("roots not restored: %+v", roots)
	}
}

func TestSecondServerOnSameRuntimeDirIsRefused(t *testing.T) {
	dir := t.TempDir()
	s := openAt(t, dir)
	cfg := DefaultConfig()
	cfg.RuntimeDir = dir
	_, err := Open(cfg, t.Logf)
	if !errors.Is(err, ErrRuntimeDirBusy) || !strings.Contains(err.Error(), "pid") || !strings.Contains(err.Error(), "--runtime-dir") {
		t.Fatalf("second open: %v", err)
	}
	s.Close()
	s3 := openAt(t, dir) // released on close
	s3.Close()
}

func TestEmptyGraphNeverOverwritesSnapshot(t *testing.T) {
	dir := t.TempDir()
	s := openAt(t, dir)
	publish(t, s, graphtest.PowerLaw(200, 500, 1))
	s.Close()
	before, _ := os.ReadFile(filepath.Join(dir, DefaultGraphFile))

	s2 := openAt(t, dir)
	empty := graph.New()
	empty.Finalize()
	publish(t, s2, empty)
	res, err := s2.Persist("manual")
	if err != nil || res.Skipped == "" {
		t.Fatalf("persist of an empty graph: %+v %v", res, err)
	}
	s2.Close()
	after, _ := os.ReadFile(filepath.Join(dir, DefaultGraphFile))
	if string(before) != string(after) {
		t.Fatal("an empty graph replaced the saved snapshot")
	}
}

func TestUnreadableSnapshotIsKeptAside(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, DefaultGraphFile)
	os.WriteFile(path, []byte("M1NDGRPH garbage"), 0o644)
	s := openAt(t, dir)
	defer s.Close()
	if s.Current().Graph.NumNodes() != 0 {
		t.Fatal("garbage loaded as a graph")
	}
	matches, _ := filepath.Glob(path + ".unreadable-*")
	if len(matches) != 1 {
		t.Fatalf("unreadable snapshot not kept aside: %v", matches)
	}
}

func TestLoadFromDiskKeepsGraphOnFailure(t *testing.T) {
	dir := t.TempDir()
	s := openAt(t, dir)
	defer s.Close()
	publish(t, s, graphtest.PowerLaw(100, 250, 1))
	if _, err := s.LoadFromDisk(); err == nil {
		t.Fatal("load without a snapshot succeeded")
	}
	if s.Current().Graph.NumNodes() != 100 {
		t.Fatal("failed load changed the graph")
	}
	if _, err := s.Persist("manual"); err != nil {
		t.Fatal(err)
	}
	b, err := s.LoadFromDisk()
	if err != nil || b.Graph.NumNodes() != 100 || b.Gen != 2 {
		t.Fatalf("load: %v %+v", err, b)
	}
}

func TestConfigPrecedence(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "cfg.json")
	os.WriteFile(file, []byte(`{"auto_persist_interval": 7, "xlr_enabled": false, "runtime_dir": "/from/file"}`), 0o644)
	env := map[string]string{"M1ND_RUNTIME_DIR": filepath.Join(dir, "rt"), "M1ND_XLR_ENABLED": "true"}
	cfg, err := LoadConfig(file, func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	if cfg.AutoPersistInterval != 7 || !cfg.XLREnabled || cfg.RuntimeDir != filepath.Join(dir, "rt") {
		t.Errorf("precedence: %+v", cfg)
	}
	if cfg.GraphSource != filepath.Join(dir, "rt", DefaultGraphFile) {
		t.Errorf("derived graph path %q", cfg.GraphSource)
	}
	for _, bad := range []string{`{"learning_rate": 3}`, `{"unknown": 1}`, `{`} {
		os.WriteFile(file, []byte(bad), 0o644)
		if _, err := LoadConfig(file, func(string) string { return "" }); err == nil {
			t.Errorf("config %s accepted", bad)
		}
	}
	if _, err := LoadConfig("", func(k string) string {
		if k == "M1ND_XLR_ENABLED" {
			return "maybe"
		}
		return ""
	}); err == nil {
		t.Error("M1ND_XLR_ENABLED=maybe accepted")
	}
	def, _ := LoadConfig("", func(string) string { return "" })
	if def.Persistent() || def.AutoPersistInterval != 50 || def.LearningRate != 0.08 || def.MaxConcurrentReads != 32 {
		t.Errorf("defaults: %+v", def)
	}
}

func TestAgentsAndAutoPersist(t *testing.T) {
	dir := t.TempDir()
	cfg := DefaultConfig()
	cfg.RuntimeDir = dir
	cfg.AutoPersistInterval = 3
	s, err := Open(cfg, t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	publish(t, s, graphtest.PowerLaw(50, 120, 1))
	for i := 0; i < 3; i++ {
		s.Touch("a")
		s.QueryDone()
	}
	s.Touch("b")
	ag := s.Agents()
	if len(ag) != 2 || ag[0].ID != "b" || ag[1].QueryCount != 3 {
		t.Errorf("agents %+v", ag)
	}
	// The third query triggered a background persist; wait for it.
	for i := 0; i < 500; i++ {
		if last, _ := s.LastPersist(); !last.IsZero() {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	if last, _ := s.LastPersist(); last.IsZero() {
		t.Error("auto-persist did not run after auto_persist_interval queries")
	}
}

// Objects kept for a root (its ingest cache) are released once the root
// is no longer served: a server moving between trees holds state for the
// trees it serves only.
func TestRootSharedReleasedWhenTheRootLeaves(t *testing.T) {
	s := openAt(t, t.TempDir())
	defer s.Close()
	made := 0
	cacheKey := NewKey[*int]("cache")
	get := func(root string) any { return RootShared(s, root, cacheKey, func() *int { made++; return new(int) }) }
	publishRoots := func(roots ...string) {
		var rs []Root
		for _, r := range roots {
			rs = append(rs, Root{Path: r})
		}
		if _, err := s.Build("graph_replaced", func(*Bundle) (*graph.Graph, []Root, error) {
			return graphtest.PowerLaw(20, 40, uint64(len(roots))), rs, nil
		}); err != nil {
			t.Fatal(err)
		}
	}
	a := get("/a")
	publishRoots("/a", "/b")
	get("/b")
	if get("/a") != a || made != 2 {
		t.Fatalf("a served root's object was not kept (made %d)", made)
	}
	publishRoots("/b")
	if get("/a") == a || made != 3 {
		t.Fatal("the object of a root no longer served was kept")
	}
}
