//go:build !race

// Package race tells tests whether the race detector is on. Allocation
// bounds do not hold under it: its runtime drops a quarter of sync.Pool's
// puts (encoding/json keeps its encoders in one) and allocates beside the
// program.
package race

// Enabled reports that the binary was built with the race detector.
const Enabled = false
