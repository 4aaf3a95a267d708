// Package autoingest keeps document roots in step with the graph: it
// watches them (rjeczalik/notify; polling when kernel watches cannot be
// had), queues the files that changed, and on each tick — debounced after
// events, or on demand — compares the roots with its manifest (size and
// modification time per document file) and hands the added, modified and
// removed documents to an Applier the tool layer supplies, which ingests
// them into the graph. It counts what every tick did and keeps the last
// errors. Its options are persisted when it starts and stops, so that a
// restarted server resumes a watch that was running (Saved).
package autoingest

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
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/m1nd-go/m1nd/core/snapshot"
	"github.com/m1nd-go/m1nd/ingest/document"
	"github.com/m1nd-go/m1nd/ingest/walk"
	"github.com/m1nd-go/m1nd/mcpserver/watch"
)

// Change kinds.
const (
	Added    = "added"
	Modified = "modified"
	Removed  = "removed"
)

// Change is one document file to apply.
type Change struct {
	Root string `json:"root"`
	// Path is the file's absolute path.
	Path string `json:"path"`
	Kind string `json:"kind"`
}

// Outcome is what the Applier did with each change path.
type Outcome struct {
	Ingested []string
	Removed  []string
	Skipped  []string
	// Errored maps a path to its error.
	Errored map[string]string
}

// Applier ingests changes into the graph (one graph update for all);
// accept is the format filter of the runtime (nil: all).
type Applier func(ctx context.Context, changes []Change, opt Options, accept func(document.Format) bool) (Outcome, error)

// Options are what auto_ingest_start was given.
type Options struct {
	Roots      []string `json:"roots"`
	Formats    []string `json:"formats"`
	DebounceMs int      `json:"debounce_ms"`
	Namespace  string   `json:"namespace"`
}

// TickResult is auto_ingest_tick's answer.
type TickResult struct {
	IngestedPaths []string          `json:"ingested_paths"`
	RemovedPaths  []string          `json:"removed_paths"`
	SkippedPaths  []string          `json:"skipped_paths"`
	ErroredPaths  []string          `json:"errored_paths"`
	Errors        map[string]string `json:"errors,omitempty" jsonschema:"Path → why it failed."`
	// Trigger: manual, watch, poll or bootstrap.
	Trigger    string  `json:"trigger"`
	DurationMs float64 `json:"duration_ms"`
	Error      string  `json:"error,omitempty"`
}

// PathError is a recent failure.
type PathError struct {
	Path  string `json:"path"`
	Error string `json:"error"`
	At    string `json:"at"`
}

// Status is the runtime's state.
type Status struct {
	Running          bool        `json:"running"`
	Roots            []string    `json:"roots"`
	Formats          []string    `json:"formats"`
	Namespace        string      `json:"namespace"`
	DebounceMs       int         `json:"debounce_ms"`
	Backend          string      `json:"watcher_backend" jsonschema:"notify (kernel events), polling, or \"\" when stopped."`
	BackendNote      string      `json:"watcher_note,omitempty"`
	QueueDepth       int         `json:"queue_depth" jsonschema:"Files changed since the last tick."`
	TrackedDocuments int         `json:"tracked_documents" jsonschema:"Document files in the manifest."`
	TickCount        int         `json:"tick_count"`
	EventsSeen       int         `json:"events_seen"`
	LastTickAt       string      `json:"last_tick_at,omitempty"`
	LastTick         *TickResult `json:"last_tick,omitempty"`
	TotalIngested    int         `json:"total_ingested"`
	TotalRemoved     int         `json:"total_removed"`
	TotalErrored     int         `json:"total_errored"`
	LastErrors       []PathError `json:"last_errors"`
}

type entry struct {
	Size    int64 `json:"size"`
	MTimeNS int64 `json:"mtime_ns"`
	Root    string
}

// maxLastErrors bounds the errors kept.
const maxLastErrors = 20

// Runtime is the auto-ingest runtime of one server. Safe for concurrent
// use; ticks never overlap.
type Runtime struct {
	apply    Applier
	stateDir string
	logf     func(string, ...any)

	tickMu sync.Mutex

	mu       sync.Mutex
	running  bool
	opt      Options
	accept   func(document.Format) bool
	manifest map[string]entry
	queue    map[string]bool
	backend  string
	note     string
	ticks    int
	events   int
	last     *TickResult
	lastAt   time.Time
	totals   [3]int
	errs     []PathError
	w        *watch.Watcher
	// goFn runs the watch under its owner's lifetime (Under).
	goFn watch.GoFunc
}

// New returns a stopped runtime; stateDir ("" = none) receives the
// manifest on Stop.
func New(apply Applier, stateDir string, logf func(string, ...any)) *Runtime {
	if logf == nil {
		logf = func(string, ...any) {}
	}
	return &Runtime{apply: apply, stateDir: stateDir, logf: logf, manifest: map[string]entry{}, queue: map[string]bool{}}
}

// Under makes the runtime's watches (and so every tick they fire) run
// under their owner's lifetime — the session's Go, whose Close calls off
// a tick in progress and waits for it — and returns r. Without it a watch
// is the runtime's alone, and Stop or Close ends it.
func (r *Runtime) Under(goFn watch.GoFunc) *Runtime {
	r.mu.Lock()
	r.goFn = goFn
	r.mu.Unlock()
	return r
}

// DefaultDebounce is the quiet time after the last event before a tick.
const DefaultDebounce = 200 * time.Millisecond

// Start watches opt.Roots (directories or single files, absolute and
// checked by the caller), ingests what is there (the bootstrap tick) and
// returns it. accept says which document formats are ingested.
func (r *Runtime) Start(ctx context.Context, opt Options, accept func(document.Format) bool) (TickResult, error) {
	if len(opt.Roots) == 0 {
		return TickResult{}, errors.New("no roots to watch")
	}
	for _, p := range opt.Roots {
		if _, err := os.Stat(p); err != nil {
			return TickResult{}, fmt.Errorf("root %s cannot be read: %v", p, err)
		}
	}
	r.halt()
	r.mu.Lock()
	r.running, r.opt, r.accept = true, opt, accept
	r.manifest, r.queue = map[string]entry{}, map[string]bool{}
	goFn := r.goFn
	r.mu.Unlock()
	// Watch first, then take stock: a change during the bootstrap tick
	// fires another (ticks never overlap).
	w := watch.Start(opt.Roots, watch.Config{
		Debounce: r.debounce(), Poll: r.pollEvery(), Go: goFn,
		Event: func(p string) {
			r.mu.Lock()
			r.events++
			r.queue[p] = true
			r.mu.Unlock()
		},
		Fire: func(ctx context.Context, trigger string) { r.tick(ctx, trigger) },
	})
	r.mu.Lock()
	r.w, r.backend, r.note = w, w.Backend, w.Note
	r.mu.Unlock()
	boot := r.tick(ctx, "bootstrap")
	r.mu.Lock()
	if err := r.saveLocked(); err != nil {
		r.logf("auto-ingest: state not saved (it will not resume after a restart): %v", err)
	}
	r.mu.Unlock()
	return boot, nil
}

// Saved returns the options of the watch the state directory says was
// running when the server stopped (Stop saves it as stopped): what a
// restarted server resumes. A missing or unreadable file is no watch.
func (r *Runtime) Saved() (Options, bool) {
	if r.stateDir == "" {
		return Options{}, false
	}
	data, err := os.ReadFile(filepath.Join(r.stateDir, stateFile))
	if err != nil {
		return Options{}, false
	}
	var mf manifestFile
	if json.Unmarshal(data, &mf) != nil || !mf.Running || len(mf.Roots) == 0 {
		return Options{}, false
	}
	return mf.Options, true
}

func (r *Runtime) debounce() time.Duration {
	if r.opt.DebounceMs > 0 {
		return time.Duration(r.opt.DebounceMs) * time.Millisecond
	}
	return DefaultDebounce
}

// pollEvery is the polling interval without kernel watches.
func (r *Runtime) pollEvery() time.Duration { return max(time.Second, 5*r.debounce()) }

// Stop stops watching and persists the manifest; it returns how many
// entries the manifest holds.
func (r *Runtime) Stop() (bool, int, error) {
	r.halt()
	r.mu.Lock()
	defer r.mu.Unlock()
	was := r.running
	r.running, r.backend, r.note = false, "", ""
	return was, len(r.manifest), r.saveLocked()
}

// Close stops the watcher goroutine, calling off a tick in progress
// (server shutdown; the session closes its shared objects).
func (r *Runtime) Close() error {
	r.halt()
	return nil
}

func (r *Runtime) halt() {
	r.mu.Lock()
	w := r.w
	r.w = nil
	r.mu.Unlock()
	if w != nil {
		w.Stop()
	}
}

// stateFile holds the watch's options, whether it runs, and the manifest,
// in the state directory.
const stateFile = "auto-ingest.json"

// manifestFile is what Start and Stop persist.
type manifestFile struct {
	Options
	Running bool             `json:"running"`
	Entries map[string]entry `json:"entries"`
}

func (r *Runtime) saveLocked() error {
	if r.stateDir == "" {
		return nil
	}
	if err := os.MkdirAll(r.stateDir, 0o755); err != nil {
		return err
	}
	mf := manifestFile{Options: r.opt, Running: r.running, Entries: r.manifest}
	return snapshot.WriteFileAtomic(filepath.Join(r.stateDir, stateFile), 0o644, func(w io.Writer) error {
		return json.NewEncoder(w).Encode(mf)
	})
}

// Tick runs one pass now (auto_ingest_tick): the roots are scanned, so
// the result does not depend on which events arrived.
func (r *Runtime) Tick(ctx context.Context) (TickResult, error) {
	r.mu.Lock()
	running := r.running
	r.mu.Unlock()
	if !running {
		return TickResult{}, errors.New("auto-ingest is not running")
	}
	return r.tick(ctx, "manual"), nil
}

func (r *Runtime) tick(ctx context.Context, trigger string) TickResult {
	r.tickMu.Lock()
	defer r.tickMu.Unlock()
	start := time.Now()
	r.mu.Lock()
	opt, accept := r.opt, r.accept
	old := r.manifest
	r.queue = map[string]bool{}
	r.mu.Unlock()
	res := TickResult{Trigger: trigger, IngestedPaths: []string{}, RemovedPaths: []string{}, SkippedPaths: []string{}, ErroredPaths: []string{}}
	cur, err := scan(ctx, opt.Roots, accept)
	if err != nil {
		res.Error = err.Error()
	}
	changes := diff(old, cur)
	if len(changes) > 0 {
		out, err := r.applySafely(ctx, changes, opt, accept)
		if err != nil {
			res.Error = err.Error()
			for _, c := range changes {
				res.ErroredPaths = append(res.ErroredPaths, c.Path)
			}
			out = Outcome{Errored: map[string]string{}}
			for _, c := range changes {
				out.Errored[c.Path] = err.Error()
			}
		} else {
			res.IngestedPaths, res.RemovedPaths, res.SkippedPaths = nonNil(out.Ingested), nonNil(out.Removed), nonNil(out.Skipped)
			for p := range out.Errored {
				res.ErroredPaths = append(res.ErroredPaths, p)
			}
			sort.Strings(res.ErroredPaths)
		}
		if len(out.Errored) > 0 {
			res.Errors = out.Errored
		}
		r.commit(old, cur, changes, out)
	}
	res.DurationMs = float64(time.Since(start).Microseconds()) / 1000
	r.mu.Lock()
	r.ticks++
	r.last, r.lastAt = &res, time.Now()
	r.totals[0] += len(res.IngestedPaths)
	r.totals[1] += len(res.RemovedPaths)
	r.totals[2] += len(res.ErroredPaths)
	for _, p := range res.ErroredPaths {
		r.errs = append(r.errs, PathError{Path: p, Error: res.Errors[p], At: r.lastAt.UTC().Format(time.RFC3339)})
	}
	if len(r.errs) > maxLastErrors {
		r.errs = r.errs[len(r.errs)-maxLastErrors:]
	}
	r.mu.Unlock()
	return res
}

// applySafely runs the Applier; a panic in it fails this tick's changes
// (they are tried again next tick), not the watch or the server.
func (r *Runtime) applySafely(ctx context.Context, changes []Change, opt Options, accept func(document.Format) bool) (out Outcome, err error) {
	defer func() {
		if p := recover(); p != nil {
			r.logf("auto-ingest: applying %d change(s) panicked: %v\n%s", len(changes), p, debug.Stack())
			out, err = Outcome{}, fmt.Errorf("panic: %v", p)
		}
	}()
	return r.apply(ctx, changes, opt, accept)
}

// commit records in the manifest what was applied; a file that failed
// keeps its old entry (or none), so the next tick tries it again.
func (r *Runtime) commit(old, cur map[string]entry, changes []Change, out Outcome) {
	next := map[string]entry{}
	for p, e := range old {
		next[p] = e
	}
	for _, c := range changes {
		if _, failed := out.Errored[c.Path]; failed {
			continue
		}
		if c.Kind == Removed {
			delete(next, c.Path)
		} else {
			next[c.Path] = cur[c.Path]
		}
	}
	r.mu.Lock()
	r.manifest = next
	r.mu.Unlock()
}

// scan lists the document files of the roots that accept takes.
func scan(ctx context.Context, roots []string, accept func(document.Format) bool) (map[string]entry, error) {
	out := map[string]entry{}
	var errs []string
	for _, root := range roots {
		wr, err := walk.Walk(ctx, root, walk.Options{})
		if err != nil {
			errs = append(errs, err.Error())
			continue
		}
		for _, f := range wr.Files {
			ff := document.Detect(f.Abs)
			if !document.IsDocument(ff) || accept != nil && !accept(ff) {
				continue
			}
			out[f.Abs] = entry{Size: f.Size, MTimeNS: f.ModTimeNS, Root: root}
		}
	}
	if len(errs) > 0 {
		return out, errors.New(strings.Join(errs, "; "))
	}
	return out, nil
}

// diff compares the manifest with a scan, in path order.
func diff(old, cur map[string]entry) []Change {
	var out []Change
	for p, e := range cur {
		o, ok := old[p]
		switch {
		case !ok:
			out = append(out, Change{Root: e.Root, Path: p, Kind: Added})
		case o.Size != e.Size || o.MTimeNS != e.MTimeNS:
			out = append(out, Change{Root: e.Root, Path: p, Kind: Modified})
		}
	}
	for p, o := range old {
		if _, ok := cur[p]; !ok {
			out = append(out, Change{Root: o.Root, Path: p, Kind: Removed})
		}
	}
	slices.SortFunc(out, func(a, b Change) int { return strings.Compare(a.Path, b.Path) })
	return out
}

// Status reports the runtime's state.
func (r *Runtime) Status() Status {
	r.mu.Lock()
	defer r.mu.Unlock()
	st := Status{Running: r.running, Roots: nonNil(slices.Clone(r.opt.Roots)), Formats: nonNil(slices.Clone(r.opt.Formats)), Namespace: r.opt.Namespace,
		DebounceMs: int(r.debounce() / time.Millisecond), Backend: r.backend, BackendNote: r.note, QueueDepth: len(r.queue),
		TrackedDocuments: len(r.manifest), TickCount: r.ticks, EventsSeen: r.events, LastTick: r.last,
		TotalIngested: r.totals[0], TotalRemoved: r.totals[1], TotalErrored: r.totals[2], LastErrors: append([]PathError{}, r.errs...)}
	if !r.lastAt.IsZero() {
		st.LastTickAt = r.lastAt.UTC().Format(time.RFC3339Nano)
	}
	return st
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
