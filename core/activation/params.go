package activation

import (
	"fmt"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/internal/finite"
)

// HardMaxDepth is the limit no configuration may exceed.
const HardMaxDepth = 20

// Params are the structural (D1) propagation parameters. Start from
// DefaultParams.
type Params struct {
	// Decay multiplies the signal at every hop (default 0.55).
	Decay float32
	// Threshold: a node below it does not fire, and an arrival below it is
	// discarded (default 0.04).
	Threshold float32
	// MaxDepth is the number of hops (default 5; at most HardMaxDepth).
	MaxDepth int
	// SaturationCap bounds any node's activation, seeds included (default
	// 1.0).
	SaturationCap float32
	// InhibitoryFactor scales the signal an inhibitory edge subtracts from
	// its target (default 0.5).
	InhibitoryFactor float32
	// ReverseFactor scales signal travelling against an edge's direction
	// (from the target back to the source). The default, 1.0, propagates
	// in reverse at full strength, so a file's importers light up (the
	// worked example of docs/design.md#activation-pipeline); 0 disables
	// reverse propagation.
	ReverseFactor float32
	// FanoutLimit damps hubs: a node with k > FanoutLimit edges in one
	// direction sends each of them only FanoutLimit/k of the signal. A
	// module imported by ten thousand files says little about any one of
	// them, and without the damping one activated hub floods a large graph
	// (reverse propagation reaches every importer). Nodes of ordinary
	// degree are unaffected. 0 disables the damping (default 64).
	FanoutLimit int
	// MaxFired bounds the nodes that fire per query (default 2,500). The
	// heap engine fires strongest first and the wavefront fires the
	// strongest of a depth that would exceed the budget, so the budget cuts
	// the weakest tail of the activation. 2,500 left every localisation
	// answer of the tune and held-out repositories as 10,000 did, at a
	// third of D1's time on go-std (benchmarks/results/activate-budgets.md).
	MaxFired int

	// The hybrid engine uses the heap engine when seeds/nodes <
	// HeapSeedRatio and the average degree < HeapMaxAvgDegree
	// (defaults 0.001 and 8), the wavefront engine otherwise.
	HeapSeedRatio    float64
	HeapMaxAvgDegree float64
	// BloomFPR is the heap engine's target false-positive rate for its
	// visited set (default 0.01).
	BloomFPR float64
}

// DefaultParams returns the defaults of docs/design.md#d1-structural.
func DefaultParams() Params {
	return Params{
		Decay: 0.55, Threshold: 0.04, MaxDepth: 5, SaturationCap: 1.0,
		InhibitoryFactor: 0.5, ReverseFactor: 1.0, FanoutLimit: 64, MaxFired: 2_500,
		HeapSeedRatio: 0.001, HeapMaxAvgDegree: 8, BloomFPR: 0.01,
	}
}

// Validate reports the first invalid parameter.
func (p Params) Validate() error {
	if _, err := finite.UnitInterval("activation: Decay", p.Decay); err != nil {
		return err
	}
	if _, err := finite.UnitInterval("activation: Threshold", p.Threshold); err != nil {
		return err
	}
	if _, err := finite.Positive("activation: SaturationCap", p.SaturationCap); err != nil {
		return err
	}
	if _, err := finite.UnitInterval("activation: InhibitoryFactor", p.InhibitoryFactor); err != nil {
		return err
	}
	if !graph.IsFinite(p.ReverseFactor) || p.ReverseFactor < 0 || p.ReverseFactor > 1 {
		return fmt.Errorf("activation: ReverseFactor must be in [0, 1], got %v", p.ReverseFactor)
	}
	if p.MaxDepth < 1 || p.MaxDepth > HardMaxDepth {
		return fmt.Errorf("activation: MaxDepth must be in [1, %d], got %d", HardMaxDepth, p.MaxDepth)
	}
	if p.FanoutLimit < 0 {
		return fmt.Errorf("activation: FanoutLimit must be >= 0, got %d", p.FanoutLimit)
	}
	if p.MaxFired < 1 {
		return fmt.Errorf("activation: MaxFired must be >= 1, got %d", p.MaxFired)
	}
	if p.Threshold > p.SaturationCap {
		return fmt.Errorf("activation: Threshold %v exceeds SaturationCap %v", p.Threshold, p.SaturationCap)
	}
	if err := finite.Check("activation: HeapSeedRatio", p.HeapSeedRatio); err != nil || p.HeapSeedRatio < 0 {
		return fmt.Errorf("activation: HeapSeedRatio must be a finite number >= 0, got %v", p.HeapSeedRatio)
	}
	if err := finite.Check("activation: HeapMaxAvgDegree", p.HeapMaxAvgDegree); err != nil || p.HeapMaxAvgDegree < 0 {
		return fmt.Errorf("activation: HeapMaxAvgDegree must be a finite number >= 0, got %v", p.HeapMaxAvgDegree)
	}
	if !(p.BloomFPR > 0 && p.BloomFPR < 1) {
		return fmt.Errorf("activation: BloomFPR must be in (0, 1), got %v", p.BloomFPR)
	}
	return nil
}

// CausalParams are the causal (D4) search parameters. Start from
// DefaultCausalParams.
type CausalParams struct {
	// BackwardDiscount multiplies every hop taken against an edge's
	// direction (toward causes) (default 0.7). Forward hops carry full
	// strength: only the edge's causal_strength attenuates them.
	BackwardDiscount float32
	// MaxDepth is the longest chain (default 6).
	MaxDepth int
	// Budget is the most nodes the search expands per query (default
	// 1,000). Every go-std query spent 5,000 and left 12,000–32,000 chains
	// queued: the budget cuts only the weakest tail. At 1,000 no
	// localisation answer moved on the tune and held-out repositories, and
	// the top 100 of the 24 go-std questions stayed byte-identical, at a
	// quarter of D4's time (benchmarks/results/activate-speed3.md).
	Budget int
	// Threshold: weaker chains are not extended. 0.1 is the original
	// causal-chain detector's minimum strength; below it a chain is a
	// product of several weak links and no longer explains anything, and
	// it is what keeps a 200-seed query from spending its whole budget on
	// noise.
	Threshold float32
}

// DefaultCausalParams returns the defaults of docs/design.md#d4-causal.
func DefaultCausalParams() CausalParams {
	return CausalParams{BackwardDiscount: 0.7, MaxDepth: 6, Budget: 1_000, Threshold: 0.1}
}

// Validate reports the first invalid parameter.
func (p CausalParams) Validate() error {
	if _, err := finite.UnitInterval("causal: BackwardDiscount", p.BackwardDiscount); err != nil {
		return err
	}
	if _, err := finite.UnitInterval("causal: Threshold", p.Threshold); err != nil {
		return err
	}
	if p.MaxDepth < 1 || p.MaxDepth > HardMaxDepth {
		return fmt.Errorf("causal: MaxDepth must be in [1, %d], got %d", HardMaxDepth, p.MaxDepth)
	}
	if p.Budget < 1 {
		return fmt.Errorf("causal: Budget must be >= 1, got %d", p.Budget)
	}
	return nil
}

// MergeParams combine the four dimensions. Start from DefaultMergeParams.
type MergeParams struct {
	// Weights per dimension, in graph.Dimension order (defaults 0.35, 0.25,
	// 0.15, 0.25). The weights of dimensions that produced nothing are
	// redistributed over the others in proportion.
	Weights [graph.NumDimensions]float32
	// Bonus4 and Bonus3 multiply a node's score when all four, or three,
	// dimensions scored it above ContributionThreshold (defaults 1.5, 1.3,
	// 0.01).
	Bonus4, Bonus3        float32
	ContributionThreshold float32
	// PageRankBoost × the node's PageRank is added last (default 0.1).
	PageRankBoost float32
}

// DefaultMergeParams returns the defaults of docs/design.md#merge.
func DefaultMergeParams() MergeParams {
	return MergeParams{
		Weights: graph.DimensionWeights,
		Bonus4:  1.5, Bonus3: 1.3,
		ContributionThreshold: 0.01,
		PageRankBoost:         0.1,
	}
}

// Max is the largest raw merged score, Bonus4 + PageRankBoost (every
// dimension at 1, PageRank 1); Merge divides by it.
func (p MergeParams) Max() float32 { return p.Bonus4 + p.PageRankBoost }

// Validate reports the first invalid parameter.
func (p MergeParams) Validate() error {
	var sum float32
	for d, w := range p.Weights {
		if !graph.IsFinite(w) || w < 0 {
			return fmt.Errorf("merge: weight of %v must be a finite number >= 0, got %v", graph.Dimension(d), w)
		}
		sum += w
	}
	if sum <= 0 {
		return fmt.Errorf("merge: dimension weights must not all be 0")
	}
	for _, b := range []struct {
		name string
		v    float32
	}{{"Bonus4", p.Bonus4}, {"Bonus3", p.Bonus3}} {
		if !graph.IsFinite(b.v) || b.v < 1 || b.v > 10 {
			return fmt.Errorf("merge: %s must be in [1, 10], got %v", b.name, b.v)
		}
	}
	if !graph.IsFinite(p.ContributionThreshold) || p.ContributionThreshold < 0 || p.ContributionThreshold >= 1 {
		return fmt.Errorf("merge: ContributionThreshold must be in [0, 1), got %v", p.ContributionThreshold)
	}
	if !graph.IsFinite(p.PageRankBoost) || p.PageRankBoost < 0 || p.PageRankBoost > 1 {
		return fmt.Errorf("merge: PageRankBoost must be in [0, 1], got %v", p.PageRankBoost)
	}
	return nil
}
