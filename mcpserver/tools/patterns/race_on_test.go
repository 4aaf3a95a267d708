//go:build race

package patterns

// raceEnabled: the race detector's runtime drops a quarter of sync.Pool's
// puts and allocates beside the program, so allocation bounds do not hold.
const raceEnabled = true
