package tools

import (
	"testing"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/graph/graphtest"
	"github.com/m1nd-go/m1nd/mcpserver/session"
)

// The build behind an ingest starts the engine once the graph's seek
// index is built: a small tree's index waits for the seek feed's cut,
// and the first seek after the answer then has both cores, not a share
// beside the engine's build.
func TestEngineBuiltAfterTheSeekIndex(t *testing.T) {
	defer func(f func(*session.Bundle)) { beforeEngine = f }(beforeEngine)
	s := openMemory(t)
	nb, err := s.Build("graph_replaced", func(*session.Bundle) (*graph.Graph, []session.Root, error) {
		return graphtest.PowerLaw(200, 600, 1), nil, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	seekBuilt := make(chan bool, 1)
	beforeEngine = func(b *session.Bundle) {
		if b == nb {
			seekBuilt <- session.Built(b, SeekIndexKey)
		}
	}
	built := BuildIndexesSoon(&Call{Session: s, Registry: NewRegistry()}, nb)
	if !<-seekBuilt {
		t.Error("the engine's build started before the seek index was built")
	}
	<-built
	s.Close()
	if !session.Built(nb, session.EngineKey) {
		t.Error("no engine built")
	}
}
