package tools

import (
	"context"

	"github.com/m1nd-go/m1nd/core/engine"
	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/history"
	"github.com/m1nd-go/m1nd/core/temporal"
	"github.com/m1nd-go/m1nd/mcpserver/session"
)

var DimensionNames = []string{"structural", "semantic", "temporal", "causal"}

// queryEngine returns the engine for the current bundle.
func QueryEngine(c *Call, b *session.Bundle) (*engine.Engine, error) {
	if b.Graph.NumNodes() == 0 {
		return nil, EmptyGraphErr()
	}
	return c.Session.Engine(b)
}

// seekCoChangeKey holds the co-change matrix seek's rerank reads.
var seekCoChangeKey = session.NewKey[*temporal.CoChange]("seek-cochange")

// SeekCoChange is the co-change matrix seek's rerank reads for b: nil for
// a graph without git history, else the structural bootstrap plus b's
// commit groups, as the query engine builds its own (session.Engine) but
// apart from it. Why apart: seek took it from the engine, so the first
// seek after an ingest with history built the whole engine (its n-gram
// index, the activation pool: ≈ 1.9 s on go-std) for this one matrix,
// which costs a few ms alone. Its own matrix also keeps seek's answer
// the same whether or not the engine was built, and whatever activate
// read from the engine's before (the bootstrap's rows are made on first
// read, within a shared budget).
func SeekCoChange(s *session.State, b *session.Bundle) (*temporal.CoChange, error) {
	return seekCoChangeCtx(s.Context(), b)
}

// seekCoChangeCtx is SeekCoChange for a build that may be called off.
func seekCoChangeCtx(ctx context.Context, b *session.Bundle) (*temporal.CoChange, error) {
	if len(b.Commits) == 0 {
		return nil, nil
	}
	return session.DeriveCtx(ctx, b, seekCoChangeKey, func(_ context.Context, g *graph.Graph) (*temporal.CoChange, error) {
		return buildCoChange(g, history.Groups(b.Commits))
	})
}

// buildCoChange is the engine's co-change matrix of g
// (engine.ObserveExternal): commit groups name files by external ID, or
// by path for the "file::" prefix; names not in g are skipped.
func buildCoChange(g *graph.Graph, commits [][]string) (*temporal.CoChange, error) {
	t, err := temporal.New(g, engine.DefaultOptions().Temporal)
	if err != nil {
		return nil, err
	}
	groups, _ := engine.GroupIDs(g, commits)
	t.Observe(groups)
	return t.CoChange(), nil
}
