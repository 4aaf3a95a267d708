// Package finite holds the engine's parameter checks and clamps: the
// boundary where a number from outside (an option, a decoded file) becomes
// one the engine uses. Embedders validate through each package's
// Params.Validate; graph.Finite and graph.IsFinite are the public checks.
package finite

import (
	"fmt"
	"math"
)

func isFinite(v float32) bool {
	return !math.IsNaN(float64(v)) && !math.IsInf(float64(v), 0)
}

// Clamp returns v limited to [lo, hi]; a non-finite v becomes lo.
func Clamp(v, lo, hi float32) float32 {
	if !isFinite(v) {
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

// Check returns an error naming what when v is not finite.
func Check(what string, v float64) error {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return fmt.Errorf("%s must be a finite number, got %v", what, v)
	}
	return nil
}

// Positive validates a strictly positive finite parameter
// (docs/design.md#numbers).
func Positive(what string, v float32) (float32, error) {
	if !isFinite(v) || v <= 0 {
		return 0, fmt.Errorf("%s must be a finite number > 0, got %v", what, v)
	}
	return v, nil
}

// UnitInterval validates a parameter in (0, 1], such as a learning or decay
// rate (docs/design.md#numbers).
func UnitInterval(what string, v float32) (float32, error) {
	if !isFinite(v) || v <= 0 || v > 1 {
		return 0, fmt.Errorf("%s must be in (0, 1], got %v", what, v)
	}
	return v, nil
}
