package tools

import (
	"context"
	"testing"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/graph/graphtest"
	"github.com/m1nd-go/m1nd/ingest"
	"github.com/m1nd-go/m1nd/mcpserver/session"
)

func openMemory(t *testing.T) *session.State {
	t.Helper()
	s, err := session.Open(session.DefaultConfig(), t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// One key per adapter, found by RootSharedIfAny.
func TestIngestCacheKey(t *testing.T) {
	if IngestCacheKey("code") != IngestCacheKey("code") || IngestCacheKey("code") == IngestCacheKey("memory") {
		t.Fatal("IngestCacheKey is not one key per adapter")
	}
	s := openMemory(t)
	defer s.Close()
	c := session.RootShared(s, "/r", IngestCacheKey("code"), func() *ingest.Cache { return ingest.NewCache("") })
	if got, ok := session.RootSharedIfAny(s, "/r", IngestCacheKey("code")); !ok || got != c {
		t.Fatal("RootSharedIfAny does not find the cache")
	}
}

// The indexes built after an ingest, the registry's warm-ups included,
// run under the session's lifetime: Close waits for the build.
func TestBuildIndexesSoonIsAwaitedByClose(t *testing.T) {
	s := openMemory(t)
	nb, err := s.Build("graph_replaced", func(*session.Bundle) (*graph.Graph, []session.Root, error) {
		return graphtest.PowerLaw(200, 600, 1), nil, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	r := NewRegistry()
	warmed := make(chan *session.Bundle, 1)
	r.AddWarmup("probe", func(_ context.Context, _ *session.State, b *session.Bundle) error { warmed <- b; return nil })
	BuildIndexesSoon(&Call{Session: s, Registry: r}, nb)
	if b := <-warmed; b != nb {
		t.Fatal("the warm-up ran on another graph")
	}
	s.Close()
	if !session.Built(nb, session.EngineKey) {
		t.Fatal("Close returned before the background engine build")
	}
	if len(s.Running()) != 0 {
		t.Fatalf("still running after Close: %v", s.Running())
	}
}
