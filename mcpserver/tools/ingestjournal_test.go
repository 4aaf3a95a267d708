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
	"github.com/m1nd-go/m1nd/ingest"
	"github.com/m1nd-go/m1nd/ingest/adapter"
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

// Which ingests answer after their seek index: graphs of at least
// seekAwaitMinElements nodes and edges, built in full or patched.
func TestSeekBeforeAnswer(t *testing.T) {
	patched := &adapter.IncrementalStats{Patched: true}
	for _, tc := range []struct {
		st   ingest.Stats
		want bool
	}{
		{ingest.Stats{NodesCreated: 4_260, EdgesCreated: 13_000}, false}, // py-335's size
		{ingest.Stats{NodesCreated: 20_000, EdgesCreated: 79_999}, false},
		{ingest.Stats{NodesCreated: 20_000, EdgesCreated: 80_000}, true},
		{ingest.Stats{NodesCreated: 120_423, EdgesCreated: 734_255}, true}, // go-std's
		{ingest.Stats{NodesCreated: 120_423, EdgesCreated: 734_255, Incremental: patched}, true},
		{ingest.Stats{NodesCreated: 4_260, EdgesCreated: 13_000, Incremental: patched}, false},
	} {
		if got := seekBeforeAnswer(tc.st); got != tc.want {
			t.Errorf("seekBeforeAnswer(%d nodes, %d edges, patched %v) = %v, want %v",
				tc.st.NodesCreated, tc.st.EdgesCreated, tc.st.Incremental != nil, got, tc.want)
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
