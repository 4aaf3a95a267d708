package temporal

import (
	"fmt"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/internal/finite"
)

// Options are the temporal dimension's parameters. Start from
// DefaultOptions.
type Options struct {
	// HalfLifeHours gives the recency half-life per node type; types not
	// listed use DefaultHalfLifeHours. Defaults per type in
	// docs/design.md#node-types: File 7 d, Function 14 d, classes and
	// other type declarations 21 d, Module, Directory and the non-code
	// types 30 d.
	HalfLifeHours        map[graph.NodeType]float32
	DefaultHalfLifeHours float32

	// DormantAfterHours: a node unchanged for longer is dormant (default
	// 35 d).
	// A node that changes again after such a gap is "resurrected": while it
	// is not dormant again its recency is at least ResurrectionFloor +
	// ResurrectionScale·ln(1 + gap/DormantAfterHours), capped at 1.
	DormantAfterHours float32
	ResurrectionFloor float32
	ResurrectionScale float32

	// RecencyWeight and VelocityWeight blend a node's temporal score
	// (normalised by their sum; defaults 0.6 / 0.4).
	RecencyWeight, VelocityWeight float32
	// StddevFloor keeps velocity z-scores finite when every node changes
	// at the same rate.
	StddevFloor float32

	// CoChangeBudget caps the co-change matrix's entries (default 500,000)
	// and CoChangeRowCap each node's row (default 100).
	CoChangeBudget int
	CoChangeRowCap int
	// BootstrapDepth is the structural radius the matrix starts from
	// (default 3 hops). A pair BootstrapDepth hops apart starts at the
	// product over the path of min(weight, 1)·BootstrapHopDecay·BootstrapWeight.
	BootstrapDepth    int
	BootstrapWeight   float32
	BootstrapHopDecay float32
	// BootstrapRowCap bounds the partners one row gets from the structural
	// bootstrap (default 20 = PartnersPerSeed, all activation reads);
	// observed co-changes still fill rows up to CoChangeRowCap.
	BootstrapRowCap int
	// BootstrapScanFactor × the per-row cap bounds the edges one node's
	// bootstrap search may scan, so hubs cost the same as leaves.
	BootstrapScanFactor int
	// JaccardSmoothing is k in the observed strength co/(|A ∪ B| + k): a
	// pair seen once scores 1/3 instead of 1.
	JaccardSmoothing float32
	// MaxCommitGroup: larger commit groups still count as changes of their
	// nodes but record no pairs (a mass rename says nothing about coupling,
	// and would cost n² entries).
	MaxCommitGroup int

	// PartnersPerSeed is how many co-change partners of each seed the D3
	// query considers.
	PartnersPerSeed int
	// MinScore drops D3 results below it.
	MinScore float32
}

// DefaultOptions returns the defaults of docs/design.md#d3-temporal.
func DefaultOptions() Options {
	return Options{
		HalfLifeHours: map[graph.NodeType]float32{
			graph.File:     7 * 24,
			graph.Function: 14 * 24,
			// Type-level declarations change less often than the functions
			// inside them and more often than packages: three weeks.
			graph.Class:  21 * 24,
			graph.Struct: 21 * 24,
			graph.Enum:   21 * 24,
			graph.Type:   21 * 24,
			graph.Module: 30 * 24, graph.Directory: 30 * 24,
			// Non-code domains (materials, suppliers, regulations, …) move
			// on the scale of months.
			graph.Concept: 30 * 24, graph.Material: 30 * 24, graph.Process: 30 * 24,
			graph.Product: 30 * 24, graph.Supplier: 30 * 24, graph.Regulatory: 30 * 24,
			graph.System: 30 * 24, graph.Cost: 30 * 24,
		},
		DefaultHalfLifeHours: 7 * 24,
		DormantAfterHours:    35 * 24,
		ResurrectionFloor:    0.3,
		ResurrectionScale:    0.1,
		RecencyWeight:        0.6,
		VelocityWeight:       0.4,
		StddevFloor:          0.01,
		CoChangeBudget:       500_000,
		CoChangeRowCap:       100,
		BootstrapDepth:       3,
		BootstrapWeight:      0.3,
		BootstrapHopDecay:    0.95,
		BootstrapRowCap:      20,
		BootstrapScanFactor:  32,
		JaccardSmoothing:     2,
		MaxCommitGroup:       50,
		PartnersPerSeed:      20,
		MinScore:             0.01,
	}
}

// Validate reports the first invalid parameter.
func (o Options) Validate() error {
	pos := []struct {
		name string
		v    float32
	}{
		{"DefaultHalfLifeHours", o.DefaultHalfLifeHours}, {"DormantAfterHours", o.DormantAfterHours},
		{"StddevFloor", o.StddevFloor},
	}
	for t, h := range o.HalfLifeHours {
		pos = append(pos, struct {
			name string
			v    float32
		}{"HalfLifeHours[" + t.String() + "]", h})
	}
	for _, p := range pos {
		if _, err := finite.Positive("temporal: "+p.name, p.v); err != nil {
			return err
		}
	}
	for _, p := range []struct {
		name string
		v    float32
	}{
		{"ResurrectionFloor", o.ResurrectionFloor}, {"ResurrectionScale", o.ResurrectionScale},
		{"RecencyWeight", o.RecencyWeight}, {"VelocityWeight", o.VelocityWeight},
		{"MinScore", o.MinScore},
	} {
		if !graph.IsFinite(p.v) || p.v < 0 || p.v > 1 {
			return fmt.Errorf("temporal: %s must be in [0, 1], got %v", p.name, p.v)
		}
	}
	if o.RecencyWeight+o.VelocityWeight <= 0 {
		return fmt.Errorf("temporal: RecencyWeight + VelocityWeight must be > 0")
	}
	for _, p := range []struct {
		name string
		v    float32
	}{{"BootstrapWeight", o.BootstrapWeight}, {"BootstrapHopDecay", o.BootstrapHopDecay}} {
		if _, err := finite.UnitInterval("temporal: "+p.name, p.v); err != nil {
			return err
		}
	}
	if !graph.IsFinite(o.JaccardSmoothing) || o.JaccardSmoothing < 0 {
		return fmt.Errorf("temporal: JaccardSmoothing must be >= 0, got %v", o.JaccardSmoothing)
	}
	switch {
	case o.CoChangeBudget < 0:
		return fmt.Errorf("temporal: CoChangeBudget must be >= 0, got %d", o.CoChangeBudget)
	case o.CoChangeRowCap < 1:
		return fmt.Errorf("temporal: CoChangeRowCap must be >= 1, got %d", o.CoChangeRowCap)
	case o.BootstrapDepth < 0 || o.BootstrapDepth > 6:
		return fmt.Errorf("temporal: BootstrapDepth must be in [0, 6], got %d", o.BootstrapDepth)
	case o.BootstrapScanFactor < 1:
		return fmt.Errorf("temporal: BootstrapScanFactor must be >= 1, got %d", o.BootstrapScanFactor)
	case o.MaxCommitGroup < 2:
		return fmt.Errorf("temporal: MaxCommitGroup must be >= 2, got %d", o.MaxCommitGroup)
	case o.PartnersPerSeed < 0:
		return fmt.Errorf("temporal: PartnersPerSeed must be >= 0, got %d", o.PartnersPerSeed)
	}
	return nil
}

func (o *Options) halfLife(t graph.NodeType) float32 {
	if h, ok := o.HalfLifeHours[t]; ok {
		return h
	}
	return o.DefaultHalfLifeHours
}
