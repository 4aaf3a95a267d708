// Package engine is the query facade of the core: one call turns a
// question into a ranked, explained answer. Activate runs one query as a
// sequence of phases, each a method of the query's run (run.go), in this
// order:
//
//	seeds       query → seed nodes (cascade + semantic re-rank), and the
//	            query's memory context (its words and strongest seeds)
//	dimensions  D1 structural, D2 semantic, D3 temporal, D4 causal, concurrently
//	merge       weights, redistribution, resonance bonus, PageRank boost,
//	            normalised into [0, 1]; a candidate pool of
//	            CandidateFactor×top_k, plus every reached node that learned
//	            feedback confirmed for the query
//	priming     query-memory priming, warmup boosts and learned feedback
//	            (plasticity.Engine.Relevance), applied so scores stay in [0, 1]
//	XLR         noise cancellation (optional); feedback-confirmed nodes are
//	            protected in proportion to their relevance
//	top-k       the final ranking; ghost edges and structural holes over the
//	            whole pool when asked for
//	learn       the bounded plasticity cycle and query memory (unless NoLearn)
//
// Every score a result carries is finite and in [0, 1].
//
// Learn is the other half of the loop: feedback on a query's results,
// filed under the same context Activate computes, so the same query — and
// queries sharing most of its words or seeds — rank the judged nodes
// accordingly.
//
// New builds every index (trigram TF-IDF, co-occurrence, seed keys,
// co-change matrix) once for the graph's generation; Activate rebuilds them
// when it notices the generation moved. Activate is safe for concurrent use
// on one finalized graph, also while plasticity writes weights: every query
// keeps its state in pooled per-query workspaces, never in the graph's
// NodeStorage.Activation.
package engine

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/m1nd-go/m1nd/core/activation"
	"github.com/m1nd-go/m1nd/core/analysis"
	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/plasticity"
	"github.com/m1nd-go/m1nd/core/seed"
	"github.com/m1nd-go/m1nd/core/semantic"
	"github.com/m1nd-go/m1nd/core/temporal"
	"github.com/m1nd-go/m1nd/core/xlr"
)

// Engine answers activation queries over one graph.
type Engine struct {
	g     *graph.Graph
	opts  Options
	xlr   *xlr.Engine
	plast *plasticity.Engine
	warm  *plasticity.Warmup

	idx     atomic.Pointer[indexes]
	buildMu sync.Mutex
}

// indexes is everything built for one graph generation.
type indexes struct {
	gen    graph.Generation
	sem    *semantic.Index
	seeds  *seed.Finder
	temp   *temporal.Index
	pool   *activation.Pool
	nodes  int
	builtT time.Duration
}

// New builds an engine for a finalized graph.
func New(g *graph.Graph, opts Options) (*Engine, error) {
	if g == nil {
		return nil, errors.New("engine: nil graph")
	}
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	e := &Engine{g: g, opts: opts, xlr: opts.XLR, plast: opts.Plasticity, warm: opts.Warmup}
	var err error
	if e.xlr == nil {
		if e.xlr, err = xlr.New(xlr.DefaultParams()); err != nil {
			return nil, err
		}
	}
	if e.plast == nil {
		if e.plast, err = plasticity.New(plasticity.DefaultParams()); err != nil {
			return nil, err
		}
		if opts.Now != nil {
			e.plast.SetClock(opts.Now)
		}
	}
	if e.warm == nil {
		if e.warm, err = plasticity.NewWarmup(plasticity.DefaultWarmupParams()); err != nil {
			return nil, err
		}
		if opts.Now != nil {
			e.warm.SetClock(opts.Now)
		}
	}
	ix, err := e.build(nil)
	if err != nil {
		return nil, err
	}
	e.idx.Store(ix)
	return e, nil
}

// build indexes the graph's current generation; prev (may be nil) hands
// its temporal observations over.
func (e *Engine) build(prev *indexes) (*indexes, error) {
	g := e.g
	if !g.Finalized() {
		return nil, graph.ErrNotFinalized
	}
	start := time.Now()
	ix := &indexes{gen: g.Generation(), nodes: g.NumNodes()}
	var eg errgroup.Group
	eg.Go(func() error {
		// The packed reverse adjacency (one pass over the edges) builds
		// beside the text indexes rather than before them.
		ix.pool = activation.NewPoolFor(g)
		return nil
	})
	eg.Go(func() error {
		sem, err := semantic.New(g, e.opts.Semantic)
		if err != nil {
			return err
		}
		ix.sem = sem
		ix.seeds, err = seed.NewFinder(g, sem, e.opts.Seed)
		return err
	})
	eg.Go(func() error {
		t, err := temporal.New(g, e.opts.Temporal)
		if err != nil {
			return err
		}
		if prev != nil {
			t.InheritFrom(prev.temp)
		}
		ix.temp = t
		return nil
	})
	if err := eg.Wait(); err != nil {
		return nil, err
	}
	ix.builtT = time.Since(start)
	return ix, nil
}

// current returns the indexes for the graph's generation, rebuilding them
// (once, however many queries notice) when the generation moved.
func (e *Engine) current() (*indexes, error) {
	ix := e.idx.Load()
	if ix.gen == e.g.Generation() && ix.nodes == e.g.NumNodes() {
		return ix, nil
	}
	e.buildMu.Lock()
	defer e.buildMu.Unlock()
	if ix = e.idx.Load(); ix.gen == e.g.Generation() && ix.nodes == e.g.NumNodes() {
		return ix, nil
	}
	nix, err := e.build(ix)
	if err != nil {
		return nil, err
	}
	e.idx.Store(nix)
	return nix, nil
}

// Refresh rebuilds the indexes if the graph's generation changed since
// they were built (Activate does this by itself).
func (e *Engine) Refresh() error {
	_, err := e.current()
	return err
}

// Graph is the engine's graph.
func (e *Engine) Graph() *graph.Graph { return e.g }

// Generation is the graph generation the current indexes were built for.
func (e *Engine) Generation() graph.Generation { return e.idx.Load().gen }

// BuildTime is how long building the current indexes took.
func (e *Engine) BuildTime() time.Duration { return e.idx.Load().builtT }

// Plasticity is the learning engine the engine feeds.
func (e *Engine) Plasticity() *plasticity.Engine { return e.plast }

// Warmup holds the temporary boosts applied to every query.
func (e *Engine) Warmup() *plasticity.Warmup { return e.warm }

// XLR is the noise-cancellation engine.
func (e *Engine) XLR() *xlr.Engine { return e.xlr }

// Seeds is the current seed finder.
func (e *Engine) Seeds() *seed.Finder { return e.idx.Load().seeds }

// Semantic is the current semantic index.
func (e *Engine) Semantic() *semantic.Index { return e.idx.Load().sem }

// Temporal is the current temporal index.
func (e *Engine) Temporal() *temporal.Index { return e.idx.Load().temp }

// Observe feeds git commit groups (nodes that changed together) into the
// co-change matrix; see temporal.Index.Observe. Observations carry over
// to later generations of the same graph.
func (e *Engine) Observe(commitGroups [][]graph.NodeID) (dropped int, err error) {
	ix, err := e.current()
	if err != nil {
		return 0, err
	}
	return ix.temp.Observe(commitGroups), nil
}

// ObserveExternal is Observe for commit groups named by external IDs, as
// ingest reports them ("file::src/auth.py"; a bare path gets the "file::"
// prefix). IDs not in the graph are skipped and counted in unknown.
func (e *Engine) ObserveExternal(commitGroups [][]string) (dropped, unknown int, err error) {
	groups, unknown := GroupIDs(e.g, commitGroups)
	dropped, err = e.Observe(groups)
	return dropped, unknown, err
}

// GroupIDs maps commit groups that name files by external ID, or by path
// for the "file::" prefix, to g's nodes; unknown counts the names g does
// not hold (skipped).
func GroupIDs(g *graph.Graph, commitGroups [][]string) (groups [][]graph.NodeID, unknown int) {
	groups = make([][]graph.NodeID, 0, len(commitGroups))
	for _, grp := range commitGroups {
		ids := make([]graph.NodeID, 0, len(grp))
		for _, ext := range grp {
			id, ok := g.Lookup(ext)
			if !ok {
				id, ok = g.Lookup("file::" + ext)
			}
			if !ok {
				unknown++
				continue
			}
			ids = append(ids, id)
		}
		groups = append(groups, ids)
	}
	return groups, unknown
}

// ObserveCommits is Observe with commit times (which also detects
// resurrected files); see temporal.Index.ObserveCommits.
func (e *Engine) ObserveCommits(commits []temporal.Commit) (dropped int, err error) {
	ix, err := e.current()
	if err != nil {
		return 0, err
	}
	return ix.temp.ObserveCommits(commits), nil
}

func (e *Engine) now() time.Time {
	if e.opts.Now != nil {
		return e.opts.Now()
	}
	return time.Now()
}

// Node is one ranked result.
type Node struct {
	ID graph.NodeID
	// Activation is the final score in [0, 1]: the merged score moved by
	// priming, warmup and learned feedback, times the XLR gate when XLR
	// ran.
	Activation float32
	// Dims are the per-dimension scores in [0, 1] (graph.Dimension order).
	Dims [graph.NumDimensions]float32
	// DimCount is the number of dimensions that scored the node above the
	// contribution threshold (4 earns the 1.5× bonus, 3 the 1.3×).
	DimCount uint8
	// PageRank is the node's normalised PageRank.
	PageRank float32
	// Boost is what the priming phase changed (query-memory priming,
	// warmup boosts and learned feedback together; negative when feedback
	// rejected the node).
	Boost float32
	// Feedback is the node's learned relevance for this query in (−1, 1)
	// (plasticity.Engine.Relevance; 0 when no feedback on this or a
	// similar query judged it).
	Feedback float32
	// Gate is the XLR gate in (0, 1] (1 when XLR did not run).
	Gate float32
	// Weight is the Query.Weight factor the ranking applied (1 without
	// one). Activation includes it, clamped to 1; the order uses the
	// unclamped product.
	Weight float32
}

// Timings break a query's latency down by phase. The four dimensions run
// concurrently, so their times overlap. Analysis is the top-k phase with
// ghost edges and structural holes.
type Timings struct {
	Seeds, Structural, Semantic, Temporal, Causal, Merge, Priming, XLR, Analysis, Plasticity time.Duration
}

// Result is an activation's answer.
type Result struct {
	Query string
	Seeds []seed.Seed
	// Activated are the top_k nodes, best first (ties by NodeID).
	Activated []Node
	// Engine is the structural strategy the hybrid selector chose.
	Engine activation.Engine
	// Weights are the merge weights after redistribution.
	Weights [graph.NumDimensions]float32
	// XLR reports whether noise cancellation ran, fell back to the hot
	// channel only (everything would have been cancelled), and from which
	// anti-seeds.
	XLR         bool
	XLRFallback bool
	AntiSeeds   []graph.NodeID
	// GhostEdges and Holes are present when the query asked for them.
	GhostEdges []analysis.GhostEdge
	Holes      *analysis.HolesResult
	// Plasticity is what the learning cycle did (zero with NoLearn, except
	// FeedbackNodes, which counts the candidates learned feedback moved).
	Plasticity plasticity.UpdateStats
	Learned    bool
	Generation graph.Generation
	Timings    Timings
	Elapsed    time.Duration
}

// Scored returns the results as graph.Scored (final activation).
func (r *Result) Scored() []graph.Scored {
	out := make([]graph.Scored, len(r.Activated))
	for i, n := range r.Activated {
		out[i] = graph.Scored{Node: n.ID, Score: n.Activation}
	}
	return out
}

// DimensionScores maps each result to its per-dimension scores.
func (r *Result) DimensionScores() map[graph.NodeID][graph.NumDimensions]float32 {
	m := make(map[graph.NodeID][graph.NumDimensions]float32, len(r.Activated))
	for _, n := range r.Activated {
		m[n.ID] = n.Dims
	}
	return m
}

// WarmupTask activates the graph around a task description and primes the
// result: every activated node gets a temporary boost proportional to its
// activation (the strongest gets strength), which later queries add to
// their scores while it decays (per query and with time). It returns the
// activation and the boosts applied.
func (e *Engine) WarmupTask(ctx context.Context, q Query, strength float32) (*Result, []graph.Scored, error) {
	res, err := e.Activate(ctx, q)
	if err != nil {
		return nil, nil, err
	}
	boosts, err := e.warm.Prime(e.g, res.Scored(), strength)
	if err != nil {
		return nil, nil, err
	}
	return res, boosts, nil
}
