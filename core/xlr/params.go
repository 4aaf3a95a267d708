package xlr

import (
	"fmt"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/internal/finite"
)

// Constants (docs/design.md#xlr-noise-cancellation).
const (
	FHot                      = float32(1.0)
	FCold                     = float32(3.7)
	SpectralBandwidth         = float32(0.8)
	SpectralBuckets           = 20
	ImmunityHops              = 2
	SigmoidSteepness          = float32(6.0)
	DensityFloor              = float32(0.3)
	DensityCap                = float32(2.0)
	InhibitoryColdAttenuation = float32(0.5)
	DefaultAntiSeeds          = 3
	// DefaultPulseBudget: 10,000 left every localisation answer as 50,000
	// did, at under half of XLR's time on go-std
	// (benchmarks/results/activate-budgets.md).
	DefaultPulseBudget = 10_000
)

// Params configures an Engine. Start from DefaultParams; New validates.
type Params struct {
	// FHot and FCold are the channel frequencies (> 0, distinct).
	FHot, FCold float32
	// SpectralBandwidth is the Gaussian kernel width (> 0) and
	// SpectralBuckets the resolution (≥ 2) of the spectra whose overlap
	// measures common-mode signal.
	SpectralBandwidth float32
	SpectralBuckets   int
	// ImmunityHops is the BFS radius around the seeds inside which nodes
	// cannot be cancelled (≥ 0).
	ImmunityHops int
	// SigmoidSteepness scales the net signal before the sigmoid gate (> 0).
	SigmoidSteepness float32
	// DensityFloor and DensityCap clamp the density modulation
	// degree/average_degree (0 < floor ≤ cap).
	DensityFloor, DensityCap float32
	// InhibitoryAttenuation multiplies a pulse crossing an inhibitory edge
	// (default InhibitoryColdAttenuation, 0.5). [0, 1].
	InhibitoryAttenuation float32
	// AntiSeeds is the number of cold-channel origins (≥ 1).
	AntiSeeds int
	// AntiSeedMinDegreeRatio: an anti-seed's degree is at least this
	// fraction of the seeds' average degree. ≥ 0.
	AntiSeedMinDegreeRatio float32
	// AntiSeedMaxJaccard: an anti-seed's neighbourhood overlaps the seeds'
	// by at most this Jaccard similarity. [0, 1].
	AntiSeedMaxJaccard float32
	// AntiSeedScanBudget caps the nodes examined as anti-seed candidates.
	AntiSeedScanBudget int
	// HubDegreeRatio: a node whose degree exceeds this multiple of the
	// average degree is a hub. Hubs are never immune, do not relay
	// immunity, are never anti-seeds, and are left out of the neighbourhoods
	// compared by the Jaccard filter (see the package documentation). > 1.
	HubDegreeRatio float32
	// PulseBudget caps the pulses of both channels together (half each).
	PulseBudget int
	// ImmunityBudget caps the nodes the immunity BFS marks.
	ImmunityBudget int
	// MaxHops bounds how far a pulse travels (1..20); Decay is the
	// amplitude kept per hop (0, 1]; pulses below MinAmplitude stop.
	MaxHops      int
	Decay        float32
	MinAmplitude float32
}

// DefaultParams returns the constants above plus propagation defaults:
// decay 0.55 per hop as in structural activation, pulses to 3 hops (the
// channels meet at the hubs within two; hops 4–5 carry ≤ 0.09 of a seed's
// amplitude and, on the 10K-node benchmark graph, leave the top results
// unchanged while doubling the cost), amplitude floor 0.01, and 1024 nodes
// examined for anti-seeds.
func DefaultParams() Params {
	return Params{
		FHot: FHot, FCold: FCold,
		SpectralBandwidth: SpectralBandwidth, SpectralBuckets: SpectralBuckets,
		ImmunityHops:           ImmunityHops,
		SigmoidSteepness:       SigmoidSteepness,
		DensityFloor:           DensityFloor,
		DensityCap:             DensityCap,
		InhibitoryAttenuation:  InhibitoryColdAttenuation,
		AntiSeeds:              DefaultAntiSeeds,
		AntiSeedMinDegreeRatio: 0.3,
		AntiSeedMaxJaccard:     0.2,
		AntiSeedScanBudget:     1024,
		HubDegreeRatio:         2.0,
		PulseBudget:            DefaultPulseBudget,
		ImmunityBudget:         50_000,
		MaxHops:                3,
		Decay:                  0.55,
		MinAmplitude:           0.01,
	}
}

// Validate reports the first invalid field.
func (p Params) Validate() error {
	for _, f := range []struct {
		name string
		v    float32
	}{{"f_hot", p.FHot}, {"f_cold", p.FCold}, {"spectral_bandwidth", p.SpectralBandwidth}, {"sigmoid_steepness", p.SigmoidSteepness}, {"density_floor", p.DensityFloor}} {
		if _, err := finite.Positive(f.name, f.v); err != nil {
			return err
		}
	}
	if p.FHot == p.FCold {
		return fmt.Errorf("f_hot and f_cold must differ, both are %v", p.FHot)
	}
	if !graph.IsFinite(p.DensityCap) || p.DensityCap < p.DensityFloor {
		return fmt.Errorf("density_cap must be finite and ≥ density_floor (%v), got %v", p.DensityFloor, p.DensityCap)
	}
	if p.SpectralBuckets < 2 || p.SpectralBuckets > 1024 {
		return fmt.Errorf("spectral_buckets must be in [2, 1024], got %d", p.SpectralBuckets)
	}
	if p.ImmunityHops < 0 || p.ImmunityHops > 20 {
		return fmt.Errorf("immunity_hops must be in [0, 20], got %d", p.ImmunityHops)
	}
	if !graph.IsFinite(p.InhibitoryAttenuation) || p.InhibitoryAttenuation < 0 || p.InhibitoryAttenuation > 1 {
		return fmt.Errorf("inhibitory_attenuation must be in [0, 1], got %v", p.InhibitoryAttenuation)
	}
	if p.AntiSeeds < 1 || p.AntiSeedScanBudget < 1 {
		return fmt.Errorf("anti_seeds and anti_seed_scan_budget must be ≥ 1")
	}
	if !graph.IsFinite(p.AntiSeedMinDegreeRatio) || p.AntiSeedMinDegreeRatio < 0 {
		return fmt.Errorf("anti_seed_min_degree_ratio must be ≥ 0, got %v", p.AntiSeedMinDegreeRatio)
	}
	if !graph.IsFinite(p.AntiSeedMaxJaccard) || p.AntiSeedMaxJaccard < 0 || p.AntiSeedMaxJaccard > 1 {
		return fmt.Errorf("anti_seed_max_jaccard must be in [0, 1], got %v", p.AntiSeedMaxJaccard)
	}
	if !graph.IsFinite(p.HubDegreeRatio) || p.HubDegreeRatio <= 1 {
		return fmt.Errorf("hub_degree_ratio must be > 1, got %v", p.HubDegreeRatio)
	}
	if p.PulseBudget < 2 || p.ImmunityBudget < 1 {
		return fmt.Errorf("pulse_budget must be ≥ 2 and immunity_budget ≥ 1")
	}
	if p.MaxHops < 1 || p.MaxHops > 20 {
		return fmt.Errorf("max_hops must be in [1, 20], got %d", p.MaxHops)
	}
	if _, err := finite.UnitInterval("decay", p.Decay); err != nil {
		return err
	}
	if !graph.IsFinite(p.MinAmplitude) || p.MinAmplitude <= 0 || p.MinAmplitude >= 1 {
		return fmt.Errorf("min_amplitude must be in (0, 1), got %v", p.MinAmplitude)
	}
	return nil
}
