package session

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"slices"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"
)

// lifetime owns the session's background work: every goroutine started
// through State.Go runs under ctx, which Close cancels, and Close waits for
// all of them (group) before it saves and lets go of the runtime directory.
type lifetime struct {
	mu      sync.Mutex
	ctx     context.Context
	cancel  context.CancelFunc
	closing bool
	group   errgroup.Group
	next    uint64
	running map[uint64]string // job id → name, for Close's report
}

// closeWaitReport is how long Close waits for background work before it
// says which is still running (and again each time as long).
var closeWaitReport = 3 * time.Second

// life returns the session's lifetime, made on first use (a State made
// without Open, as tests do, has none yet).
func (s *State) life() *lifetime {
	s.lt.mu.Lock()
	defer s.lt.mu.Unlock()
	if s.lt.ctx == nil {
		s.lt.ctx, s.lt.cancel = context.WithCancel(context.Background())
		s.lt.running = map[uint64]string{}
	}
	return &s.lt
}

// Context is the session's lifetime: it ends when Close begins. Work that
// serves the session rather than one call (an index built for every
// later reader) runs under it; background work runs under it through Go.
func (s *State) Context() context.Context { return s.life().ctx }

// Go runs f on a goroutine of its own under the session's lifetime: f's
// context ends when Close begins, and Close waits for f to return before
// it saves and releases the runtime directory — so f must return soon
// once its context ends. name says what f is in the log: an error f
// returns is logged (unless f was called off), and a panic in f is
// recovered and logged with its stack; neither ends the server.
//
// Go after Close has begun still runs f, with a context that has already
// ended, on a goroutine Close does not wait for.
func (s *State) Go(name string, f func(ctx context.Context) error) {
	l := s.life()
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closing {
		go s.runJob(l.ctx, name, f) // l.ctx has ended
		return
	}
	l.next++
	id := l.next
	l.running[id] = name
	l.group.Go(func() error {
		defer func() {
			l.mu.Lock()
			delete(l.running, id)
			l.mu.Unlock()
		}()
		return s.runJob(l.ctx, name, f)
	})
}

// runJob runs one background job, logging its failure or panic.
func (s *State) runJob(ctx context.Context, name string, f func(ctx context.Context) error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v", p)
			s.logf("%s: %v\n%s", name, err, debug.Stack())
		}
	}()
	err = f(ctx)
	if err != nil && !(ctx.Err() != nil && (errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded))) {
		s.logf("%s: %v", name, err)
	}
	return err
}

// endLifetime cancels the session's context and waits for the work
// started by Go, saying every closeWaitReport what still runs.
func (s *State) endLifetime() {
	l := s.life()
	l.mu.Lock()
	l.closing = true
	l.mu.Unlock()
	l.cancel()
	done := make(chan struct{})
	go func() {
		_ = l.group.Wait() // each error was logged when it happened
		close(done)
	}()
	t := time.NewTicker(closeWaitReport)
	defer t.Stop()
	waited := time.Duration(0)
	for {
		select {
		case <-done:
			return
		case <-t.C:
			waited += closeWaitReport
			s.logf("closing: still waiting after %v for background work to stop: %v", waited, s.Running())
		}
	}
}

// Running names the background work started by Go that has not returned
// yet, sorted.
func (s *State) Running() []string {
	l := s.life()
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make([]string, 0, len(l.running))
	for _, n := range l.running {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}
