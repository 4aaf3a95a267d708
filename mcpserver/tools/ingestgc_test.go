package tools

import (
	"os"
	"runtime/debug"
	"testing"
)

// gcPercent reads the runtime's GC percent (setting it back at once).
func gcPercent() int {
	p := debug.SetGCPercent(-1)
	debug.SetGCPercent(p)
	return p
}

// withPolicy runs f with the memory policy on or off and GOGC unset, then
// restores both.
func withPolicy(t *testing.T, on bool, f func()) {
	t.Helper()
	if v, set := os.LookupEnv("GOGC"); set {
		os.Unsetenv("GOGC")
		defer os.Setenv("GOGC", v)
	}
	was := memoryPolicy.on.Load()
	memoryPolicy.on.Store(on)
	defer memoryPolicy.on.Store(was)
	f()
}

// TestHoldCollections: a hold turns collections off and its end restores
// the percent; a heap past the bound lets go before the end; of two
// holders the last restores; nothing is held without the policy's limit
// or with the user's GOGC.
func TestHoldCollections(t *testing.T) {
	base := gcPercent()
	var keep [][]byte
	for _, c := range []struct {
		name     string
		policy   bool
		gogc     string // "": unset
		room     uint64
		grow     int // bytes allocated and kept before check
		holders  int
		held     int // percent while held, after check
		afterOne int // percent after the first holder's done
	}{
		{"held until done", true, "", 1 << 30, 0, 1, -1, base},
		{"let go past the room", true, "", 1 << 20, 8 << 20, 1, base, base},
		{"the last holder restores", true, "", 1 << 30, 0, 2, -1, -1},
		{"no policy, no hold", false, "", 1 << 30, 0, 1, base, base},
		{"the user's GOGC wins", true, "150", 1 << 30, 0, 1, base, base},
	} {
		t.Run(c.name, func(t *testing.T) {
			withPolicy(t, c.policy, func() {
				if c.gogc != "" {
					os.Setenv("GOGC", c.gogc)
					defer os.Unsetenv("GOGC")
				}
				var dones []func()
				var check func()
				for range c.holders {
					ch, d := holdCollections(c.room)
					check, dones = ch, append(dones, d)
				}
				keep = append(keep, make([]byte, c.grow))
				check()
				if got := gcPercent(); got != c.held {
					t.Errorf("percent while held %d, want %d", got, c.held)
				}
				dones[0]()
				dones[0]() // a second call of one done changes nothing
				if got := gcPercent(); got != c.afterOne {
					t.Errorf("percent after the first done %d, want %d", got, c.afterOne)
				}
				for _, d := range dones[1:] {
					d()
				}
				if got := gcPercent(); got != base {
					t.Errorf("percent after every done %d, want %d", got, base)
				}
			})
		})
	}
	keep = nil
}
