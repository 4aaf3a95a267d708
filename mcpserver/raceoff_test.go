//go:build !race

package mcpserver

const raceOn = false
