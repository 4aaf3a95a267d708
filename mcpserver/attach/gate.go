package attach

import (
	"context"
	"sync"
)

// Gate counts the attached sessions an owner serves, so that the owner
// leaves only once none is open, and admits no new one after that.
type Gate struct {
	mu   sync.Mutex
	n    int
	shut bool
	wake chan struct{} // closed when n drops to zero
}

// Enter admits one session; false once the gate is shut.
func (g *Gate) Enter() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.shut {
		return false
	}
	g.n++
	return true
}

// Leave ends a session admitted by Enter.
func (g *Gate) Leave() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.n--
	if g.n == 0 && g.wake != nil {
		close(g.wake)
		g.wake = nil
	}
}

// Open is the number of sessions admitted and not yet left.
func (g *Gate) Open() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.n
}

// Shut waits until no session is open, then refuses new ones. When ctx
// ends first it shuts at once and returns ctx's error.
func (g *Gate) Shut(ctx context.Context) error {
	for {
		g.mu.Lock()
		if g.n == 0 || ctx.Err() != nil {
			g.shut = true
			g.mu.Unlock()
			return ctx.Err()
		}
		if g.wake == nil {
			g.wake = make(chan struct{})
		}
		wake := g.wake
		g.mu.Unlock()
		select {
		case <-wake:
		case <-ctx.Done():
		}
	}
}
