package graph

import "math"

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
