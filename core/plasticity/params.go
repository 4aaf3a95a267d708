package plasticity

import (
	"fmt"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/internal/finite"
)

// Defaults (docs/design.md#plasticity-constants).
const (
	DefaultLearningRate       = float32(0.08)
	DefaultDecayRate          = float32(0.005)
	DefaultLTPThreshold       = 5
	DefaultLTDThreshold       = 5
	DefaultLTPBonus           = float32(0.15)
	DefaultLTDPenalty         = float32(0.15)
	DefaultHomeostaticCeiling = float32(5.0)
	DefaultMemoryCapacity     = 1000
	// DefaultMaxEdgesPerQuery bounds the weights one activation's cycle
	// writes in each of its two write steps (strengthening, neighbourhood
	// decay); see Params.MaxEdgesPerQuery.
	DefaultMaxEdgesPerQuery = 256
	// DefaultFeedbackCapacity is the number of learn calls feedback memory
	// keeps (the oldest is forgotten first).
	DefaultFeedbackCapacity = 1000
)

// Params configures an Engine. Start from DefaultParams and change fields;
// New validates them.
type Params struct {
	// LearningRate scales the Hebbian delta: lr · act_src · act_tgt. (0, 1].
	LearningRate float32
	// DecayRate is the per-query multiplicative decay of edges whose source
	// was inactive: w · (1 − DecayRate). (0, 1].
	DecayRate float32
	// LTPThreshold / LTDThreshold are the numbers of consecutive strengthen /
	// weaken events after which the one-time bonus / penalty applies. ≥ 1.
	LTPThreshold uint16
	LTDThreshold uint16
	// LTPBonus / LTDPenalty are the one-time weight changes. ≥ 0.
	LTPBonus   float32
	LTDPenalty float32
	// HomeostaticCeiling bounds the sum of a node's incoming weights; above
	// it every incoming weight is scaled by ceiling/sum. > 0.
	HomeostaticCeiling float32
	// WeightFloor and WeightCap bound every weight this engine writes
	// (0 < floor ≤ cap).
	WeightFloor float32
	WeightCap   float32
	// ActiveThreshold: a node whose activation is above it counts as
	// activated ("fired") for the cycle. [0, 1).
	ActiveThreshold float32
	// MemoryCapacity is the size of the query-memory ring. ≥ 1.
	MemoryCapacity int
	// MemoryNodesPerQuery caps the activated nodes remembered per query (the
	// strongest first) and MemorySeedsPerQuery the seeds, which bounds the
	// memory (and its bigram table: at most s·(s−1)/2 pairs per record).
	MemoryNodesPerQuery int
	MemorySeedsPerQuery int
	// PrimingLimit caps the nodes returned by Priming (and counted as
	// priming_nodes by Update). ≥ 1.
	PrimingLimit int
	// BigramBoost raises the weight of a remembered query for each seed pair
	// it shares with the new query that has co-occurred in at least two
	// remembered queries (the multiplier is capped at 2). ≥ 0.
	BigramBoost float32

	// MaxEdgesPerQuery bounds what one activation's cycle writes: at most
	// this many edges are strengthened (the largest deltas first) and at
	// most this many decayed (those into the most activated nodes first).
	// A read query changes a bounded neighbourhood, never the whole graph.
	// ≥ 1.
	MaxEdgesPerQuery int

	// FeedbackCapacity is the number of Learn calls feedback memory keeps.
	// ≥ 1.
	FeedbackCapacity int
	// FeedbackBase is the evidence a Learn call carries at strength 0; at
	// strength s it carries FeedbackBase + (1 − FeedbackBase)·s (1 at full
	// strength; Partial half of that; Wrong negative). [0, 1].
	FeedbackBase float32
	// MinSimilarity: a remembered Learn call counts for a query only when
	// their contexts are at least this similar (see Relevance). (0, 1].
	MinSimilarity float32
}

// DefaultParams returns the defaults of docs/design.md#plasticity-constants.
func DefaultParams() Params {
	return Params{
		LearningRate:        DefaultLearningRate,
		DecayRate:           DefaultDecayRate,
		LTPThreshold:        DefaultLTPThreshold,
		LTDThreshold:        DefaultLTDThreshold,
		LTPBonus:            DefaultLTPBonus,
		LTDPenalty:          DefaultLTDPenalty,
		HomeostaticCeiling:  DefaultHomeostaticCeiling,
		WeightFloor:         graph.WeightFloor,
		WeightCap:           graph.WeightCap,
		ActiveThreshold:     0.01,
		MemoryCapacity:      DefaultMemoryCapacity,
		MemoryNodesPerQuery: 50,
		MemorySeedsPerQuery: 16,
		PrimingLimit:        50,
		BigramBoost:         0.25,
		MaxEdgesPerQuery:    DefaultMaxEdgesPerQuery,
		FeedbackCapacity:    DefaultFeedbackCapacity,
		FeedbackBase:        0.25,
		MinSimilarity:       0.3,
	}
}

// Validate reports the first invalid field.
func (p Params) Validate() error {
	if _, err := finite.UnitInterval("learning_rate", p.LearningRate); err != nil {
		return err
	}
	if _, err := finite.UnitInterval("decay_rate", p.DecayRate); err != nil {
		return err
	}
	if p.LTPThreshold < 1 || p.LTDThreshold < 1 {
		return fmt.Errorf("ltp_threshold and ltd_threshold must be ≥ 1, got %d and %d", p.LTPThreshold, p.LTDThreshold)
	}
	for _, f := range []struct {
		name string
		v    float32
	}{{"ltp_bonus", p.LTPBonus}, {"ltd_penalty", p.LTDPenalty}, {"bigram_boost", p.BigramBoost}} {
		if !graph.IsFinite(f.v) || f.v < 0 {
			return fmt.Errorf("%s must be a finite number ≥ 0, got %v", f.name, f.v)
		}
	}
	if _, err := finite.Positive("homeostatic_ceiling", p.HomeostaticCeiling); err != nil {
		return err
	}
	if _, err := finite.Positive("weight_floor", p.WeightFloor); err != nil {
		return err
	}
	if !graph.IsFinite(p.WeightCap) || p.WeightCap < p.WeightFloor {
		return fmt.Errorf("weight_cap must be finite and ≥ weight_floor (%v), got %v", p.WeightFloor, p.WeightCap)
	}
	if !graph.IsFinite(p.ActiveThreshold) || p.ActiveThreshold < 0 || p.ActiveThreshold >= 1 {
		return fmt.Errorf("active_threshold must be in [0, 1), got %v", p.ActiveThreshold)
	}
	if p.MemoryCapacity < 1 || p.MemoryNodesPerQuery < 1 || p.MemorySeedsPerQuery < 1 || p.PrimingLimit < 1 {
		return fmt.Errorf("memory_capacity, memory_nodes_per_query, memory_seeds_per_query and priming_limit must be ≥ 1")
	}
	if p.MaxEdgesPerQuery < 1 || p.FeedbackCapacity < 1 {
		return fmt.Errorf("max_edges_per_query and feedback_capacity must be ≥ 1, got %d and %d", p.MaxEdgesPerQuery, p.FeedbackCapacity)
	}
	if !graph.IsFinite(p.FeedbackBase) || p.FeedbackBase < 0 || p.FeedbackBase > 1 {
		return fmt.Errorf("feedback_base must be in [0, 1], got %v", p.FeedbackBase)
	}
	if _, err := finite.UnitInterval("min_similarity", p.MinSimilarity); err != nil {
		return err
	}
	return nil
}
