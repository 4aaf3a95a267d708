package graph

import (
	"fmt"
	"math"
)

// Finite returns v, or 0 when v is NaN or ±Inf. It is the firewall every
// score and weight passes before it reaches the graph or a response.
func Finite(v float32) float32 {
	if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
		return 0
	}
	return v
}

// Finite64 is Finite for float64 values.
func Finite64(v float64) float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0
	}
	return v
}

// IsFinite reports whether v is neither NaN nor ±Inf.
func IsFinite(v float32) bool {
	return !math.IsNaN(float64(v)) && !math.IsInf(float64(v), 0)
}

// Clamp returns v limited to [lo, hi]; a non-finite v becomes lo.
func Clamp(v, lo, hi float32) float32 {
	if !IsFinite(v) {
		return lo
	}
	if v < lo {
		return lo
	}
	if v > hi {
		return hi
	}
	return v
}

// CheckFinite returns an error naming what when v is not finite.
func CheckFinite(what string, v float64) error {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return fmt.Errorf("%s must be a finite number, got %v", what, v)
	}
	return nil
}

// Positive validates a strictly positive finite parameter (the spec's PosF32).
func Positive(what string, v float32) (float32, error) {
	if !IsFinite(v) || v <= 0 {
		return 0, fmt.Errorf("%s must be a finite number > 0, got %v", what, v)
	}
	return v, nil
}

// UnitInterval validates a parameter in (0, 1] (the spec's LearningRate and
// DecayFactor).
func UnitInterval(what string, v float32) (float32, error) {
	if !IsFinite(v) || v <= 0 || v > 1 {
		return 0, fmt.Errorf("%s must be in (0, 1], got %v", what, v)
	}
	return v, nil
}
