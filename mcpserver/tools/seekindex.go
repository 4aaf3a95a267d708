package tools

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/seek"
	"github.com/m1nd-go/m1nd/ingest"
	"github.com/m1nd-go/m1nd/ingest/adapter"
	"github.com/m1nd-go/m1nd/ingest/walk"
	"github.com/m1nd-go/m1nd/mcpserver/pathguard"
	"github.com/m1nd-go/m1nd/mcpserver/session"
)

// SeekIndexKey holds a bundle's seek index (SeekIndex builds it;
// session.Built says whether it was).
var SeekIndexKey = session.NewKey[*seek.Index]("seek")

var seekLastKey = session.NewKey[*lastSeek]("seek-last")

// SeekIndex returns the bundle's seek index, building it on first use.
// Source bodies are read through the path guard over the ingest roots;
// files whose size and modification time did not change since the last
// index the session built keep their body documents from it (most of a
// build: after an edit, the first seek does not read the tree again). The
// build runs under the session's lifetime, not the caller's context, so a
// cancelled first call does not call off the build other callers wait
// for; the session's Close does.
func SeekIndex(s *session.State, b *session.Bundle) (*seek.Index, error) {
	if !session.Built(b, SeekIndexKey) {
		seekIndexWaits.Add(1)
	}
	return seekIndexCtx(s.Context(), s, b)
}

// seekAwaitMinElements is the graph size (nodes + edges a full ingest
// built) from which the ingest's answer waits for the seek index
// (seekBeforeAnswer). The build from the documents the ingest collected
// costs ≈ 0.5 s of CPU on go-std's 855 K (≈ 0.6 µs each,
// seek-first2.md): under 100 K it is ≈ 60 ms of CPU, about the 50 ms a
// first seek may take on two cores, so a small graph's first seek may wait
// for its build (py-335, 17 K: a few ms), while making its ingest wait
// would add a share of a 300 ms answer. A var for tests.
var seekAwaitMinElements = 100_000

// seekBeforeAnswer reports whether an ingest whose new graph has this
// many nodes and edges builds the graph's seek index before it answers:
// at least seekAwaitMinElements, whether the ingest built it in full,
// patched it, or merged a root into it (the index covers the whole graph:
// the fifth root merged into a 5.5 M-element graph answered first and
// left a 4.6 s index build to the first seek, scaling2.md). A patch
// answers in a fraction of what the index's rebuild costs on the whole
// graph, but the first seek after it waited for that rebuild anyway, and
// beside the engine's rebuild and the snapshot behind the answer (1.9 s
// on go-std, seek-first5.md): waited for alone, the rebuild is shorter.
func seekBeforeAnswer(elements int) bool {
	return elements >= seekAwaitMinElements
}

// startSeekIndex builds b's seek index on a job of the session's, at once
// (b need not be published yet: it is built for b's graph, whoever asks),
// and returns a channel closed when the build is over: built, failed (the
// first seek then reports it) or called off by Close.
func startSeekIndex(s *session.State, b *session.Bundle) <-chan struct{} {
	done := make(chan struct{})
	s.Go("seek index of a new graph, before the ingest answers", func(ctx context.Context) error {
		defer close(done)
		if _, err := seekIndexCtx(ctx, s, b); err != nil {
			return err
		}
		// And what its rerank reads of a git history (a few ms).
		_, err := seekCoChangeCtx(ctx, b)
		return err
	})
	return done
}

// seekIndexWaits counts the lookups of a seek index (SeekIndex) that
// found it not built yet: they built it or waited for its build.
var seekIndexWaits atomic.Int64

// SeekIndexWaits is how many lookups of a seek index (seek, activate's
// seeds, the change tools) found their graph's index not built yet and
// built it or waited for it: what the builds before an ingest's answer
// and behind it are there to keep from the first query.
func SeekIndexWaits() int64 { return seekIndexWaits.Load() }

// BuildIndexesSoon builds b's seek index, then its query engine and the
// registry's warm-ups (AddWarmup), in the background under the
// session's lifetime (Close calls the builds off and waits for them), so
// that the first query after an ingest does not pay for them. The seek
// index starts at once: it is the longest build, and seek and activate
// both need it; the engine and the warm-ups wait for it. built is closed
// when the builds are over (done, failed or called off): the ingest's
// snapshot waits for it (SaveBehindIngest).
func BuildIndexesSoon(c *Call, b *session.Bundle) (built <-chan struct{}) {
	return BuildIndexesAfter(c, b, nil)
}

// BuildLoadedIndexes builds, in the background (BuildIndexesSoon), the
// query indexes of the graph a server serves as it starts, its saved
// graph, when no start-up ingest (which builds its own) answered. A
// server restarted on go-std's saved graph answered its first seek in
// 1.6 s and its first activate 0.5 s after that, those queries building
// the indexes; an agent's first question comes seconds after the start.
// The memory policy starts first (KeepMemoryLimit), as an ingest starts
// it: under the runtime's defaults those builds took a restarted go-std
// server to 436–464 MB.
func BuildLoadedIndexes(d *Dispatcher) {
	if b := d.Session.Current(); b.Graph.NumNodes() > 0 {
		KeepMemoryLimit()
		BuildIndexesSoon(&Call{Session: d.Session, Registry: d.Registry}, b)
	}
}

// BuildIndexesAfter is BuildIndexesSoon once start is closed (nil: at
// once; JournaledBuild.Hold). A build a query needs before then is built
// by that query (session.Derive: whoever asks first builds).
func BuildIndexesAfter(c *Call, b *session.Bundle, start <-chan struct{}) (built <-chan struct{}) {
	s := c.Session
	var warm []warmup
	if c.Registry != nil {
		warm = c.Registry.warmups
	}
	var jobs sync.WaitGroup
	jobs.Add(2)
	done := make(chan struct{})
	go func() { jobs.Wait(); close(done) }()
	s.Go("seek index of a new graph", func(ctx context.Context) error {
		defer jobs.Done()
		if !waitStart(ctx, start) || ctx.Err() != nil || s.Current() != b || b.Graph.NumNodes() == 0 {
			return nil // a newer graph is served: its own warm-up builds
		}
		if _, err := seekIndexCtx(ctx, s, b); err != nil {
			return err
		}
		_, err := seekCoChangeCtx(ctx, b)
		return err
	})
	s.Go("query indexes of a new graph", func(ctx context.Context) error {
		defer jobs.Done()
		if !waitStart(ctx, start) {
			return nil
		}
		// The engine and the warm-ups (the twin index reads the tree
		// too: as much CPU as the seek index) start once the seek index
		// is built, so the first seek after an ingest has both cores
		// rather than a share: a small tree's index waits for the seek
		// feed's cut, which may end after the answer (py-335's first
		// seek p90 57 -> 30 ms). Activate needs both; it waits as long.
		// (Its error is the seek job's to report.)
		if s.Current() == b && b.Graph.NumNodes() > 0 {
			_, _ = seekIndexCtx(ctx, s, b)
		}
		beforeEngine(b)
		if _, err := s.Engine(b); err != nil || ctx.Err() != nil {
			return err
		}
		return runWarmups(ctx, s, b, warm)
	})
	return done
}

// beforeEngine is called as the build behind an ingest starts the
// engine (a test's view of the order).
var beforeEngine = func(*session.Bundle) {}

// runWarmups runs the warm-ups on b, one after the other, until ctx ends
// or a newer graph than b is served (its own warm-up runs them), and logs
// each one's time.
func runWarmups(ctx context.Context, s *session.State, b *session.Bundle, warm []warmup) error {
	for _, w := range warm {
		if ctx.Err() != nil || s.Current() != b {
			return nil
		}
		t := time.Now()
		if err := w.build(ctx, s, b); err != nil && ctx.Err() == nil {
			return fmt.Errorf("%s: %w", w.name, err)
		}
		s.Logf("warm-up %s: %v", w.name, time.Since(t).Round(time.Millisecond))
	}
	return nil
}

// waitStart waits for start (nil: does not wait) and reports whether it
// came before ctx's end.
func waitStart(ctx context.Context, start <-chan struct{}) bool {
	if start == nil {
		return true
	}
	select {
	case <-start:
		return true
	case <-ctx.Done():
		return false
	}
}

// firstCallWait bounds how long the work behind a large ingest's answer
// waits for the client's first call after it (afterFirstCall). A var for
// tests.
var firstCallWait = time.Second

// afterFirstCall returns a channel closed once the session has answered a
// call after the ingest's own, or after firstCallWait, or when the session
// closes. answered is the session's count of answered calls (Queries)
// while the ingest runs: the dispatcher counts the ingest itself once its
// handler returns, so the next call's answer makes it answered+2. Polled
// (the dispatcher has no hook for it): a few loads every 5 ms for at most
// a second.
//
// Why hold anything: on go-std the work behind the answer — the query
// engine's build, the memory release (a full collection and a scavenge)
// and the warm-ups — took both cores and made the first seek's
// allocations assist the collector: 110–180 ms for a call that takes 6–35
// ms alone (seek-first4.md's trace: half of it runnable, not running).
func afterFirstCall(s *session.State, answered uint64) <-chan struct{} {
	done := make(chan struct{})
	s.Go("hold the work behind a large ingest for its first call", func(ctx context.Context) error {
		defer close(done)
		tick := time.NewTicker(5 * time.Millisecond)
		defer tick.Stop()
		limit := time.NewTimer(firstCallWait)
		defer limit.Stop()
		for s.Queries() < answered+2 {
			select {
			case <-tick.C:
			case <-limit.C:
				return nil
			case <-ctx.Done():
				return nil
			}
		}
		return nil
	})
	return done
}

// seekIndexCtx is seekIndex for a build that may be called off (the index
// warm-up, when a change replaces the graph it builds for).
func seekIndexCtx(ctx context.Context, s *session.State, b *session.Bundle) (*seek.Index, error) {
	return session.DeriveCtx(ctx, b, SeekIndexKey, func(ctx context.Context, g *graph.Graph) (*seek.Index, error) {
		o := seek.DefaultOptions()
		var rs *resolver
		if len(b.Roots) > 0 {
			roots := make([]string, 0, len(b.Roots))
			for _, r := range b.Roots {
				roots = append(roots, r.Path)
			}
			rs = &resolver{guard: pathguard.New(roots...)}
			o.ReadFile = guardedReader(rs, int64(o.MaxFileBytes))
			o.FileStamp = walkedStamp(ingestStamps(b), guardedStamp(rs))
		}
		last := lastSeekOf(s)
		prev := last.bodiesFor(g)
		if prev == nil {
			prev = last.load() // a process started on a saved graph
		}
		x, err := seek.BuildFrom(ctx, g, o, prev)
		if rs != nil {
			rs.stamped.Clear() // reused files' answers: the index keeps its reader
		}
		if err == nil {
			last.set(g, x, prev)
		}
		return x, err
	})
}

// lastSeek holds the body documents of the seek index the session built
// last (not the index: that would keep its graph alive): the next build
// takes the unchanged files' documents from them. And those an ingest
// cut while it read the files (SeekFeed), for its graph's first build.
// A persistent session keeps them in its runtime directory too
// (seekbodies.go), for its next start.
type lastSeek struct {
	mu       sync.Mutex
	x        *seek.Bodies
	fresh    *seek.Collector
	freshFor *graph.Graph
	saved    savedBodies
}

func (l *lastSeek) get() *seek.Bodies {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.x
}

// bodiesFor is what a build of g starts from: the documents its ingest
// cut (when it was fed) over the last index's.
// (The collector cuts the files it held there: outside the lock.)
func (l *lastSeek) bodiesFor(g *graph.Graph) *seek.Bodies {
	l.mu.Lock()
	fresh, x := l.fresh, l.x
	if l.freshFor != g {
		fresh = nil
	}
	l.mu.Unlock()
	if fresh != nil {
		return fresh.Bodies(x)
	}
	return x
}

// set keeps the bodies of x, the index built for g from prev, and has
// them saved unless they are those the runtime directory holds.
func (l *lastSeek) set(g *graph.Graph, x *seek.Index, prev *seek.Bodies) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.x = x.Bodies()
	if l.freshFor == g {
		l.fresh, l.freshFor = nil, nil
	}
	l.built(l.x, prev, x.Stats().FilesReused)
}

// SeekFeed cuts the seek index's body documents of the files an ingest
// reads, in its parse workers (ingest.Config.OnSource), so the index of
// the graph it makes reads no file: built before the ingest answers, the
// first seek does not wait for it. A small tree's files are kept whole
// instead (seekKeepBytes) and cut by the index's build, behind the answer.
type SeekFeed struct {
	last   *lastSeek
	c      *seek.Collector
	done   sync.Once // the writers let go after the parse (progressed)
	behind sync.Once // the held files' cut started (progressed)
}

// seekKeepBytes bounds the source bytes a feed keeps uncut until the
// index's build (seek.Collector.KeepUpTo). A tree that fits is cut behind
// the ingest's answer, not beside its parse (py-335: 1.8 MB, 17 K graph
// elements; 51 ms of CPU, 0.14× its parse, ingest-durable2.md). 8 MB of
// Python or Go makes ≈ 70 K elements, under seekAwaitMinElements, whose
// index is built before the answer: a larger tree is cut as it is read.
// A var for tests.
var seekKeepBytes int64 = 8 << 20

// NewSeekFeed starts a feed for one ingest of the session's.
// An incremental ingest's feed starts from the saved documents when the
// session has none yet (a restart): the files it does not read keep
// theirs.
func NewSeekFeed(s *session.State, incremental bool) *SeekFeed {
	last := lastSeekOf(s)
	if incremental && last.get() == nil {
		last.load()
	}
	c := seek.NewCollector(seek.DefaultOptions(), last.get())
	c.KeepUpTo(seekKeepBytes)
	return &SeekFeed{last: last, c: c}
}

// Read is the ingest's OnSource.
func (f *SeekFeed) Read(src ingest.Source) {
	lines := make([]seek.Lines, len(src.Lines))
	for i, l := range src.Lines {
		lines[i] = seek.Lines{First: l[0], Last: l[1]}
	}
	f.c.Add(src.Rel, seekStamp(src.Size, src.MTimeNS), src.Data, lines)
}

// onSource is f.Read, nil for no feed.
func (f *SeekFeed) onSource() func(ingest.Source) {
	if f == nil {
		return nil
	}
	return f.Read
}

// progressed lets the collector's writers go once the ingest's extraction
// is over (their tables, tens of MB on a large tree, would otherwise stay
// through the build and resolve phases, where its memory peaks), and
// starts cutting the files it held once resolution's file pass is over
// (enrich): beside the serial rest of the tail (finalize, the journal's
// fsync). Started at the build, the cut held one core through the whole
// tail, and the build's and the file pass's second workers waited for it
// (py-335: 10-19 ms runnable, ingest-durable9.md).
func (f *SeekFeed) progressed(p ingest.Progress) {
	if f == nil {
		return
	}
	switch p.Phase {
	case adapter.PhaseBuild:
		f.done.Do(f.c.Done)
	case adapter.PhaseEnrich:
		f.behind.Do(func() { cutBehind(f.c) })
	}
}

// cutBehind starts cutting a feed's held files (a test's view of when).
var cutBehind = (*seek.Collector).CutBehind

// Made hands the documents to the first seek index built for g, the
// graph the ingest made of the files it read.
func (f *SeekFeed) Made(g *graph.Graph) {
	f.c.Done()
	f.last.mu.Lock()
	defer f.last.mu.Unlock()
	f.last.fresh, f.last.freshFor = f.c, g
}

// seekStamp is a file's stamp for the seek index: size and modification
// time, as the ingest's walk and guardedStamp both see them.
func seekStamp(size, mtimeNS int64) string {
	return strconv.FormatInt(size, 10) + ":" + strconv.FormatInt(mtimeNS, 10)
}

// ingestStamps are the stamps of b's files as its ingest's walk took them
// (session.Bundle.Files, the code adapter's manifest), by source path;
// nil when the paths cannot be named so (several roots, namespaces).
// Why: a rebuild after a patch took most of its bodies from the last
// index, yet stamped each of go-std's 5.5 K files again through the path
// guard (a resolve and a stat: 0.36 s of its 1.0 s of CPU). The walk's
// stamps also describe the bytes the graph was built from, which is what
// a body document must match.
func ingestStamps(b *session.Bundle) map[string]string {
	if len(b.Roots) != 1 || len(b.Files) != 1 || b.Files[0].Prefix != "file::" || b.Roots[0].Path != b.Files[0].Root {
		return nil
	}
	m := make(map[string]string, len(b.Files[0].Files))
	for _, f := range b.Files[0].Files {
		m[f.Rel] = seekStamp(f.Size, f.MTimeNS)
	}
	return m
}

// walkedStamp stamps a path by the ingest's stamps, else by stat.
func walkedStamp(walked map[string]string, stat func(string) (string, bool)) func(string) (string, bool) {
	if len(walked) == 0 {
		return stat
	}
	return func(p string) (string, bool) {
		if st, ok := walked[p]; ok {
			return st, true
		}
		return stat(p)
	}
}

// resolver resolves each path once per build: a file's stamp and then
// its read used to resolve it twice (about 50 µs each on go-std, a few
// lstat calls: a quarter of the build's wall time on two cores).
type resolver struct {
	guard   *pathguard.Guard
	stamped sync.Map // path → pathguard.Resolved, from its stamp to its read
}

// stamp resolves p and keeps the answer for p's read.
func (rs *resolver) stamp(p string) (pathguard.Resolved, error) {
	r, err := rs.guard.Resolve(p)
	if err == nil {
		rs.stamped.Store(p, r)
	}
	return r, err
}

// read resolves p, by the answer its stamp had when there was one.
func (rs *resolver) read(p string) (pathguard.Resolved, error) {
	if r, ok := rs.stamped.LoadAndDelete(p); ok {
		return r.(pathguard.Resolved), nil
	}
	return rs.guard.Resolve(p)
}

// seekStatStamps counts the files the seek index stamped by a stat
// (tests: a patch's build takes the ingest's stamps instead).
var seekStatStamps atomic.Int64

// seekReads counts the files the seek index read (tests: a restart's
// build takes them from the saved documents).
var seekReads atomic.Int64

// guardedStamp stamps a root-relative source path by the size and
// modification time of the file the guard resolves it to.
func guardedStamp(rs *resolver) func(string) (string, bool) {
	return func(p string) (string, bool) {
		seekStatStamps.Add(1)
		r, err := rs.stamp(p)
		if err != nil || !r.Exists {
			return "", false
		}
		fi, err := os.Stat(r.Real)
		if err != nil || !fi.Mode().IsRegular() {
			return "", false
		}
		return seekStamp(fi.Size(), fi.ModTime().UnixNano()), true
	}
}

// guardedReader reads root-relative source paths through the guard, at
// most limit+1 bytes (enough for the index to see a file is too large).
func guardedReader(rs *resolver, limit int64) func(string) ([]byte, error) {
	return func(p string) ([]byte, error) {
		seekReads.Add(1)
		r, err := rs.read(p)
		if err != nil {
			return nil, err
		}
		if !r.Exists {
			return nil, fs.ErrNotExist
		}
		f, err := pathguard.Open(r)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		return walk.ReadOpened(f, limit+1)
	}
}

// ClipText shortens s to about n bytes on a rune boundary for echoing.
func ClipText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && (s[n]&0xC0) == 0x80 {
		n--
	}
	return s[:n] + "…"
}
