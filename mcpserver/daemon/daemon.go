// Package daemon keeps the served graph in step with the disk: it watches
// the ingest roots (package watch: kernel events, polling when watches
// cannot be had, bursts coalesced) and turns them into reconciliation
// ticks, counts what each tick did,
// and keeps the drift alerts. What a tick does — compare the graph with
// the disk, re-ingest incrementally, judge what deserves an alert — is the
// Reconciler the tool layer supplies; the daemon only decides when.
//
// Its state (active, watch paths, poll interval) and alerts are persisted
// in the runtime directory, so a restarted server resumes watching.
package daemon

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"sync"
	"time"

	"github.com/m1nd-go/m1nd/core/snapshot"
	"github.com/m1nd-go/m1nd/mcpserver/watch"
)

// TickResult is what one reconciliation did.
type TickResult struct {
	ChangedFilesDetected int      `json:"changed_files_detected"`
	DeletedFilesDetected int      `json:"deleted_files_detected"`
	AddedFilesDetected   int      `json:"added_files_detected"`
	FilesReingested      int      `json:"files_reingested"`
	IngestedFiles        []string `json:"ingested_files"`
	RootsReingested      []string `json:"roots_reingested"`
	// Updates says how each reingested root was brought up to date.
	Updates       []RootUpdate `json:"updates,omitempty"`
	AlertsEmitted int          `json:"alerts_emitted"`
	AlertIDs      []string     `json:"alert_ids"`
	TickAtMs      int64        `json:"tick_at_ms"`
	DurationMs    float64      `json:"duration_ms"`
	// Trigger is what started the tick: manual, watch, poll or resume.
	Trigger string `json:"trigger"`
	Error   string `json:"error,omitempty"`
}

// RootUpdate is how one root's graph followed the disk: patched in place
// (only what changed), or rebuilt from cached extractions and why; and
// whether the tree was walked again or the tick's own stat of the files
// was used.
type RootUpdate struct {
	Root          string  `json:"root"`
	Patched       bool    `json:"patched"`
	RebuildReason string  `json:"rebuild_reason,omitempty"`
	WalkSkipped   bool    `json:"walk_skipped"`
	IngestMs      float64 `json:"ingest_ms"`
	// PhaseMs is where the ingest's time went (walk, extract, resolve,
	// finalize, ...).
	PhaseMs map[string]float64 `json:"phase_ms,omitempty"`
}

// Reconciler runs one reconciliation pass; maxFiles bounds the files
// listed in IngestedFiles.
type Reconciler func(ctx context.Context, maxFiles int) (TickResult, []Alert, error)

// Status is daemon_status's answer.
type Status struct {
	Active         bool     `json:"active"`
	WatchPaths     []string `json:"watch_paths"`
	PollIntervalMs int      `json:"poll_interval_ms"`
	// Backend is "notify" (kernel events), "polling" or "" when inactive;
	// BackendNote says why polling was chosen.
	Backend            string  `json:"watcher_backend"`
	BackendNote        string  `json:"watcher_note,omitempty"`
	TickCount          int     `json:"tick_count"`
	EventsSeen         int     `json:"events_seen"`
	LastTickAt         string  `json:"last_tick_at,omitempty"`
	LastTickDurationMs float64 `json:"last_tick_duration_ms"`
	LastTickChanged    int     `json:"last_tick_changed_files"`
	LastTickDeleted    int     `json:"last_tick_deleted_files"`
	LastTickAlerts     int     `json:"last_tick_alerts_emitted"`
	LastTickError      string  `json:"last_tick_error,omitempty"`
	AlertCount         int     `json:"alert_count"`
	UnackedAlerts      int     `json:"unacked_alerts"`
}

// Config configures a Daemon.
type Config struct {
	// StateDir holds daemon.json and alerts.json ("" keeps them in memory).
	StateDir string
	// Debounce is the quiet time after the last event before a tick;
	// MaxDelay bounds the wait while events keep coming. Quick is the
	// quiet time after a lone change (watch.Config.Quick): the write an
	// agent makes and queries right after.
	Debounce, MaxDelay, Quick time.Duration
	// TickTimeout bounds one reconciliation.
	TickTimeout time.Duration
	// Ignore reports paths whose events never start a tick (besides
	// watch.Noise: .git internals, editor and temporary files).
	Ignore func(path string) bool
	Logf   func(string, ...any)
	Now    func() time.Time
	// Go runs the watch (and so every tick it fires) under its owner's
	// lifetime: the session's Go, whose Close calls off a tick in progress
	// and waits for it. Without it the watch is the daemon's alone, and
	// Stop or Close ends it.
	Go watch.GoFunc
}

// Daemon watches roots and runs reconciliation ticks. Safe for concurrent
// use; ticks never overlap.
type Daemon struct {
	cfg       Config
	reconcile Reconciler
	Alerts    *Alerts

	tickMu sync.Mutex // one tick at a time
	// Under tickMu: the last tick failed, and when the last tick that
	// checked the whole tree started.
	needFull bool
	lastFull time.Time

	mu      sync.Mutex
	active  bool
	paths   []string
	poll    time.Duration
	backend string
	note    string
	ticks   int
	events  int
	last    TickResult
	lastAt  time.Time
	w       *watch.Watcher
}

type stateFile struct {
	Active         bool     `json:"active"`
	WatchPaths     []string `json:"watch_paths"`
	PollIntervalMs int      `json:"poll_interval_ms"`
}

// DefaultPoll is the polling interval when none is given.
const DefaultPoll = 500 * time.Millisecond

// New returns an inactive daemon (see Resume to restart a persisted one).
func New(cfg Config, reconcile Reconciler) *Daemon {
	if cfg.Debounce <= 0 {
		cfg.Debounce = 100 * time.Millisecond
	}
	if cfg.MaxDelay <= 0 {
		cfg.MaxDelay = time.Second
	}
	if cfg.Quick <= 0 {
		cfg.Quick = min(20*time.Millisecond, cfg.Debounce)
	}
	if cfg.TickTimeout <= 0 {
		cfg.TickTimeout = 5 * time.Minute
	}
	if cfg.Logf == nil {
		cfg.Logf = func(string, ...any) {}
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	alertsPath := ""
	if cfg.StateDir != "" {
		alertsPath = filepath.Join(cfg.StateDir, "alerts.json")
	}
	return &Daemon{cfg: cfg, reconcile: reconcile, Alerts: openAlerts(alertsPath, cfg.Logf), poll: DefaultPoll}
}

func (d *Daemon) statePath() string {
	if d.cfg.StateDir == "" {
		return ""
	}
	return filepath.Join(d.cfg.StateDir, "daemon.json")
}

// Resume starts watching again when the persisted state says the daemon
// was active. It reports whether it did.
func (d *Daemon) Resume() (bool, error) {
	p := d.statePath()
	if p == "" {
		return false, nil
	}
	data, err := os.ReadFile(p)
	if err != nil {
		return false, nil
	}
	var st stateFile
	if err := json.Unmarshal(data, &st); err != nil {
		aside := fmt.Sprintf("%s.corrupt-%d", p, time.Now().UnixNano())
		_ = os.Rename(p, aside)
		d.cfg.Logf("daemon: state file unreadable (%v); moved aside to %s", err, aside)
		return false, nil
	}
	if !st.Active || len(st.WatchPaths) == 0 {
		return false, nil
	}
	if _, err = d.Start(st.WatchPaths, time.Duration(st.PollIntervalMs)*time.Millisecond); err != nil {
		return false, err
	}
	// Files may have changed while no server watched: reconcile once now,
	// in the background (the server answers meanwhile), as the watch's
	// own tick, which Stop and Close call off.
	d.mu.Lock()
	w := d.w
	d.mu.Unlock()
	if w != nil {
		w.Trigger("resume")
	}
	return true, nil
}

// Start watches paths (directories); poll is the polling interval used
// when kernel watches cannot be had. Starting an active daemon restarts
// it on the new paths.
func (d *Daemon) Start(paths []string, poll time.Duration) (Status, error) {
	if len(paths) == 0 {
		return d.Status(), errors.New("no paths to watch")
	}
	for _, p := range paths {
		if st, err := os.Stat(p); err != nil || !st.IsDir() {
			return d.Status(), fmt.Errorf("watch path %s is not a readable directory", p)
		}
	}
	if poll <= 0 {
		poll = DefaultPoll
	}
	d.halt()
	w := startWatch(paths, watch.Config{
		Debounce: d.cfg.Debounce, MaxDelay: d.cfg.MaxDelay, Quick: d.cfg.Quick, Poll: poll, Ignore: d.cfg.Ignore, Go: d.cfg.Go,
		Event: func(string) {
			d.mu.Lock()
			d.events++
			d.mu.Unlock()
		},
		Fire:        func(ctx context.Context, trigger string) { d.tick(ctx, 0, trigger) },
		FireChanged: func(ctx context.Context, ch watch.Changes) { d.TickChanged(ctx, 0, ch) },
	})
	d.mu.Lock()
	d.active, d.paths, d.poll = true, slices.Clone(paths), poll
	d.w, d.backend, d.note = w, w.Backend, w.Note
	d.save()
	d.mu.Unlock()
	if w.Backend == "polling" {
		d.Alerts.AddNew(d.cfg.Now(), Alert{Kind: KindWatchDegraded, Severity: "warning",
			Message: "the daemon polls instead of receiving kernel events, so changes are seen later and each poll costs a walk: " + w.Note +
				" (on Linux, raise fs.inotify.max_user_watches, then daemon_start again)"})
	}
	return d.Status(), nil
}

// startWatch starts a watcher (a variable so that tests can make one
// degrade to polling).
var startWatch = watch.Start

// Stop stops watching (alerts are kept) and persists the inactive state.
func (d *Daemon) Stop() Status {
	d.halt()
	d.mu.Lock()
	d.active, d.backend, d.note = false, "", ""
	d.save()
	d.mu.Unlock()
	return d.Status()
}

// Close stops the watcher goroutine, calling off a tick in progress,
// without changing the persisted state, so the next server start resumes.
func (d *Daemon) Close() error {
	d.halt()
	return nil
}

// halt stops the watcher if it runs, calls off its tick in progress and
// waits for it.
func (d *Daemon) halt() {
	d.mu.Lock()
	w := d.w
	d.w = nil
	d.mu.Unlock()
	if w != nil {
		w.Stop()
	}
}

// save persists the control state. Caller holds mu.
func (d *Daemon) save() {
	p := d.statePath()
	if p == "" {
		return
	}
	st := stateFile{Active: d.active, WatchPaths: d.paths, PollIntervalMs: int(d.poll / time.Millisecond)}
	if err := snapshot.WriteFileAtomic(p, 0o644, func(w io.Writer) error { return json.NewEncoder(w).Encode(st) }); err != nil {
		d.cfg.Logf("daemon: state not saved: %v", err)
	}
}

// Tick runs one reconciliation now (daemon_tick); maxFiles bounds the
// files listed.
func (d *Daemon) Tick(ctx context.Context, maxFiles int) TickResult {
	return d.tick(ctx, maxFiles, "manual")
}

// TickChanged runs the tick the watch fires after events: ch names the
// paths they touched, and the reconciler may look at those alone
// (ChangesOf) unless the daemon wants the whole tree checked — the events
// may be incomplete, the last tick failed, or FullCheckEvery has passed
// since the last full check (a change no event reports, such as a source
// file with a name Noise ignores, is then seen late but seen).
func (d *Daemon) TickChanged(ctx context.Context, maxFiles int, ch watch.Changes) TickResult {
	d.tickMu.Lock()
	defer d.tickMu.Unlock()
	if ch.Complete && !d.needFull && d.cfg.Now().Sub(d.lastFull) < FullCheckEvery {
		ctx = context.WithValue(ctx, changesKey{}, ch)
	}
	return d.tickLocked(ctx, maxFiles, "watch")
}

// FullCheckEvery is how long watch ticks may check only the paths their
// events named before one checks the whole tree again.
const FullCheckEvery = time.Minute

type changesKey struct{}

// ChangesOf returns the paths a watch tick's events named, when the
// reconciler may check those alone: nothing else changed since the last
// tick (as far as the kernel said), before ch.Closed.
func ChangesOf(ctx context.Context) (watch.Changes, bool) {
	ch, ok := ctx.Value(changesKey{}).(watch.Changes)
	return ch, ok
}

type tickKey struct{}

// InTick reports whether ctx is a daemon tick's: its reconciler's work is
// followed by the tick's quiet save, so what the work holds for it (the
// memory limit's room for a change) may be handed on to that save.
func InTick(ctx context.Context) bool {
	in, _ := ctx.Value(tickKey{}).(bool)
	return in
}

func (d *Daemon) tick(ctx context.Context, maxFiles int, trigger string) TickResult {
	d.tickMu.Lock()
	defer d.tickMu.Unlock()
	return d.tickLocked(ctx, maxFiles, trigger)
}

// tickLocked runs a tick; the caller holds tickMu.
func (d *Daemon) tickLocked(ctx context.Context, maxFiles int, trigger string) TickResult {
	_, scoped := ChangesOf(ctx)
	parent := ctx
	ctx, cancel := context.WithTimeout(parent, d.cfg.TickTimeout)
	defer cancel()
	ctx = context.WithValue(ctx, tickKey{}, true)
	start := time.Now()
	res, alerts, err := d.reconcileSafely(ctx, maxFiles)
	// A tick called off (the server stopping, the daemon stopped, the
	// caller gone) did not fail: what it left undone is no alert, or a
	// restart would greet the user with "ingest failed: context canceled".
	calledOff := parent.Err() != nil
	if calledOff {
		alerts = slices.DeleteFunc(alerts, func(a Alert) bool { return a.Kind == KindIngestFailed })
	}
	if err != nil {
		res.Error = err.Error()
		if !calledOff {
			alerts = append(alerts, Alert{Kind: KindIngestFailed, Severity: "error", Message: "reconciliation failed: " + err.Error()})
		}
	}
	// An alert that says what an unacknowledged one already says is not
	// repeated (a file edited again and again is one alert until acked).
	res.AlertIDs = d.Alerts.AddNew(d.cfg.Now(), alerts...)
	if res.AlertIDs == nil {
		res.AlertIDs = []string{}
	}
	if res.IngestedFiles == nil {
		res.IngestedFiles = []string{}
	}
	if res.RootsReingested == nil {
		res.RootsReingested = []string{}
	}
	res.AlertsEmitted = len(res.AlertIDs)
	// What a failed tick left undone no later event names: the next tick
	// checks the whole tree.
	d.needFull = err != nil || calledOff || slices.ContainsFunc(alerts, func(a Alert) bool { return a.Kind == KindIngestFailed })
	if !scoped {
		d.lastFull = d.cfg.Now()
	}
	res.Trigger = trigger
	res.TickAtMs = d.cfg.Now().UnixMilli()
	res.DurationMs = float64(time.Since(start).Microseconds()) / 1000
	d.mu.Lock()
	d.ticks++
	d.last, d.lastAt = res, d.cfg.Now()
	d.mu.Unlock()
	switch {
	case calledOff:
		d.cfg.Logf("daemon: %s tick called off after %.0f ms", trigger, res.DurationMs)
	case err != nil:
		d.cfg.Logf("daemon: tick failed: %v", err)
	}
	return res
}

// reconcileSafely runs the reconciler; a panic in it is this tick's error
// (the watch goes on, and the server with it).
func (d *Daemon) reconcileSafely(ctx context.Context, maxFiles int) (res TickResult, alerts []Alert, err error) {
	defer func() {
		if p := recover(); p != nil {
			d.cfg.Logf("daemon: reconciliation panicked: %v\n%s", p, debug.Stack())
			res, alerts, err = TickResult{}, nil, fmt.Errorf("panic: %v", p)
		}
	}()
	return d.reconcile(ctx, maxFiles)
}

// Status reports the daemon's state and counters.
func (d *Daemon) Status() Status {
	_, unacked := d.Alerts.List(false, 1)
	all, _ := d.Alerts.List(true, 0)
	d.mu.Lock()
	defer d.mu.Unlock()
	st := Status{
		Active: d.active, WatchPaths: slices.Clone(d.paths), PollIntervalMs: int(d.poll / time.Millisecond),
		Backend: d.backend, BackendNote: d.note, TickCount: d.ticks, EventsSeen: d.events,
		LastTickDurationMs: d.last.DurationMs, LastTickChanged: d.last.ChangedFilesDetected + d.last.AddedFilesDetected,
		LastTickDeleted: d.last.DeletedFilesDetected, LastTickAlerts: d.last.AlertsEmitted, LastTickError: d.last.Error,
		AlertCount: len(all), UnackedAlerts: unacked,
	}
	if st.WatchPaths == nil {
		st.WatchPaths = []string{}
	}
	if !d.lastAt.IsZero() {
		st.LastTickAt = d.lastAt.UTC().Format(time.RFC3339Nano)
	}
	return st
}
