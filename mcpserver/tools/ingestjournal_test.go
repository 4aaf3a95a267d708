package tools

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/graph/graphtest"
	"github.com/m1nd-go/m1nd/mcpserver/internal/fixture"
	"github.com/m1nd-go/m1nd/mcpserver/session"
)

// The ingest tool's order (system.runIngest): a large graph's seek index
// is started before the journal's fsync and the answer waits for it, so a
// seek right after the answer neither builds the index nor waits for it
// (SeekIndexWaits). Two ingests into a persistent session: the build runs
// beside the journal record and, the second time, beside the learned
// weights carried to the new graph (run with -race). Without the start
// before the answer, no index is built when AwaitSeekIndex returns.
func TestIngestAnswersWithSeekIndexBuilt(t *testing.T) {
	defer func(n int) { seekAwaitMinElements = n }(seekAwaitMinElements)
	seekAwaitMinElements = 1 // the fixture is small: treat it as large
	dir := fixture.Write(t)
	cfg := session.DefaultConfig()
	cfg.RuntimeDir, cfg.AllowRoots = t.TempDir(), []string{dir}
	s, err := session.Open(cfg, t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for i := 1; i <= 3; i++ {
		patch := i == 3 // a patched ingest answers after its index too
		if patch {
			f, err := os.OpenFile(filepath.Join(dir, "backend", "auth.py"), os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintln(f, "# patched")
			f.Close()
		}
		c := &Call{Ctx: context.Background(), Session: s, AgentID: "t", Progress: func(float64, float64, string) {}}
		r := &IngestRun{C: c, Path: dir, Adapter: "code", Mode: "replace", Incremental: patch}
		if err := r.Target(); err != nil {
			t.Fatal(err)
		}
		jb, err := r.BuildJournaled()
		if err != nil {
			t.Fatal(err)
		}
		if !jb.Journaled || jb.Bundle != s.Current() {
			t.Fatalf("ingest %d: journaled %v, published %v", i, jb.Journaled, jb.Bundle == s.Current())
		}
		if inc := r.Output().Stats.Incremental; patch && (inc == nil || !inc.Patched) {
			t.Fatalf("ingest %d was not a patch: %+v", i, inc)
		}
		jb.AwaitSeekIndex(c)
		if !session.Built(jb.Bundle, SeekIndexKey) {
			t.Fatalf("ingest %d: its answer would come before its seek index was built", i)
		}
		if !session.Built(jb.Bundle, seekCoChangeKey) {
			t.Fatalf("ingest %d: its answer would come before seek's co-change (the fixture has history) was built", i)
		}
		waits := SeekIndexWaits()
		if _, err := SeekIndex(s, s.Current()); err != nil {
			t.Fatal(err)
		}
		if got := SeekIndexWaits() - waits; got != 0 {
			t.Fatalf("ingest %d: the first seek found the index not built (%d waits)", i, got)
		}
		BuildIndexesSoon(c, jb.Bundle) // as the tool does; Close waits for it
	}
}

// A small root merged into a large graph answers after the graph's seek
// index too: the index covers the whole graph, whatever the merge's own
// stats say (12 M lines merged as five roots left a 4.6 s build to the
// first seek after the last one). Fails when the choice reads the
// ingest's stats.
func TestMergeIntoLargeGraphAnswersWithSeekIndexBuilt(t *testing.T) {
	defer func(n int) { seekAwaitMinElements = n }(seekAwaitMinElements)
	dir, small := fixture.Write(t), t.TempDir()
	os.WriteFile(filepath.Join(small, "tiny.py"), []byte("def tiny():\n    return 1\n"), 0o644)
	cfg := session.DefaultConfig()
	cfg.RuntimeDir, cfg.AllowRoots = t.TempDir(), []string{dir, small}
	s, err := session.Open(cfg, t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ingest := func(path, mode string) JournaledBuild {
		c := &Call{Ctx: context.Background(), Session: s, AgentID: "t", Progress: func(float64, float64, string) {}}
		r := &IngestRun{C: c, Path: path, Adapter: "code", Mode: mode}
		if err := r.Target(); err != nil {
			t.Fatal(err)
		}
		jb, err := r.BuildJournaled()
		if err != nil {
			t.Fatal(err)
		}
		jb.AwaitSeekIndex(c)
		BuildIndexesSoon(c, jb.Bundle)
		return jb
	}
	big := ingest(dir, "replace").Bundle.Graph
	seekAwaitMinElements = big.NumNodes() + big.NumEdges() + 1 // the fixture alone is "small", with the root merged "large"
	jb := ingest(small, "merge")
	if n := jb.Bundle.Graph.NumNodes() + jb.Bundle.Graph.NumEdges(); n < seekAwaitMinElements {
		t.Fatalf("the merged graph has %d elements, under %d", n, seekAwaitMinElements)
	}
	if !session.Built(jb.Bundle, SeekIndexKey) {
		t.Fatal("the merge answered before the merged graph's seek index was built")
	}
}

// Which ingests answer after their seek index: those whose new graph has
// at least seekAwaitMinElements nodes and edges.
func TestSeekBeforeAnswer(t *testing.T) {
	for _, tc := range []struct {
		elements int
		want     bool
	}{
		{4_260 + 13_000, false}, // py-335's size
		{99_999, false},
		{100_000, true},
		{120_423 + 734_255, true}, // go-std's
	} {
		if got := seekBeforeAnswer(tc.elements); got != tc.want {
			t.Errorf("seekBeforeAnswer(%d) = %v, want %v", tc.elements, got, tc.want)
		}
	}
}

// The ingest's snapshot is written after the new graph's indexes are
// built, not beside them (their memory and the snapshot's encoding were
// the server's peak on go-std); the memory release comes first.
func TestSaveAfterIndexes(t *testing.T) {
	built := make(chan struct{})
	released, persisted := make(chan struct{}), make(chan struct{})
	go saveAfter(context.Background(), built, func() { close(released) }, func() { close(persisted) })
	<-released
	select {
	case <-persisted:
		t.Fatal("the snapshot was written while the indexes were being built")
	case <-time.After(50 * time.Millisecond): // (a persist that does not wait runs at once)
	}
	close(built)
	<-persisted
}

// A session that closes does not wait for the builds: the save goes on
// (Close saves the graph itself).
func TestSaveAfterCalledOff(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	persisted := false
	saveAfter(ctx, make(chan struct{}), func() {}, func() { persisted = true })
	if !persisted {
		t.Fatal("the save did not run once the session's context ended")
	}
}

// The work behind a large ingest's answer waits for its start (Hold):
// a session that closes before it calls the builds off unbuilt. Without
// the wait, Close would wait for the engine build and the warm-up.
func TestBuildsBehindWaitForStart(t *testing.T) {
	s := openMemory(t)
	nb, err := s.Build("graph_replaced", func(*session.Bundle) (*graph.Graph, []session.Root, error) {
		return graphtest.PowerLaw(200, 600, 1), nil, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	r := NewRegistry()
	warmed := false
	r.AddWarmup("probe", func(context.Context, *session.State, *session.Bundle) error { warmed = true; return nil })
	built := BuildIndexesAfter(&Call{Session: s, Registry: r}, nb, make(chan struct{}))
	s.Close()
	<-built
	if warmed || session.Built(nb, session.EngineKey) || session.Built(nb, SeekIndexKey) {
		t.Fatalf("built before their start: warm-up %v, engine %v, seek index %v",
			warmed, session.Built(nb, session.EngineKey), session.Built(nb, SeekIndexKey))
	}
}

// afterFirstCall closes once a call after the ingest's own is answered
// (the dispatcher counts each call once its handler returns), and after
// firstCallWait without one.
func TestAfterFirstCall(t *testing.T) {
	defer func(d time.Duration) { firstCallWait = d }(firstCallWait)
	s := openMemory(t)
	defer s.Close()
	firstCallWait = time.Hour
	hold := afterFirstCall(s, s.Queries())
	s.QueryDone() // the ingest's own answer
	s.QueryDone() // the first call after it
	<-hold
	firstCallWait = 0
	<-afterFirstCall(s, s.Queries())
}

// A journaled ingest's cache writes (extraction blobs, manifest) wait
// until the indexes behind its answer are built and its snapshot started:
// they are not needed
// for a durable answer and ran beside the parse. A memory-only session
// holds nothing past the build.
func TestCacheWritesBehindTheSave(t *testing.T) {
	for _, tc := range []struct {
		name       string
		persistent bool
	}{
		{"journaled: held past the answer", true},
		{"memory-only: released at once", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, r, jb := buildFixtureJournaled(t, tc.persistent)
			if jb.Journaled != tc.persistent || r.cache.Holding() != tc.persistent {
				t.Fatalf("journaled %v, cache writes held %v after the build; want %v", jb.Journaled, r.cache.Holding(), tc.persistent)
			}
			if !tc.persistent {
				return
			}
			built := make(chan struct{})
			SaveBehindIngest(s, r, nil, built)
			if !r.cache.Holding() {
				t.Fatal("cache writes started before the snapshot")
			}
			close(built)
			for r.cache.Holding() {
				time.Sleep(time.Millisecond)
			}
			if err := r.cache.Flush(); err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(filepath.Join(r.cache.Dir(), "manifest.gob")); err != nil {
				t.Errorf("the cache's manifest after the save: %v", err)
			}
		})
	}
}

// buildFixtureJournaled opens a session on the fixture tree (with a
// runtime directory when persistent) and builds an ingest of it as the
// tool does, up to the answer; the session closes with the test.
func buildFixtureJournaled(t *testing.T, persistent bool) (*session.State, *IngestRun, JournaledBuild) {
	t.Helper()
	dir := fixture.Write(t)
	cfg := session.DefaultConfig()
	cfg.AllowRoots = []string{dir}
	if persistent {
		cfg.RuntimeDir = t.TempDir()
	}
	s, err := session.Open(cfg, t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	c := &Call{Ctx: context.Background(), Session: s, AgentID: "t", Progress: func(float64, float64, string) {}}
	r := &IngestRun{C: c, Path: dir, Adapter: "code", Mode: "replace"}
	if err := r.Target(); err != nil {
		t.Fatal(err)
	}
	jb, err := r.BuildJournaled()
	if err != nil {
		t.Fatal(err)
	}
	return s, r, jb
}
