//go:build race

package mcpserver

// raceOn: the race detector drops pooled buffers at random, so
// allocation counts say nothing under it.
const raceOn = true
