package engine

import (
	"fmt"
	"time"

	"github.com/m1nd-go/m1nd/core/activation"
	"github.com/m1nd-go/m1nd/core/analysis"
	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/plasticity"
	"github.com/m1nd-go/m1nd/core/seed"
	"github.com/m1nd-go/m1nd/core/semantic"
	"github.com/m1nd-go/m1nd/core/temporal"
	"github.com/m1nd-go/m1nd/core/xlr"
)

// DefaultTopK is the activate tool's default result size.
const DefaultTopK = 20

// MaxTopK bounds a query's result size.
const MaxTopK = 1000

// Options configure an Engine. Start from DefaultOptions; New validates.
type Options struct {
	Seed       seed.Options
	Semantic   semantic.Options
	Temporal   temporal.Options
	Activation activation.Params
	Causal     activation.CausalParams
	Merge      activation.MergeParams
	Ghosts     analysis.GhostParams
	Holes      analysis.HoleParams

	// XLR is the noise-cancellation engine; nil builds one with
	// xlr.DefaultParams.
	XLR *xlr.Engine
	// Plasticity is the learning engine (query memory included). It
	// belongs to a session, not to a graph: pass the session's engine so
	// learning survives a re-ingest. Nil builds one with
	// plasticity.DefaultParams.
	Plasticity *plasticity.Engine
	// Warmup holds the session's temporary priming boosts; nil builds an
	// empty one.
	Warmup *plasticity.Warmup

	// CandidateFactor: merge keeps CandidateFactor×top_k candidates (at
	// least MinCandidates) for priming and XLR to re-rank before the final
	// cut, so a node just outside the top can still move in.
	CandidateFactor int
	MinCandidates   int
	// PrimingWeight scales query-memory priming (plasticity.Priming, in
	// (0, 1]) into a boost b that moves a candidate's score s to
	// s + (1 − s)·b. Warmup boosts apply as they are (their strength was
	// chosen by the warmup call), and so does learned feedback
	// (plasticity.Engine.Relevance).
	PrimingWeight float32

	// Now is the clock of plasticity and warmup (when the engine makes
	// them) and of the times query memory records; nil is time.Now.
	// Temporal scores do not read it: they are taken at the graph's own
	// clock (temporal.Index.Reference), so answers do not move with it.
	Now func() time.Time
}

// DefaultOptions returns the defaults of every stage
// (docs/design.md#query-engines).
func DefaultOptions() Options {
	return Options{
		Seed:            seed.DefaultOptions(),
		Semantic:        semantic.DefaultOptions(),
		Temporal:        temporal.DefaultOptions(),
		Activation:      activation.DefaultParams(),
		Causal:          activation.DefaultCausalParams(),
		Merge:           activation.DefaultMergeParams(),
		Ghosts:          analysis.DefaultGhostParams(),
		Holes:           analysis.DefaultHoleParams(),
		CandidateFactor: 3,
		MinCandidates:   60,
		PrimingWeight:   0.15,
	}
}

// Validate reports the first invalid option.
func (o *Options) Validate() error {
	for _, err := range []error{
		o.Seed.Validate(), o.Semantic.Validate(), o.Temporal.Validate(),
		o.Activation.Validate(), o.Causal.Validate(), o.Merge.Validate(),
	} {
		if err != nil {
			return err
		}
	}
	if o.CandidateFactor < 1 || o.MinCandidates < 1 {
		return fmt.Errorf("engine: CandidateFactor and MinCandidates must be >= 1")
	}
	if !graph.IsFinite(o.PrimingWeight) || o.PrimingWeight < 0 || o.PrimingWeight > 1 {
		return fmt.Errorf("engine: PrimingWeight must be in [0, 1], got %v", o.PrimingWeight)
	}
	return nil
}

// Query is one activation request.
type Query struct {
	// Text is the query; it is matched against labels, tags and paths.
	Text string
	// TopK is the number of results (0 means DefaultTopK; at most MaxTopK).
	TopK int
	// Dimensions to run; nil or empty means all four.
	Dimensions []graph.Dimension
	// XLR enables noise cancellation. The activate tool defaults it to
	// true; the zero Query leaves it off.
	XLR bool
	// MaxSeeds caps the seeds (0 means the seed finder's limit, 200).
	MaxSeeds int
	// Seeds, when set, join the seed finder's (per node the higher
	// relevance wins): a caller with a stronger text ranker seeds from it.
	Seeds []seed.Seed
	// MoreSeeds, when set, is called while the seed finder runs (in
	// another goroutine) and its seeds join as Seeds do: a slower ranker's
	// seeds cost the query the longer of the two, not their sum.
	MoreSeeds func() []seed.Seed
	// NoLearn skips the plasticity cycle and query memory: the query
	// leaves the graph exactly as it found it.
	NoLearn bool
	// GhostEdges and StructuralHoles add those analyses to the result.
	GhostEdges      bool
	StructuralHoles bool
	// Keep, when set, limits the result to the nodes it keeps (a path or
	// repository scope), chosen before TopK; activation still spreads
	// through the others.
	Keep func(graph.NodeID) bool
	// Weight, when set, multiplies each candidate's score just before the
	// top_k cut: a prior the caller holds about a node (activate: its
	// file's trust). Only the ranking sees it, not learning or the
	// analyses; non-finite or negative factors count as 1.
	Weight func(graph.NodeID) float32
}

func (q *Query) normalize() error {
	if q.TopK == 0 {
		q.TopK = DefaultTopK
	}
	if q.TopK < 0 || q.TopK > MaxTopK {
		return fmt.Errorf("engine: top_k must be in [1, %d], got %d", MaxTopK, q.TopK)
	}
	if q.MaxSeeds < 0 {
		return fmt.Errorf("engine: max_seeds must be >= 0, got %d", q.MaxSeeds)
	}
	for _, d := range q.Dimensions {
		if d >= graph.NumDimensions {
			return fmt.Errorf("engine: unknown dimension %d", d)
		}
	}
	return nil
}

func (q *Query) requested() [graph.NumDimensions]bool {
	var r [graph.NumDimensions]bool
	if len(q.Dimensions) == 0 {
		return [graph.NumDimensions]bool{true, true, true, true}
	}
	for _, d := range q.Dimensions {
		r[d] = true
	}
	return r
}

// ParseDimensions converts names ("structural", "semantic", "temporal",
// "causal", any case) to dimensions.
func ParseDimensions(names []string) ([]graph.Dimension, error) {
	out := make([]graph.Dimension, 0, len(names))
	for _, n := range names {
		found := false
		for d := graph.Dimension(0); d < graph.NumDimensions; d++ {
			if equalFold(n, d.String()) {
				out = append(out, d)
				found = true
				break
			}
		}
		if !found {
			return nil, fmt.Errorf("unknown dimension %q (want structural, semantic, temporal or causal)", n)
		}
	}
	return out, nil
}

func equalFold(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		x, y := a[i], b[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}
