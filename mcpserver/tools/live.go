package tools

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/m1nd-go/m1nd/core/analysis"
	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/ingest"
	"github.com/m1nd-go/m1nd/ingest/gitmeta"
	"github.com/m1nd-go/m1nd/ingest/walk"
	"github.com/m1nd-go/m1nd/mcpserver/daemon"
	"github.com/m1nd-go/m1nd/mcpserver/session"
)

// Keys of what the kit keeps in the session.
var (
	daemonKey      = session.NewKey[*daemon.Daemon]("daemon")
	walkIgnorerKey = session.NewKey[*walk.Ignorer]("walk-ignorer")
	warmerKey      = session.NewKey[*Warmer]("index-warmer")
)

// DaemonOf returns the session's daemon, made on first use. Its watch,
// and so every tick, runs under the session's lifetime: Close calls off a
// tick in progress and waits for it.
func DaemonOf(d *Dispatcher) *daemon.Daemon {
	s := d.Session
	return session.Shared(s, daemonKey, func() *daemon.Daemon {
		return daemon.New(daemon.Config{
			StateDir: s.RuntimePath(""),
			Logf:     s.Logf,
			Go:       s.Go,
			Ignore: func(p string) bool {
				rt := s.RuntimePath("")
				return (rt != "" && (p == rt || strings.HasPrefix(p, rt+string(filepath.Separator)))) || walkSkips(s, p)
			},
		}, reconciler(d))
	})
}

// walkSkips reports an event path the walk of its root leaves out (a
// skipped directory such as node_modules or target, a .gitignore'd path),
// so that a build writing its output wakes nothing — unless the graph
// holds that file (git tracks files in ignored directories, and the walk
// takes them).
func walkSkips(s *session.State, p string) bool {
	for _, rf := range s.Current().Files {
		rel, err := filepath.Rel(rf.Root, p)
		if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			continue
		}
		ig := session.RootShared(s, rf.Root, walkIgnorerKey, func() *walk.Ignorer { return walk.NewIgnorer(rf.Root, walk.Options{}) })
		if !ig.Ignored(p) {
			return false
		}
		_, inGraph := slices.BinarySearchFunc(rf.Files, filepath.ToSlash(rel), func(f session.FileStamp, r string) int { return strings.Compare(f.Rel, r) })
		return !inGraph
	}
	return false
}

func CallDispatcher(c *Call) *Dispatcher {
	return &Dispatcher{Registry: c.Registry, Session: c.Session}
}

// reconciler compares the served graph with the disk and re-ingests the
// roots that changed, one incremental pass per root.
func reconciler(d *Dispatcher) daemon.Reconciler {
	persist := quietPersist(d.Session, persistQuiet)
	return func(ctx context.Context, maxFiles int) (daemon.TickResult, []daemon.Alert, error) {
		if maxFiles <= 0 {
			maxFiles = 32
		}
		s := d.Session
		b := s.Current()
		checked, st := staleness(ctx, s, b)
		res := daemon.TickResult{ChangedFilesDetected: len(st.Modified), DeletedFilesDetected: len(st.Deleted), AddedFilesDetected: len(st.Added)}
		alerts := hubDeletions(b, st.Deleted)
		alerts = append(alerts, regionAlerts(s, b, append(append([]string{}, st.Modified...), st.Deleted...))...)
		moved := map[string]bool{}
		for _, r := range b.Roots {
			if r.GitHead == "" {
				continue
			}
			if h, err := gitmeta.HeadState(r.Path); err == nil && h != "" && !strings.HasSuffix(h, "@"+r.GitHead) {
				moved[r.Path] = true
				alerts = append(alerts, daemon.Alert{Kind: daemon.KindHeadMoved, Severity: "info", Root: r.Path,
					Message: fmt.Sprintf("HEAD of %s moved from %.10s to %s: the graph and its history are being refreshed", r.Path, r.GitHead, h[strings.LastIndex(h, "@")+1:][:10])})
			}
		}
		changed := append(append(append([]string{}, st.Modified...), st.Added...), st.Deleted...)
		slices.Sort(changed)
		if len(changed) > 0 || len(moved) > 0 || st.NewDirs {
			StopWarmup(s)
		}
		res.FilesReingested = len(changed)
		for _, id := range changed[:min(maxFiles, len(changed))] {
			res.IngestedFiles = append(res.IngestedFiles, id)
		}
		c := &Call{Ctx: ctx, AgentID: "daemon", Session: s, Registry: d.Registry, Progress: func(float64, float64, string) {}}
		for _, r := range b.Roots {
			if r.Adapter != "code" || (!moved[r.Path] && !st.NewDirs && !rootChanged(b, r.Path, changed)) {
				continue
			}
			// The ingest tool's own incremental run, published at once and
			// persisted soon after rather than before the tick ends: a
			// snapshot of a large graph costs seconds of fsync, and the
			// next tick may replace it anyway.
			rc := *c
			rc.Ctx = HintWalk(ctx, b, st, r.Path)
			out, err := ReingestRoot(&rc, r.Path)
			if err != nil {
				alerts = append(alerts, daemon.Alert{Kind: daemon.KindIngestFailed, Severity: "error", Root: r.Path, Message: "incremental ingest failed: " + err.Error()})
				continue
			}
			res.RootsReingested = append(res.RootsReingested, r.Path)
			res.Updates = append(res.Updates, rootUpdate(r.Path, out))
			WarmIndexes(c, b)
		}
		if len(res.RootsReingested) > 0 {
			if !slices.ContainsFunc(alerts, func(a daemon.Alert) bool { return a.Kind == daemon.KindIngestFailed }) {
				// Every file was stat'ed since checked (or, on a watch
				// tick, no event named it since): unchanged then, or
				// stamped anew by the walk of its root's reingest.
				s.MarkFresh(s.Current(), checked)
			}
			persist()
		}
		return res, alerts, nil
	}
}

// staleness compares b with the disk: the files a watch tick's events
// named, when it has them (a stat of each instead of the whole tree's —
// tens of milliseconds on a large one), else every file. It returns when
// the files it did not stat were last known unchanged: the check's start,
// or when the watch closed the tick's set of events.
func staleness(ctx context.Context, s *session.State, b *session.Bundle) (time.Time, session.Staleness) {
	if ch, ok := daemon.ChangesOf(ctx); ok {
		if st, ok := s.StalenessOf(b, ch.Paths); ok {
			return ch.Closed, st
		}
	}
	return time.Now(), s.StalenessNow(b)
}

// hintWalk returns ctx with what the staleness check just saw of root's
// files, so the reingest it is passed to does not walk the tree again (a
// third of a one-file tick on go-std): the stats of the root's files, and
// the files that came and went (unless new directories held more files
// than the check lists).
func HintWalk(ctx context.Context, b *session.Bundle, st session.Staleness, root string) context.Context {
	if st.NewDirs {
		return ctx
	}
	for _, rf := range b.Files {
		if rf.Root != root {
			continue
		}
		removed := relsUnder(st.Deleted, rf.Prefix)
		gone := make(map[string]bool, len(removed))
		for _, rel := range removed {
			gone[rel] = true
		}
		stats := make(map[string]ingest.FileStat, len(rf.Files))
		for _, f := range rf.Files {
			if gone[f.Rel] {
				continue
			}
			if n, ok := st.Restat[rf.Prefix+f.Rel]; ok {
				f = n
			}
			stats[f.Rel] = ingest.FileStat{Size: f.Size, ModTimeNS: f.MTimeNS}
		}
		added := relsUnder(st.Added, rf.Prefix)
		for _, rel := range added {
			fi, err := os.Lstat(filepath.Join(root, filepath.FromSlash(rel)))
			if err != nil {
				return ctx // gone again: let the reingest walk
			}
			stats[rel] = ingest.FileStat{Size: fi.Size(), ModTimeNS: fi.ModTime().UnixNano()}
		}
		if len(added) == 0 && len(removed) == 0 {
			return ingest.WithWalkHint(ctx, root, stats)
		}
		return ingest.WithWalkChanges(ctx, root, stats, added, removed)
	}
	return ctx
}

// rootUpdate reports how an incremental ingest brought a root up to date.
func rootUpdate(root string, out *ingest.Output) daemon.RootUpdate {
	u := daemon.RootUpdate{Root: root}
	if out == nil {
		return u
	}
	u.IngestMs, u.PhaseMs = out.Stats.ElapsedMs, out.Stats.PhaseMs
	if inc := out.Stats.Incremental; inc != nil {
		u.Patched, u.RebuildReason, u.WalkSkipped = inc.Patched, inc.RebuildReason, inc.WalkHinted
		if inc.Full {
			u.RebuildReason = "full ingest: " + inc.FullReason
		}
	}
	return u
}

// relsUnder are the root-relative paths of the names (file node IDs as a
// root's prefix makes them) that belong to the root with that prefix.
func relsUnder(names []string, prefix string) []string {
	var out []string
	for _, n := range names {
		if rel, ok := strings.CutPrefix(n, prefix); ok {
			out = append(out, rel)
		}
	}
	return out
}

// persistQuiet is how long the tree must stay quiet after a tick before
// the graph is saved: an agent editing file after file would otherwise
// pay a snapshot of the whole graph per edit, on the same cores its next
// query runs on. A clean shutdown saves at once.
const persistQuiet = 2 * time.Second

// quietPersist returns a trigger that persists the session once quiet
// has passed since its last call.
//
// The save, once finished, gives back the memory limit's room the ticks
// before it held (RoomHoldOf): their collections run behind it, not in
// the ticks. It is PersistSoon's save, waited for.
func quietPersist(s *session.State, quiet time.Duration) func() {
	var w afterQuiet
	return func() {
		w.Schedule(quiet, func() {
			s.Go("persist after daemon", func(ctx context.Context) error {
				defer RoomHoldOf(s).Release()
				if cfg := s.Config(); ctx.Err() != nil || !cfg.Persistent() {
					return nil
				}
				if _, err := s.Persist("daemon"); err != nil {
					return fmt.Errorf("failed: %w", err)
				}
				return nil
			})
		})
	}
}

// warmQuiet is how long the tree must be quiet after a change before the
// query indexes of the new graph are built ahead of the next query.
const warmQuiet = time.Second

// WarmIndexes builds, once changes have stopped for warmQuiet, the query
// indexes prev had built (seek index, query engine) for the graph then
// served, then runs c's registry's warm-ups (AddWarmup) on it: an agent
// that searched before an edit will search after it, and its first query
// should not pay for them (the seek index alone is most of a second on
// go-std, even built from the last one; the first activate after a patch
// allocated its workspaces again, ≈ 650 B a node). The next change calls
// it off (StopWarmup), and so does the session's Close: the build runs
// under the session's lifetime.
func WarmIndexes(c *Call, prev *session.Bundle) {
	s := c.Session
	seek, eng := session.Built(prev, SeekIndexKey), session.Built(prev, session.EngineKey)
	if !seek && !eng {
		return
	}
	var warm []warmup
	if c.Registry != nil {
		warm = c.Registry.warmups
	}
	w := warmerOf(s)
	w.Quiet.Schedule(warmQuiet, func() {
		s.Go("index warm-up", func(life context.Context) error {
			ctx, done := w.BeginUnder(life)
			defer done()
			if ctx.Err() != nil {
				return nil
			}
			b := s.Current()
			if seek {
				_, _ = seekIndexCtx(ctx, s, b)
			}
			if eng && ctx.Err() == nil {
				_, _ = s.Engine(b)
			}
			return runWarmups(ctx, s, b, warm)
		})
	})
}

// stopWarmup calls off the index warm-up in progress, if any: a change is
// being applied, the indexes it builds are for the graph the change
// replaces, and its CPU is the change's.
func StopWarmup(s *session.State) { warmerOf(s).Stop() }

// warmer is the session's index warm-up: its quiet timer and the way to
// call off the build it runs.
type Warmer struct {
	Quiet  afterQuiet
	mu     sync.Mutex
	cancel context.CancelFunc
	gen    int
}

func warmerOf(s *session.State) *Warmer {
	return session.Shared(s, warmerKey, func() *Warmer { return &Warmer{} })
}

// Begin is BeginUnder for a warm-up owned by nothing but the Warmer.
//
// Deprecated: WarmIndexes begins under the session's lifetime
// (BeginUnder); this stays while the toolset package's test calls it.
func (w *Warmer) Begin() (context.Context, func()) {
	return w.BeginUnder(context.Background())
}

// BeginUnder starts a warm-up under parent (the session's lifetime): its
// context, which Stop also ends, and the function that ends it.
func (w *Warmer) BeginUnder(parent context.Context) (context.Context, func()) {
	ctx, cancel := context.WithCancel(parent)
	w.mu.Lock()
	w.gen++
	gen := w.gen
	w.cancel = cancel
	w.mu.Unlock()
	return ctx, func() {
		cancel()
		w.mu.Lock()
		if w.gen == gen {
			w.cancel = nil
		}
		w.mu.Unlock()
	}
}

func (w *Warmer) Stop() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.cancel != nil {
		w.cancel()
		w.cancel = nil
	}
}

// Close stops the warm-up for good (the session closes what it shares):
// no build starts on a closing session, and one in progress is called off.
func (w *Warmer) Close() error {
	w.Quiet.stop()
	w.Stop()
	return nil
}

// afterQuiet runs the last scheduled function once nothing was scheduled for
// its quiet period (the daemon's quiet save and index warm-up).
type afterQuiet struct {
	mu sync.Mutex
	T  *time.Timer
	fn func()
}

func (w *afterQuiet) Schedule(quiet time.Duration, fn func()) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.fn = fn
	if w.T == nil {
		w.T = time.AfterFunc(quiet, func() {
			w.mu.Lock()
			f := w.fn
			w.mu.Unlock()
			f()
		})
		return
	}
	w.T.Reset(quiet)
}

// stop cancels the pending run, if any (a later schedule starts anew).
func (w *afterQuiet) stop() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.T != nil {
		w.T.Stop()
	}
}

// rootChanged reports whether any changed file belongs to root.
func rootChanged(b *session.Bundle, root string, changed []string) bool {
	for _, f := range b.Files {
		if f.Root != root {
			continue
		}
		for _, id := range changed {
			if strings.HasPrefix(id, f.Prefix) {
				return true
			}
		}
	}
	return false
}

// regionAlerts: files changed on disk (modified or deleted; node IDs of
// b) that lie in a lock's region, one alert per lock, and files an agent
// has read in this session, one alert per agent — its view of them is
// stale. The changes the daemon sees came from outside m1nd (an editor,
// a branch switch, another process): apply_batch reingests its own.
func regionAlerts(s *session.State, b *session.Bundle, changed []string) []daemon.Alert {
	if len(changed) == 0 {
		return nil
	}
	slices.Sort(changed)
	var out []daemon.Alert
	for _, l := range s.Continuity().Locks.Snapshot() {
		var hit []string
		for _, id := range changed {
			if _, ok := l.Base.Files[id]; ok {
				hit = append(hit, id)
			}
		}
		if len(hit) > 0 {
			out = append(out, daemon.Alert{Kind: daemon.KindRegionLocked, Severity: "warning", NodeIDs: hit[:min(len(hit), 20)],
				Message: fmt.Sprintf("%d file(s) in the region of lock %s (agent %s) changed on disk: %s; lock_diff shows what moved, lock_rebase accepts it",
					len(hit), l.ID, l.AgentID, listSome(hit, 5))})
		}
	}
	g := b.Graph
	var paths []string
	pathID := map[string]string{}
	for _, id := range changed {
		if n, ok := g.Lookup(id); ok {
			if p := g.SourcePath(n); p != "" {
				paths = append(paths, p)
				pathID[p] = id
			}
		}
	}
	readers := s.Coverage().Readers(paths)
	for _, agent := range slices.Sorted(maps.Keys(readers)) {
		read := readers[agent]
		ids := make([]string, len(read))
		for i, p := range read {
			ids[i] = pathID[p]
		}
		out = append(out, daemon.Alert{Kind: daemon.KindHotChanged, Severity: "info", NodeIDs: ids[:min(len(ids), 20)],
			Message: fmt.Sprintf("%d file(s) agent %s has read changed on disk since: %s; view them again before editing", len(read), agent, listSome(read, 5))})
	}
	return out
}

// listSome joins the first n items, saying how many more there are.
func listSome(xs []string, n int) string {
	s := strings.Join(xs[:min(n, len(xs))], ", ")
	if len(xs) > n {
		s += fmt.Sprintf(" and %d more", len(xs)-n)
	}
	return s
}

// hubDeletions: a deleted file that many others depend on deserves an
// alert (its dependents are now broken).
func hubDeletions(b *session.Bundle, deleted []string) []daemon.Alert {
	g := b.Graph
	var out []daemon.Alert
	for _, id := range deleted {
		n, ok := g.Lookup(id)
		if !ok || g.Type(n) != graph.File {
			continue
		}
		deps := dependentFiles(g, n)
		if len(deps) < 3 {
			continue
		}
		out = append(out, daemon.Alert{Kind: daemon.KindHubDeleted, Severity: "warning", NodeIDs: append([]string{id}, deps[:min(10, len(deps))]...),
			Message: fmt.Sprintf("%s was deleted; %d files depend on it", strings.TrimPrefix(id, "file::"), len(deps))})
	}
	return out
}

// dependentFiles lists the files that directly depend on file (impact at
// file level, one hop), sorted.
func dependentFiles(g *graph.Graph, file graph.NodeID) []string {
	ip := analysis.DefaultImpactParams()
	ip.Level, ip.MaxHops, ip.IncludeCausalChains, ip.TopK, ip.MaxVia = analysis.LevelFile, 1, false, 0, 0
	res, err := analysis.Impact(g, file, ip)
	if err != nil {
		return nil
	}
	var out []string
	for _, n := range res.BlastRadius {
		if f := FileOf(g, n.Node); f != file && g.Type(f) == graph.File {
			out = append(out, g.ExternalID(f))
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}
