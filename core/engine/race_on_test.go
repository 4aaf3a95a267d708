//go:build race

package engine

// raceEnabled: the race detector's runtime drops sync.Pool puts at
// random, so allocation bounds that rely on a pool are not checked.
const raceEnabled = true
