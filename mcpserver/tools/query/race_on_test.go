//go:build race

package query

// raceEnabled: the race detector's runtime drops a quarter of sync.Pool's
// puts (encoding/json keeps its encoders in one), so allocation bounds do
// not hold under it.
const raceEnabled = true
