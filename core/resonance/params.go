package resonance

import (
	"fmt"
	"math"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/internal/finite"
)

// Constants (docs/design.md#resonance).
const (
	// DefaultPulseBudget bounds the pulses of one standing-wave run.
	DefaultPulseBudget = 50_000
	// HubReflectionCoeff is the share of amplitude a hub reflects.
	HubReflectionCoeff = float32(0.3)
	// ReflectionPhaseShift is the phase shift of a dead-end reflection.
	ReflectionPhaseShift = math.Pi
	// HubDegreeRatio: a node whose degree exceeds this multiple of the
	// average degree is a hub.
	HubDegreeRatio = float32(4.0)
	// SympatheticExclusionHops: sympathetic pairs lie outside this BFS
	// radius around the seeds.
	SympatheticExclusionHops = 2
)

// Params configures an Engine. Start from DefaultParams; New validates.
type Params struct {
	// Fundamental is the base frequency (> 0). The sweep visits
	// Fundamental·k/SweepSteps for k = 1 … NumHarmonics·SweepSteps, so the
	// harmonics 1…NumHarmonics are sweep points and the points between them
	// locate resonant frequencies.
	Fundamental  float32
	NumHarmonics int
	SweepSteps   int
	// Wavelength is the wavelength, in hops, at the fundamental (> 0); at
	// frequency f it is Wavelength·Fundamental/f, and a hop advances the
	// phase by 2π/wavelength. The default 2π makes a hop advance the phase
	// by f/Fundamental radians, so no sweep point within the harmonics is
	// degenerate (a whole number of wavelengths per hop would put every
	// arrival in phase).
	Wavelength float32
	// Damping is the amplitude a pulse keeps per hop, times the edge weight
	// (capped at 1). (0, 1].
	Damping float32
	// MinAmplitude: weaker pulses stop. (0, 1).
	MinAmplitude float32
	// MaxHops bounds a pulse's travel (1 … 64).
	MaxHops int
	// HubDegreeRatio and HubReflection: a pulse entering a hub reflects
	// HubReflection of its amplitude back and transmits the rest.
	HubDegreeRatio float32
	HubReflection  float32
	// PulseBudget caps the pulses of one frequency; SweepBudget the pulses of
	// a whole Analyze call.
	PulseBudget int
	SweepBudget int
	// TopK bounds the harmonics, antinodes and sympathetic pairs reported.
	TopK int
	// SympatheticCandidates bounds the nodes compared pairwise;
	// SympatheticMinAmplitude (relative to the strongest response) and
	// MinCoupling (cosine similarity of sweep responses) filter pairs.
	SympatheticCandidates   int
	SympatheticMinAmplitude float32
	MinCoupling             float32
	// NeighborhoodBudget caps the nodes of the seeds' 2-hop neighbourhood;
	// past it sympathetic pairs are not reported (the exclusion zone would
	// be incomplete).
	NeighborhoodBudget int
	// GlobalSeeds is the number of top-PageRank nodes used when Analyze gets
	// no seeds (global resonance).
	GlobalSeeds int
}

// DefaultParams returns the defaults of docs/design.md#resonance.
func DefaultParams() Params {
	return Params{
		Fundamental:             1,
		NumHarmonics:            4,
		SweepSteps:              2,
		Wavelength:              2 * math.Pi,
		Damping:                 0.8,
		MinAmplitude:            0.01,
		MaxHops:                 12,
		HubDegreeRatio:          HubDegreeRatio,
		HubReflection:           HubReflectionCoeff,
		PulseBudget:             DefaultPulseBudget,
		SweepBudget:             8 * DefaultPulseBudget,
		TopK:                    20,
		SympatheticCandidates:   64,
		SympatheticMinAmplitude: 0.05,
		MinCoupling:             0.8,
		NeighborhoodBudget:      200_000,
		GlobalSeeds:             5,
	}
}

// Validate reports the first invalid field.
func (p Params) Validate() error {
	if _, err := finite.Positive("fundamental", p.Fundamental); err != nil {
		return err
	}
	if _, err := finite.Positive("wavelength", p.Wavelength); err != nil {
		return err
	}
	if _, err := finite.UnitInterval("damping", p.Damping); err != nil {
		return err
	}
	if p.NumHarmonics < 1 || p.NumHarmonics > 32 || p.SweepSteps < 1 || p.SweepSteps > 32 {
		return fmt.Errorf("num_harmonics and sweep_steps must be in [1, 32], got %d and %d", p.NumHarmonics, p.SweepSteps)
	}
	for _, f := range []struct {
		name string
		v    float32
	}{{"min_amplitude", p.MinAmplitude}, {"sympathetic_min_amplitude", p.SympatheticMinAmplitude}} {
		if !graph.IsFinite(f.v) || f.v <= 0 || f.v >= 1 {
			return fmt.Errorf("%s must be in (0, 1), got %v", f.name, f.v)
		}
	}
	if !graph.IsFinite(p.MinCoupling) || p.MinCoupling < 0 || p.MinCoupling > 1 {
		return fmt.Errorf("min_coupling must be in [0, 1], got %v", p.MinCoupling)
	}
	if p.MaxHops < 1 || p.MaxHops > 64 {
		return fmt.Errorf("max_hops must be in [1, 64], got %d", p.MaxHops)
	}
	if !graph.IsFinite(p.HubDegreeRatio) || p.HubDegreeRatio <= 1 {
		return fmt.Errorf("hub_degree_ratio must be > 1, got %v", p.HubDegreeRatio)
	}
	if !graph.IsFinite(p.HubReflection) || p.HubReflection < 0 || p.HubReflection >= 1 {
		return fmt.Errorf("hub_reflection must be in [0, 1), got %v", p.HubReflection)
	}
	if p.PulseBudget < 1 || p.SweepBudget < 1 || p.TopK < 1 || p.SympatheticCandidates < 2 || p.NeighborhoodBudget < 1 || p.GlobalSeeds < 1 {
		return fmt.Errorf("pulse_budget, sweep_budget, top_k, neighborhood_budget and global_seeds must be ≥ 1, sympathetic_candidates ≥ 2")
	}
	return nil
}
