// Package watch turns file events under a set of paths into debounced
// calls: kernel watches (rjeczalik/notify: inotify on Linux, FSEvents on
// macOS) when they can be had, a polling clock otherwise. A burst of events
// (a branch switch writing thousands of files) becomes one call once the
// tree has been quiet for the debounce time, or after MaxDelay at most.
// The daemon and auto-ingest both watch through it.
package watch

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/rjeczalik/notify"
)

// Config says how events become calls.
type Config struct {
	// Debounce is the quiet time after the last event before Fire;
	// MaxDelay (0: none) bounds the wait while events keep coming.
	Debounce, MaxDelay time.Duration
	// Quick (0: Debounce) is the quiet time while the events since the
	// last call are at most QuickEvents: an editor's save is a handful of
	// events on one file and is reconciled sooner, while a burst (a
	// checkout) still waits out Debounce once it has shown itself.
	Quick time.Duration
	// Poll is the interval of Fire("poll") when kernel watches are
	// unavailable.
	Poll time.Duration
	// Ignore filters events (Noise is always ignored).
	Ignore func(path string) bool
	// Event is called for every event kept (counting, queueing); optional.
	Event func(path string)
	// Fire runs the work: trigger is "watch", "poll" or what Trigger was
	// given. Calls never overlap. ctx ends when the watch does (Stop, or
	// the end of the owner's lifetime): a Fire in progress is called off.
	Fire func(ctx context.Context, trigger string)
	// FireChanged, when set, runs instead of Fire for the calls events
	// started ("watch"), with the paths those events named: a tick can
	// then look at those files only instead of the whole tree.
	FireChanged func(ctx context.Context, ch Changes)
	// Go, when set, runs the watch under its owner's lifetime (a session's
	// Go): the watch ends when the context Go gives it does, and the owner
	// waits for it. Without Go the watch runs on a goroutine of its own
	// that only Stop ends.
	Go GoFunc
}

// GoFunc runs f on a goroutine under its owner's lifetime: f's context
// ends when the owner closes, and the owner waits for f to return.
// (*session.State).Go is one.
type GoFunc func(name string, f func(ctx context.Context) error)

// Changes are the paths the events since the last call named (sorted,
// distinct). Complete is false when they may not be all: more events came
// than MaxChangeEvents — notify drops events when its channel is full
// (8,192 queued) and the kernel's when its queue overflows, silently, so
// only a burst far smaller than those is known to be whole. Closed is
// when the set was closed: every change the kernel reported before it is
// in Paths.
type Changes struct {
	Paths    []string
	Complete bool
	Closed   time.Time
}

// MaxChangeEvents bounds the events a call's Changes are complete for.
const MaxChangeEvents = 1024

// QuickEvents is how many events a lone change may bring (a save by
// rename: create, write, rename, chmod) and still be waited for Quick.
const QuickEvents = 4

// quiet is the wait after the n-th event since the last call.
func (c *Config) quiet(n int) time.Duration {
	if c.Quick > 0 && n <= QuickEvents {
		return c.Quick
	}
	return c.Debounce
}

// Watcher is a running watch.
type Watcher struct {
	// Backend is "notify" or "polling"; Note says why polling was chosen.
	Backend, Note string
	stop, done    chan struct{}
	trigger       chan string

	mu       sync.Mutex
	stopped  bool
	cancel   context.CancelFunc // the loop's context, once it runs
	stopOnce sync.Once
}

// Start watches paths (directories recursively, single files as they
// are). It does not fail: without kernel watches it polls, and Note says
// why.
func Start(paths []string, cfg Config) *Watcher {
	w := &Watcher{Backend: "notify", stop: make(chan struct{}), done: make(chan struct{}), trigger: make(chan string, 1)}
	events := make(chan notify.EventInfo, 8192)
	for _, p := range paths {
		target := filepath.Join(p, "...")
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			target = p
		}
		if err := notify.Watch(target, events, notify.All); err != nil {
			w.Backend, w.Note = "polling", fmt.Sprintf("kernel watches unavailable for %s (%v): polling every %v", p, err, cfg.Poll)
			notify.Stop(events)
			events = nil
			break
		}
	}
	name := fmt.Sprintf("watch %s", strings.Join(paths, ", "))
	if cfg.Go != nil {
		cfg.Go(name, func(ctx context.Context) error { w.loop(ctx, events, cfg); return nil })
	} else {
		go w.loop(context.Background(), events, cfg)
	}
	return w
}

// Stop ends the watch, calls off a running Fire and waits for it to
// return. Stopping a stopped watch does nothing.
func (w *Watcher) Stop() {
	w.stopOnce.Do(func() {
		w.mu.Lock()
		w.stopped = true
		if w.cancel != nil {
			w.cancel()
		}
		w.mu.Unlock()
		close(w.stop)
	})
	<-w.done
}

// Trigger asks for a Fire(trigger) now, as if the tree had changed (a
// daemon resuming reconciles what changed while it was down). A Trigger
// while one is pending is dropped: the pending Fire covers it.
func (w *Watcher) Trigger(trigger string) {
	select {
	case w.trigger <- trigger:
	default:
	}
}

func (w *Watcher) loop(parent context.Context, events chan notify.EventInfo, cfg Config) {
	defer close(w.done)
	if events != nil {
		defer notify.Stop(events)
	}
	w.mu.Lock()
	if w.stopped {
		w.mu.Unlock()
		return
	}
	ctx, cancel := context.WithCancel(parent)
	w.cancel = cancel
	w.mu.Unlock()
	defer cancel()
	var poll <-chan time.Time
	if events == nil {
		t := time.NewTicker(cfg.Poll)
		defer t.Stop()
		poll = t.C
	}
	var fire <-chan time.Time
	var timer *time.Timer
	var first time.Time
	n := 0 // events since the last call
	// the paths they named, and whether a call told of the tree's change
	// without naming paths (a poll or a trigger) since
	changed := map[string]bool{}
	for {
		if ctx.Err() != nil { // before anything else that is ready
			if timer != nil {
				timer.Stop()
			}
			return
		}
		select {
		case <-ctx.Done():
			if timer != nil {
				timer.Stop()
			}
			return
		case ev := <-events:
			p := ev.Path()
			if Noise(p) || (cfg.Ignore != nil && cfg.Ignore(p)) {
				continue
			}
			if cfg.Event != nil {
				cfg.Event(p)
			}
			now := time.Now()
			n++
			if n <= MaxChangeEvents {
				changed[p] = true
			}
			if timer == nil {
				first = now
				timer = time.NewTimer(cfg.quiet(n))
				fire = timer.C
			} else if cfg.MaxDelay <= 0 || now.Sub(first) < cfg.MaxDelay {
				timer.Reset(cfg.quiet(n)) // coalesce: wait for quiet
			}
		case <-fire:
			ch := Changes{Complete: n <= MaxChangeEvents, Closed: time.Now()}
			for p := range changed {
				ch.Paths = append(ch.Paths, p)
			}
			slices.Sort(ch.Paths)
			timer, fire, n = nil, nil, 0
			clear(changed)
			if cfg.FireChanged != nil {
				cfg.FireChanged(ctx, ch)
			} else {
				cfg.Fire(ctx, "watch")
			}
		case <-poll:
			cfg.Fire(ctx, "poll")
		case tr := <-w.trigger:
			cfg.Fire(ctx, tr)
		}
	}
}

// Noise reports paths whose events never mean a source change: git's
// internals, editor swap and backup files, temporary files (m1nd's own
// atomic writes included).
func Noise(p string) bool {
	base := filepath.Base(p)
	sep := string(filepath.Separator)
	switch {
	case strings.Contains(p, sep+".git"+sep) || strings.HasSuffix(p, sep+".git"),
		strings.HasSuffix(base, "~"), strings.HasPrefix(base, ".#"), base == "4913",
		strings.HasSuffix(base, ".swp"), strings.HasSuffix(base, ".swx"), strings.HasSuffix(base, ".swo"),
		strings.HasPrefix(base, ".m1nd-"), strings.HasSuffix(base, ".tmp"):
		return true
	}
	return false
}
