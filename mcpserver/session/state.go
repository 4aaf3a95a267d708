// Package session owns the server's shared state: the graph (an immutable
// bundle published by atomic swap), the engines built from it, agent
// sessions, generation counters, ingest roots and persistence. Transports
// and tool handlers go through it; nothing else holds the graph.
package session

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/history"
	"github.com/m1nd-go/m1nd/core/plasticity"
	"github.com/m1nd-go/m1nd/mcpserver/edit"
)

// Root is one ingested source root.
type Root struct {
	Path      string `json:"path"`
	Adapter   string `json:"adapter"`
	Namespace string `json:"namespace,omitempty"`
	// Name is the namespace a code root asks for once several code roots
	// share the graph (ingest's namespace, federate's repo name; "": its
	// directory's name).
	Name       string    `json:"name,omitempty"`
	Mode       string    `json:"mode"`
	IngestedAt time.Time `json:"ingested_at"`
	Files      int       `json:"files"`
	// GitBranch and GitHead are the repository state the graph was built
	// from ("" outside git).
	GitBranch string `json:"git_branch,omitempty"`
	GitHead   string `json:"git_head,omitempty"`
}

// Bundle is what readers see: one graph and everything derived from it.
// A bundle is never mutated after it is published (edge weights aside,
// which change through atomics).
type Bundle struct {
	Graph *graph.Graph
	// Gen is the session's graph generation (bumped by every ingest/load).
	Gen   uint64
	Roots []Root
	// Commits are the roots' git commits with the file nodes each changed
	// (external IDs), newest first per root: the co-change matrix's input
	// and the history predict, timeline and validate_plan read (see
	// History).
	Commits []history.Commit
	// Files stamp each root's files as they were read, so staleness can be
	// told by a stat (none for adapters without files on disk).
	Files []RootFiles
	// IngestSeq is the journal position of the record of the ingest that
	// built this graph, or of the bundle it was built from
	// (ingestjournal.go); 0 when none was journaled.
	IngestSeq uint64

	derived derived
}

// Agent is one agent's session record.
type Agent struct {
	ID         string    `json:"agent_id"`
	FirstSeen  time.Time `json:"first_seen"`
	LastSeen   time.Time `json:"last_seen"`
	QueryCount uint64    `json:"query_count"`
}

// Event is delivered to hooks after the graph or learned state changes,
// so perspectives, locks and caches can mark themselves stale.
type Event struct {
	Kind    string // "graph_replaced", "graph_merged", "learned", "loaded"
	Gen     uint64
	PlasGen uint64
}

// State is the session state of one server process.
type State struct {
	cfg  Config
	logf func(format string, args ...any)
	ts   toolsets

	// cur is the bundle readers see. A bundle is immutable once published
	// (learned weights aside, which change through atomics), so a reader
	// takes the pointer and keeps it for its whole call, without a lock;
	// builds serialise among themselves (buildMu) and publish the next
	// bundle by swapping the pointer. Nothing a reader does can hold up a
	// build, and nothing a build waits for can hold up a reader: with a
	// read/write lock, one slow reader held the swap, and the swap waiting
	// for the lock held every reader that came after it (Go's RWMutex
	// blocks new readers behind a waiting writer).
	cur atomic.Pointer[Bundle]

	reads   chan struct{} // bounds concurrent readers (max_concurrent_reads)
	buildMu sync.Mutex    // serialises graph builds (ingest, load)

	// Plasticity is the learning engine; it lives as long as the session
	// and is handed the current graph on every call.
	Plasticity *plasticity.Engine
	// Warmup holds temporary priming boosts (never persisted).
	Warmup *plasticity.Warmup

	agentsMu sync.Mutex
	agents   map[string]*Agent

	plasGen  atomic.Uint64
	queries  atomic.Uint64
	started  time.Time
	autoBusy atomic.Bool
	// persistDue is the query at which an auto-persist fell due (0: none
	// pending); autoIdle is the pause it waits for (QueryDone).
	persistDue atomic.Uint64
	autoIdle   time.Duration

	persistMu   sync.Mutex
	lastPersist atomic.Int64 // unix nanoseconds, 0 = never
	// feedbackLoaded: the feedback sidecar is read once per process (a
	// reload from disk must not append the same verdicts again).
	feedbackLoaded atomic.Bool
	persistErr     atomic.Pointer[string]
	lock           *runtimeLock
	// journal makes acknowledged learn calls durable between persists.
	journal *journal
	// saves counts persists across restarts (from the snapshot's meta).
	saves        atomic.Uint64
	persistedGen atomic.Uint64
	// onDisk is the graph snapshot persistedGen names (nil when there is
	// none, or it has no meta): a learned-only save is made on top of it.
	onDisk        atomic.Pointer[diskGraph]
	baselineSaved atomic.Bool
	// commitsMu guards lastCommits, the last history encoded (commits.go).
	commitsMu   sync.Mutex
	lastCommits lastCommits
	// pending is learned state found beside a lost graph, waiting for the
	// next graph built (buildMu).
	pending *pendingLearned
	// recovery holds the journal from the first answered ingest the
	// snapshot lacks (RecoverJournal); ingestFloor is the last ingest
	// record recovered or given up, which a snapshot counts as held.
	recovery    []JournalEntry
	ingestFloor atomic.Uint64
	// behindBusy and behindWant coalesce saves behind answers
	// (PersistBehind).
	behindBusy, behindWant atomic.Bool

	startBaseline *DriftBaseline
	lastSession   *DriftBaseline

	hooksMu sync.Mutex
	hooks   []func(Event)

	sharedMu sync.Mutex
	// shared holds Shared and RootShared objects by a Key's identity, a
	// rootKey, or (deprecated API) a string.
	shared map[any]any

	// lt owns the background work started by Go (lifetime.go).
	lt lifetime

	clientMu    sync.Mutex
	clientRoots map[string][]string // MCP session → its client's roots
	// recoveryRoots are the roots of the journaled ingests RecoverJournal
	// is building again (under clientMu).
	recoveryRoots []string

	now func() time.Time // nil: time.Now

	closed atomic.Bool

	// editsRecovered are the edit batches rolled back at Open (edits.go).
	editsRecovered []edit.Recovered
}

// Open creates the session: it takes the runtime directory's lock, loads the
// graph and plasticity state when they exist, and builds the engines.
// logf receives human-readable status lines (stderr in the server).
func Open(cfg Config, logf func(format string, args ...any)) (*State, error) {
	if err := cfg.Normalize(); err != nil {
		return nil, err
	}
	if logf == nil {
		logf = func(string, ...any) {}
	}
	pp := plasticity.DefaultParams()
	pp.LearningRate = cfg.LearningRate
	pp.DecayRate = cfg.DecayRate
	pe, err := plasticity.New(pp)
	if err != nil {
		return nil, fmt.Errorf("plasticity parameters: %w", err)
	}
	warm, err := plasticity.NewWarmup(plasticity.DefaultWarmupParams())
	if err != nil {
		return nil, err
	}
	s := &State{
		cfg: cfg, logf: logf, Plasticity: pe, Warmup: warm,
		reads:    make(chan struct{}, cfg.MaxConcurrentReads),
		agents:   map[string]*Agent{},
		started:  time.Now(),
		autoIdle: autoPersistIdle,
	}
	s.life()
	empty := graph.New()
	empty.Finalize()
	s.cur.Store(&Bundle{Graph: empty})
	if cfg.RuntimeDir != "" {
		l, err := acquireRuntimeLock(cfg.RuntimeDir)
		if err != nil {
			s.lt.cancel()
			return nil, err
		}
		s.lock = l
		s.sweepTempFiles()
	}
	jpath := ""
	if cfg.Persistent() {
		jpath = s.RuntimePath(JournalFile)
		if jpath == "" { // a graph path without a runtime directory
			jpath = cfg.GraphSource + ".journal"
		}
	}
	s.journal = openJournal(jpath, logf)
	s.recoverEdits()
	if err := s.loadAtStart(); err != nil {
		s.endLifetime()
		s.journal.close()
		s.lock.release()
		return nil, err
	}
	s.initBaselines()
	s.openContinuity()
	return s, nil
}

// Config returns the effective configuration.
func (s *State) Config() Config { return s.cfg }

// Read runs fn with the current bundle: a snapshot fn keeps for its whole
// run, even when a build publishes the next bundle meanwhile (fn then
// answers about the graph as it was when the call began; a read started
// after the publish sees the new one). At most max_concurrent_reads
// readers run at once; the rest wait (or give up when ctx ends). No lock
// is held: a slow reader delays neither a build nor other readers. Inside
// fn, use b (b.Gen, GenerationsOf(b)) rather than Current or Generations,
// which may already name a newer bundle.
func (s *State) Read(ctx context.Context, fn func(b *Bundle) error) error {
	select {
	case s.reads <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	defer func() { <-s.reads }()
	if err := ctx.Err(); err != nil {
		return err
	}
	return fn(s.cur.Load())
}

// Current returns the current bundle (never blocks).
func (s *State) Current() *Bundle { return s.cur.Load() }

// Build runs fn exclusively with respect to other builds (but concurrently
// with readers) and publishes the graph it returns as the new current
// bundle. fn receives the current bundle so merge modes can start from it
// (it must Clone before mutating). Unless kind is "loaded" (the snapshot
// brings its own), learned weights carry over to the new graph by
// (source, target, relation).
func (s *State) Build(kind string, fn func(old *Bundle) (*graph.Graph, []Root, error)) (*Bundle, error) {
	return s.BuildBundle(kind, func(old *Bundle) (*Bundle, error) {
		g, roots, err := fn(old)
		if err != nil {
			return nil, err
		}
		// File stamps stay for the roots still served (a file merged by
		// view has none until the next ingest of its root).
		files := slices.DeleteFunc(slices.Clone(old.Files), func(f RootFiles) bool {
			return !slices.ContainsFunc(roots, func(r Root) bool { return r.Path == f.Root })
		})
		if g != old.Graph {
			// The graph is no longer the one the stamping ingest built: a
			// restart must not keep it for them (ingest's Previous).
			for i := range files {
				files[i].RunKey = ""
			}
		}
		return &Bundle{Graph: g, Roots: roots, Commits: old.Commits, Files: files}, nil
	})
}

// BuildBundle is Build for callers that supply every field of the new
// bundle (Graph, Roots, Commits); Gen is assigned here. Returning old
// itself publishes nothing.
func (s *State) BuildBundle(kind string, fn func(old *Bundle) (*Bundle, error)) (*Bundle, error) {
	s.buildMu.Lock()
	defer s.buildMu.Unlock()
	old := s.Current()
	nb, err := fn(old)
	if err != nil {
		return nil, err
	}
	if nb == old {
		return old, nil // nothing changed: no new generation
	}
	var g *graph.Graph
	if nb != nil {
		g = nb.Graph
	}
	if g == nil || !g.Finalized() {
		return nil, errors.New("internal error: build produced no finalized graph")
	}
	if kind != "loaded" && old.Graph.NumEdges() > 0 && g != old.Graph {
		if states := s.Plasticity.ExportState(old.Graph); len(states) > 0 {
			st, _ := s.Plasticity.ImportState(g, states)
			s.logf("carried learned weights to the new graph: %d of %d edges matched", st.Applied, st.Records)
		}
	}
	var kept *pendingLearned
	if kind != "loaded" {
		kept = s.applyPending(g)
	}
	if kept != nil && len(kept.entries) > 0 {
		s.journal.mu.Lock()
		s.replay(nb, kept.entries)
		s.journal.mu.Unlock()
	}
	nb.Gen = old.Gen + 1
	if nb.IngestSeq == 0 {
		nb.IngestSeq = old.IngestSeq
	}
	if nb.Graph == old.Graph && s.persistedGen.Load() == old.Gen && sameSaved(old, nb) {
		// The same graph, and what a snapshot holds beside it unchanged
		// (a restart's graph given back its git commits, which snapshots
		// do not hold): the saved snapshot is this generation's too.
		s.persistedGen.Store(nb.Gen)
	}
	s.cur.Store(nb)
	s.releaseRoots(nb.Roots)
	s.emit(Event{Kind: kind, Gen: nb.Gen, PlasGen: s.plasGen.Load()})
	return nb, nil
}

// sameSaved reports whether a and b agree on what a snapshot saves beside
// the graph (roots and file stamps).
func sameSaved(a, b *Bundle) bool {
	return reflect.DeepEqual(a.Roots, b.Roots) && reflect.DeepEqual(a.Files, b.Files)
}

// OnEvent registers a hook called after graph or learned-state changes.
func (s *State) OnEvent(f func(Event)) {
	s.hooksMu.Lock()
	s.hooks = append(s.hooks, f)
	s.hooksMu.Unlock()
}

func (s *State) emit(ev Event) {
	s.hooksMu.Lock()
	hooks := slices.Clone(s.hooks)
	s.hooksMu.Unlock()
	for _, h := range hooks {
		h(ev)
	}
}

// Learned records that learned state changed (learn, activation
// plasticity) and returns the new plasticity generation.
func (s *State) Learned() uint64 {
	g := s.plasGen.Add(1)
	s.emit(Event{Kind: "learned", Gen: s.Current().Gen, PlasGen: g})
	return g
}

// Generations returns the graph, plasticity and cache generations; the
// cache generation is max(graph, plasticity)
// (docs/design.md#session-state-and-bundles).
func (s *State) Generations() (graphGen, plasGen, cacheGen uint64) {
	return s.GenerationsOf(s.Current())
}

// GenerationsOf is Generations for a reader's bundle b: the graph
// generation is b's, which a build may have moved past while the reader
// ran (Read).
func (s *State) GenerationsOf(b *Bundle) (graphGen, plasGen, cacheGen uint64) {
	graphGen = b.Gen
	plasGen = s.plasGen.Load()
	return graphGen, plasGen, max(graphGen, plasGen)
}

// Touch records a call by agentID.
func (s *State) Touch(agentID string) {
	now := time.Now()
	s.agentsMu.Lock()
	a, ok := s.agents[agentID]
	if !ok {
		s.pruneAgents(now)
		a = &Agent{ID: agentID, FirstSeen: now}
		s.agents[agentID] = a
	}
	a.LastSeen = now
	a.QueryCount++
	s.agentsMu.Unlock()
}

// Bounds of the agent table: every distinct agent_id is kept, so a caller
// inventing ids must not grow it without end.
const (
	MaxAgents   = 1024
	MaxAgentAge = 24 * time.Hour
)

// pruneAgents drops agents idle for longer than MaxAgentAge and, at
// MaxAgents, the least recently seen one (agentsMu held).
func (s *State) pruneAgents(now time.Time) {
	var oldest *Agent
	for id, a := range s.agents {
		if now.Sub(a.LastSeen) > MaxAgentAge {
			delete(s.agents, id)
			continue
		}
		if oldest == nil || a.LastSeen.Before(oldest.LastSeen) || (a.LastSeen.Equal(oldest.LastSeen) && a.ID < oldest.ID) {
			oldest = a
		}
	}
	if len(s.agents) >= MaxAgents && oldest != nil {
		delete(s.agents, oldest.ID)
	}
}

// Agents lists agent sessions, most recently active first.
func (s *State) Agents() []Agent {
	s.agentsMu.Lock()
	out := make([]Agent, 0, len(s.agents))
	for _, a := range s.agents {
		out = append(out, *a)
	}
	s.agentsMu.Unlock()
	sort.Slice(out, func(i, j int) bool {
		if !out[i].LastSeen.Equal(out[j].LastSeen) {
			return out[i].LastSeen.After(out[j].LastSeen)
		}
		return out[i].ID < out[j].ID
	})
	return out
}

// Auto-persist waits for a pause in the calls: autoPersistIdle with no
// query completed, or autoPersistMaxLag intervals of queries without one.
const (
	autoPersistIdle   = time.Second
	autoPersistMaxLag = 4
)

// QueryDone counts a completed query. Every auto_persist_interval queries
// a save falls due; it runs in the background once no query has completed
// for autoPersistIdle, or once autoPersistMaxLag intervals have passed
// since it fell due in a burst that never pauses. The save is of learned
// state alone while the graph on disk is the one served (PersistLearned),
// the whole snapshot otherwise (on go-std ≈ 16 MB of garbage and ≈ 0.35 s
// of CPU): run in the middle of a burst it fed the collector the calls
// wait on (issue 29: a quarter of what 200 activate calls allocated
// through the server).
func (s *State) QueryDone() {
	n := s.queries.Add(1)
	iv := uint64(s.cfg.AutoPersistInterval)
	if iv == 0 || !s.cfg.Persistent() {
		return
	}
	if n%iv == 0 {
		s.persistDue.CompareAndSwap(0, n)
	}
	due := s.persistDue.Load()
	switch {
	case due == 0:
	case n-due >= autoPersistMaxLag*iv:
		s.autoPersist(due)
	default:
		time.AfterFunc(s.autoIdle, func() {
			if s.queries.Load() == n { // no query since: a pause
				s.autoPersist(due)
			}
		})
	}
}

// autoPersist starts the save that fell due at query due, once.
func (s *State) autoPersist(due uint64) {
	if s.persistDue.CompareAndSwap(due, 0) {
		s.persistSoon("auto", s.PersistLearned)
	}
}

// Queries is the number of tool calls served.
func (s *State) Queries() uint64 { return s.queries.Load() }

// Uptime since Open.
func (s *State) Uptime() time.Duration { return time.Since(s.started) }

// LastPersist returns the time of the last successful persist (zero if
// none) and the last persist error ("" if the last one succeeded).
func (s *State) LastPersist() (time.Time, string) {
	var t time.Time
	if ns := s.lastPersist.Load(); ns != 0 {
		t = time.Unix(0, ns)
	}
	msg := ""
	if p := s.persistErr.Load(); p != nil {
		msg = *p
	}
	return t, msg
}

// Close ends the session: it cancels the session's context (Context),
// waits for the background work started by Go to return, closes the
// shared objects that are io.Closers, persists a final time (the learned
// state alone when the graph on disk is the one served) and releases the
// runtime directory. It is idempotent.
func (s *State) Close() error {
	if !s.closed.CompareAndSwap(false, true) {
		return nil
	}
	s.endLifetime()
	s.closeShared()
	var err error
	if s.cfg.Persistent() {
		// Learned state alone when the graph on disk is the one served:
		// clients send SIGKILL a few seconds after closing stdin, and a
		// large graph's whole save took most of them.
		_, err = s.persistLearnedOr("shutdown", true)
	}
	s.Continuity().Close()
	s.journal.close()
	s.lock.release()
	return err
}

// stderr is where the server writes status by default.
var stderr = os.Stderr

// Logf writes a status line to the session's log (stderr in the server).
func (s *State) Logf(format string, args ...any) { s.logf(format, args...) }

// shared1 is the lookup of the function Shared (and RootShared) by a
// key's identity.
func (s *State) shared1(key any, make func() any) any {
	s.sharedMu.Lock()
	defer s.sharedMu.Unlock()
	if s.shared == nil {
		s.shared = map[any]any{}
	}
	v, ok := s.shared[key]
	if !ok {
		v = make()
		s.shared[key] = v
	}
	return v
}

// closeShared stops the session-lifetime objects that run (a watcher
// daemon): those implementing io.Closer.
func (s *State) closeShared() {
	s.sharedMu.Lock()
	var cs []io.Closer
	for _, v := range s.shared {
		if c, ok := v.(io.Closer); ok {
			cs = append(cs, c)
		}
	}
	s.sharedMu.Unlock()
	for _, c := range cs {
		_ = c.Close()
	}
}

// releaseRoots drops the RootShared objects of roots not in roots.
func (s *State) releaseRoots(roots []Root) {
	serving := map[string]bool{}
	for _, r := range roots {
		serving[r.Path] = true
	}
	var released []io.Closer
	s.sharedMu.Lock()
	for k, v := range s.shared {
		if rk, ok := k.(rootKey); ok && !serving[rk.root] {
			delete(s.shared, k)
			if c, ok := v.(io.Closer); ok {
				released = append(released, c)
			}
		}
	}
	s.sharedMu.Unlock()
	// A released ingest cache finishes its writes before the root can be
	// served again and open its directory anew.
	for _, c := range released {
		_ = c.Close()
	}
}

// PersistSoon persists in the background unless a persist is already
// running (used after ingest so a new graph is durable without making the
// caller wait). It runs under the session's lifetime (Go): one that has
// not begun when Close does leaves the save to Close.
func (s *State) PersistSoon(reason string) { s.persistSoon(reason, s.Persist) }

func (s *State) persistSoon(reason string, save func(string) (PersistResult, error)) {
	if !s.cfg.Persistent() || !s.autoBusy.CompareAndSwap(false, true) {
		return
	}
	s.Go("persist after "+reason, func(ctx context.Context) error {
		defer s.autoBusy.Store(false)
		if ctx.Err() != nil {
			return nil
		}
		if _, err := save(reason); err != nil {
			return fmt.Errorf("failed: %w", err)
		}
		return nil
	})
}

// SetClock fixes the session's notion of now (tests, replays): temporal
// scores, plasticity and warmup use it. Call it before the first query.
func (s *State) SetClock(now func() time.Time) {
	s.now = now
	s.Plasticity.SetClock(now)
	s.Warmup.SetClock(now)
	s.Continuity().SetClock(now)
}

// sweepTempFiles removes temp files a killed process left mid-write in the
// runtime directory. Only the lock holder writes there, so any such file
// is an orphan.
func (s *State) sweepTempFiles() {
	matches, _ := filepath.Glob(filepath.Join(s.cfg.RuntimeDir, ".*.tmp-*"))
	for _, m := range matches {
		if err := os.Remove(m); err == nil {
			s.logf("removed %s, left by an interrupted write", filepath.Base(m))
		}
	}
}
