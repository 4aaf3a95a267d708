package attach

import (
	"encoding/json"
	"errors"
	"net"
	"sync"
	"time"
)

// Version is the attach protocol this build speaks (the Hello's first
// field); a client refuses an owner speaking another. Version 2: an owner
// that stops hands each session over (transport.HandoverMethod) and its
// Hello carries its configuration for the process that takes over.
const Version = 2

// Hello is the owner's greeting, one JSON line, before any MCP message.
type Hello struct {
	Version int      `json:"m1nd_attach"`
	Pid     int      `json:"pid"`
	Roots   []string `json:"roots"` // what the shared graph was ingested from
	// Config is the owner's effective configuration (session.Config as
	// JSON): the process that takes the runtime directory over when the
	// owner stops serves with it, so it loads the same files.
	Config json.RawMessage `json:"config,omitempty"`
}

// Serve accepts connections on ln until ln is closed. Each one the gate
// admits is greeted with hello() and handed to serve, which returns when
// the session ends; the connection is then closed. Serve returns once ln
// is closed and every serve has returned.
func Serve(ln net.Listener, g *Gate, hello func() Hello, serve func(net.Conn), logf func(string, ...any)) {
	var wg sync.WaitGroup
	defer wg.Wait()
	for {
		c, err := ln.Accept()
		if errors.Is(err, net.ErrClosed) {
			return
		}
		if err != nil { // out of file descriptors and the like: back off
			logf("attach: accept: %v", err)
			time.Sleep(100 * time.Millisecond)
			continue
		}
		if !g.Enter() {
			c.Close() // shutting down: the client sees no Hello and retries
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer g.Leave()
			defer c.Close()
			h := hello()
			h.Version = Version
			line, _ := json.Marshal(h)
			if _, err := c.Write(append(line, '\n')); err == nil {
				serve(c)
			}
		}()
	}
}
