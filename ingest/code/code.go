// Package code is the "code" ingest adapter: it turns a repository into a
// graph. One ingest is one run (type run); its phases are methods called in
// this order, and appear in this file in the same order:
//
//	walk      list the files (skip rules, .gitignore); open and load the cache
//	history   read the git history and detect workspace manifests, beside extract
//	extract   extract every file in parallel with the tree-sitter extractors
//	          of ingest/extract, reusing cached results of unchanged files
//	build     add every file's nodes in path order, then the edges whose both
//	          ends the extractor named (contains, same-file links)
//	resolve   bind ref:: edges through ingest/resolve, redoing only what a
//	          change can affect when the previous run's outcomes are cached
//	enrich    add test links, packages, workspaces and directory aggregates
//	finalize  build the CSR and PageRank; write the cache manifest and keep
//	          what the next incremental run starts from
//
// An incremental run takes two shortcuts. After walk, when no file moved, it
// returns the previous output (lastrun.go). After extract, when a few files
// only changed their contents, it patches the previous graph (patch.go): the
// same phases from build to finalize, applied to the changed files and the
// references they can move. When the patch path declines, the run records a
// RebuildReason and goes on with build.
//
// Graph shape:
//
//	file::{path}               File nodes, from the extractors
//	file::{path}::{Entity}     entities (nested: file::{path}::{Class}::{method})
//	dir::{path}                Directory nodes; dir contains dir / file
//	package::{eco}::{name}     packages, crates, modules (Module nodes)
//	workspace::{eco}::{dir}    workspaces; workspace contains package
//
// Every node carries provenance (source_path, line_start, line_end,
// namespace "code"), last_modified (last commit, else mtime) and
// change_frequency (commits/50 clamped to [0.1, 1]; 0.3 outside git).
package code

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"runtime"
	"sync"
	"time"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/history"
	"github.com/m1nd-go/m1nd/ingest/adapter"
	"github.com/m1nd-go/m1nd/ingest/cache"
	"github.com/m1nd-go/m1nd/ingest/extract"
	"github.com/m1nd-go/m1nd/ingest/gitmeta"
	"github.com/m1nd-go/m1nd/ingest/walk"
	"github.com/m1nd-go/m1nd/ingest/workspace"
)

// Adapter is the "code" adapter.
type Adapter struct{}

// Name implements adapter.Adapter.
func (Adapter) Name() string { return "code" }

// Domain implements adapter.Adapter.
func (Adapter) Domain() string { return "code" }

// Ingest implements adapter.Adapter.
func (Adapter) Ingest(ctx context.Context, req adapter.Request) (*adapter.Output, error) {
	return Ingest(ctx, req)
}

// Ingest runs the code pipeline on req.Root.
func Ingest(ctx context.Context, req adapter.Request) (*adapter.Output, error) {
	return newRun(ctx, req).ingest()
}

// run is one ingest: the request, its budgets and statistics, and what each
// phase leaves for the next. The full path and the patch path share it.
type run struct {
	ctx      context.Context
	req      adapter.Request
	start    time.Time
	lap      time.Time // when the last timed phase ended
	maxNodes int
	deadline time.Time
	st       adapter.Stats
	prog     *progress

	// walk
	wr          *walk.Result
	store       *cache.Store // nil without a cache
	incremental bool         // the cache loaded: reuse what did not change
	// history, filled beside extract (bg)
	bg       sync.WaitGroup
	hist     *gitmeta.History
	histErr  error
	histFrom string // Stats.GitHistory
	// key memoizes runKey (it opens the repository for HEAD).
	key *string
	ws  *workspace.Info
	// extract: one result per walked file, in path order
	results []fileResult
	// build and resolve
	b *builder
	// extracted is the nodes and edges the extractions hold (build):
	// whether release's collection pays.
	extracted int
	included  []included
	rc        *resolveCache
	// lay is what the next patch starts from, made at the start of enrich
	// (with a store only) from the facts resolve kept.
	lay *layout
	// rebuild says why an incremental run did not patch (nil otherwise).
	rebuild *noPatch
}

func newRun(ctx context.Context, req adapter.Request) *run {
	start := time.Now()
	maxNodes, deadline := req.Budget(start)
	return &run{
		ctx: ctx, req: req, start: start, lap: start, maxNodes: maxNodes, deadline: deadline,
		st:   adapter.Stats{Adapter: "code", Languages: map[string]int{}, PhaseMs: map[string]float64{}},
		prog: &progress{fn: req.Progress},
	}
}

// ingest runs the phases in order, with the incremental shortcuts.
func (r *run) ingest() (*adapter.Output, error) {
	if err := r.walk(); err != nil {
		return nil, err
	}
	defer r.unlock()
	if out := r.unchanged(); out != nil {
		return r.done(out, out.Stats.FilesParsed), nil
	}
	if out := r.restored(); out != nil {
		return r.done(out, out.Stats.FilesParsed), nil
	}
	if err := r.ctx.Err(); err != nil {
		return nil, err
	}
	r.history()
	if err := r.extract(); err != nil {
		return nil, err
	}
	if r.incremental {
		if out, err := r.patch(); out != nil || err != nil {
			return out, err
		}
	}
	r.build()
	if err := r.resolve(); err != nil {
		return nil, err
	}
	r.enrich()
	return r.finalize(), nil
}

// walk opens the cache and holds it for the run, then lists the files.
func (r *run) walk() error {
	r.prog.phase(adapter.PhaseWalk, 0, 0)
	r.store = r.req.Cache
	if r.store == nil && r.req.CacheDir != "" {
		r.store = cache.Open(r.req.CacheDir)
	}
	if r.store != nil {
		r.store.Lock()
	}
	wr, hinted, err := r.walkTree()
	if err != nil {
		r.unlock()
		return fmt.Errorf("ingest %s: %w", r.req.Root, err)
	}
	r.wr = wr
	if wr.Truncated != "" {
		r.st.Partial, r.st.BudgetExhausted = true, wr.Truncated
		r.st.Warnings = append(r.st.Warnings, fmt.Sprintf("the walk stopped at its %s budget after %d files: the graph covers part of %s", wr.Truncated, len(wr.Files), r.req.Root))
	}
	r.st.FilesScanned = len(wr.Files)
	r.st.FilesIgnored = wr.SkippedIgnored
	r.st.FilesSkippedLarge = wr.SkippedLarge
	r.prog.phase(adapter.PhaseWalk, len(wr.Files), len(wr.Files))
	r.phaseDone(adapter.PhaseWalk)

	if r.store != nil {
		r.store.Bind(r.wr.Root)
	}
	if r.req.Incremental {
		r.st.Incremental = &adapter.IncrementalStats{WalkHinted: hinted}
		if err := loadCache(r.store); err != nil {
			r.st.Incremental.Full, r.st.Incremental.FullReason = true, err.Error()
		} else {
			r.incremental = true
		}
	}
	return nil
}

// walkTree lists the files: the hinted walk (hint.go) when a caller has
// just stat'ed them, else a walk. The cache is locked already, so no other
// run of the store comes between the last walk and the hinted one.
func (r *run) walkTree() (wr *walk.Result, hinted bool, err error) {
	if r.store != nil && r.req.Incremental {
		if root, err := filepath.Abs(r.req.Root); err == nil {
			if wr := r.hintedWalk(root); wr != nil {
				return wr, true, nil
			}
		}
	}
	wr, err = walk.Walk(r.ctx, r.req.Root, walkOptions(&r.req))
	return wr, false, err
}

// unlock releases the cache walk took.
func (r *run) unlock() {
	if r.store != nil {
		r.store.Unlock()
	}
}

func loadCache(store *cache.Store) error {
	if store == nil {
		return errors.New("incremental ingest needs a cache directory; ran in full")
	}
	if err := store.Load(); err != nil {
		if errors.Is(err, cache.ErrNoManifest) {
			return fmt.Errorf("no usable cache yet (%v); ran in full", err)
		}
		return fmt.Errorf("%v; ran in full", err)
	}
	return nil
}

// history reads the git history and detects the workspace manifests beside
// extraction: neither matters before build. extract waits for both.
func (r *run) history() {
	if r.wr.RepoRoot != "" && !r.req.NoGit {
		r.bg.Go(func() { r.hist, r.histFrom, r.histErr = readHistory(r.ctx, r.store, r.wr, r.req.MaxCommits) })
	}
	r.bg.Go(func() {
		rels := make([]string, len(r.wr.Files))
		for i, f := range r.wr.Files {
			rels[i] = f.Rel
		}
		r.ws = workspace.Detect(r.wr.Root, rels)
	})
}

// gitCacheKey keys the history kept in a cache store between runs.
const gitCacheKey = "code.git"

// cachedHistory is a history with what it was read for: key (repository,
// subdirectory, commit bound, m1nd build) and state (HEAD's reference
// and commit).
type cachedHistory struct {
	key, state string
	h          *gitmeta.History
}

// readHistory reads the git history of the walk root, reusing the one kept
// in the store: as is while HEAD has not moved — in memory ("kept"), else
// the copy the store's directory holds from an earlier process ("cached",
// histcache.go) — and extended by the commits since when HEAD moved along
// its first-parent chain ("extended"); else from the repository ("read").
func readHistory(ctx context.Context, store *cache.Store, wr *walk.Result, maxCommits int) (*gitmeta.History, string, error) {
	sub, err := filepath.Rel(wr.RepoRoot, wr.Root)
	if err != nil || sub == "." {
		sub = ""
	}
	sub = filepath.ToSlash(sub)
	opt := gitmeta.Options{MaxCommits: maxCommits, Subdir: sub}
	if store == nil {
		h, err := gitmeta.Read(ctx, wr.RepoRoot, opt)
		return h, "read", err
	}
	state, err := gitmeta.HeadState(wr.RepoRoot)
	if err != nil {
		h, err := gitmeta.Read(ctx, wr.RepoRoot, opt)
		return h, "read", err
	}
	key := fmt.Sprintf("%s|%s|%d|%s", wr.RepoRoot, sub, maxCommits, cache.Version())
	prev, from := priorHistory(store, key)
	if prev.h != nil && prev.state == state {
		if from == "cached" {
			store.SetExtra(gitCacheKey, prev)
		}
		return prev.h, from, nil
	}
	h, incremental, err := gitmeta.Extend(ctx, wr.RepoRoot, prev.h, opt)
	if err != nil {
		return nil, "", err
	}
	c := cachedHistory{key, state, h}
	store.SetExtra(gitCacheKey, c)
	saveHistory(store, c)
	if incremental {
		return h, "extended", nil
	}
	return h, "read", nil
}

// priorHistory is the history the store keeps for key: this process's
// ("kept"), else the one on disk ("cached"); a zero cachedHistory when
// neither was read for key.
func priorHistory(store *cache.Store, key string) (cachedHistory, string) {
	if c, ok := store.Extra(gitCacheKey).(cachedHistory); ok && c.key == key {
		return c, "kept"
	}
	if c := loadHistory(store, key); c.h != nil {
		return c, "cached"
	}
	return cachedHistory{}, ""
}

// historyLimit says why a history ends before the repository's first
// commit.
func historyLimit(h *gitmeta.History) string {
	if h.Shallow {
		return "a shallow clone; git fetch --unshallow reads the rest"
	}
	return "bounded by MaxCommits; 0 reads all of it"
}

// extract extracts every file in parallel (extract.go), then waits for
// history; a history that cannot be read only costs change frequencies.
func (r *run) extract() error {
	r.prog.phase(adapter.PhaseExtract, 0, len(r.wr.Files))
	x := &extractor{req: &r.req, store: r.store, incremental: r.incremental, deadline: r.deadline, prog: r.prog}
	// A full extraction parses every file: its large files reuse what
	// the previous ones faulted in. An incremental run (a daemon tick)
	// parses few files and keeps 2 MB arenas, as its figures were measured.
	release := func() {}
	if !r.incremental && len(r.wr.Files) >= trimAfter {
		release = extract.WideArenas()
	}
	results, err := x.run(r.ctx, r.wr.Files)
	release()
	if parsedMany(results) {
		extract.ReleaseParserMemory()
	}
	r.bg.Wait()
	if err != nil {
		return err
	}
	r.st.GitHistory = r.histFrom
	if r.histErr != nil {
		if r.ctx.Err() != nil {
			return r.ctx.Err()
		}
		r.warn(fmt.Sprintf("git history unavailable (%v); change frequencies use the non-git default", r.histErr))
	}
	if h := r.hist; h != nil && (h.Shallow || h.Truncated) {
		r.warn(fmt.Sprintf("git history holds %d commits only (%s): co-change and change frequencies learn from those", h.CommitsRead, historyLimit(h)))
	}
	for _, p := range r.ws.Problems {
		r.warn("workspace manifest skipped: " + p)
	}
	r.results = results
	r.phaseDone(adapter.PhaseExtract)
	return nil
}

// trimAfter is how many freshly parsed files make the C heap worth
// trimming after extraction (a trim costs milliseconds; an incremental
// tick's few files leave little behind).
const trimAfter = 256

// parsedMany says whether extraction parsed at least trimAfter files.
func parsedMany(results []fileResult) bool {
	n := 0
	for i := range results {
		if fr := &results[i]; fr.res != nil && !fr.reused {
			if n++; n >= trimAfter {
				return true
			}
		}
	}
	return false
}

// build adds the nodes of every extracted file in path order until a budget
// runs out, then the direct (already resolved) edges (build.go).
func (r *run) build() {
	r.prog.phase(adapter.PhaseBuild, 0, len(r.results))
	r.readBackAll()
	nodes, edges := 0, 0
	for i := range r.results {
		if res := r.results[i].res; res != nil {
			nodes += len(res.Nodes)
			edges += len(res.Edges)
		}
	}
	r.extracted = nodes + edges
	r.b = newBuilder(min(nodes+nodes/8+16, r.maxNodes+1024), edges+edges/4)
	for i := range r.results {
		if fr := &r.results[i]; r.admit(fr) {
			r.addFile(fr)
		}
	}
	r.directEdges()
	r.phaseDone(adapter.PhaseBuild)
}

// readBackAll reads every spilled result back: a build takes them all.
func (r *run) readBackAll() {
	_ = forEachFile(context.Background(), len(r.results), func(i int) { r.results[i].result() })
}

// resolve binds every ref:: edge (refs.go) and keeps the outcomes for the
// next incremental run.
func (r *run) resolve() error {
	r.prog.phase(adapter.PhaseResolve, 0, len(r.included))
	var prev *resolveCache
	if r.incremental {
		prev, _ = r.store.Extra(resolveCacheKey).(*resolveCache)
	}
	rc, err := r.resolveAll(prev)
	if err != nil {
		return err
	}
	if r.store != nil {
		if r.st.Partial {
			// Outcomes of a partial graph depend on where the budget cut;
			// the next incremental ingest resolves everything again.
			rc = nil
		}
		r.store.SetExtra(resolveCacheKey, rc)
	}
	r.rc = rc
	r.phaseDone(adapter.PhaseResolve)
	return nil
}

// enrich adds test links and the package structure (enrich.go), then the
// directories' aggregated times. The extractions are gone by now (resolve
// let each go after its pass): the layout and the Go skeletons interface
// satisfaction reads come from the facts resolve kept (keepFacts).
func (r *run) enrich() {
	r.prog.phase(adapter.PhaseEnrich, 0, 0)
	if r.store != nil {
		r.lay = newLayout(r.included, r.hist, r.b.g, r.rc, r.ws)
	}
	r.derived(r.goSkeletons())
	pkgNode := r.packages()
	r.workspaces(pkgNode)
	r.dependsOn(pkgNode)
	r.b.finishDirs()
	r.phaseDone(adapter.PhaseEnrich)
}

// goSkeletons returns each included file's goSkeleton (kept by resolve).
func (r *run) goSkeletons() []*extract.Result {
	out := make([]*extract.Result, len(r.included))
	for i := range r.included {
		out[i] = r.included[i].goSkel
	}
	return out
}

// finalize builds the CSR (bidirectional expansion, reverse CSR, PageRank),
// then the output and the state the next incremental run starts from.
func (r *run) finalize() *adapter.Output {
	r.prog.phase(adapter.PhaseFinalize, 0, 0)
	g := r.b.g
	for i := range r.included {
		r.included[i].nodes, r.included[i].imports = nil, nil
	}
	g.Finalize()
	r.phaseDone(adapter.PhaseFinalize)

	r.st.LabelCollisions = r.b.collisions
	r.graphStats(g)
	out := r.output(g, func(h *gitmeta.History) []history.Commit { return commitsOf(h, g) })
	r.commit(out, func() *layout {
		r.lay.gen = g.Generation() // Finalize moved it
		return r.lay
	})
	return r.done(out, len(r.included))
}

// release drops the run's references to the extractions resolve's
// parallel pass has not released already (files the build left out), then
// collects. After it, the graph, the resolution cache and the facts each
// included file kept hold all the rest of the run needs.
//
// What that frees depends on the store: a store that spills (a server's)
// keeps a result only until its blob is written, so once the write-behind
// queue has caught up nothing else holds it; a store that keeps results
// in memory keeps them all, by design.
//
// It collects when that frees something: the last collection ran during
// the parallel pass, at up to twice its live heap, so without one bind,
// enrich and the CSR build would lay their arrays over the released
// results instead of in their place (go-std: a 50 ms collection). A small
// tree's extractions (under collectMinElements) are a few megabytes: the
// collection freed nothing worth its wait, which was on the answer's path
// (py-335: ≈ 90 ms of wall beside the seek feed's cut).
func (r *run) release() {
	for i := range r.results {
		r.results[i].release(r.store)
	}
	if (r.store == nil || r.store.Spills()) && r.extracted >= collectMinElements {
		runtime.GC()
	}
}

// collectMinElements is the nodes and edges extracted from which release
// collects: ingest.ReleaseWorth's bound, where a collection starts to
// return hundreds of megabytes. A var for tests.
var collectMinElements = 100_000

// release drops fr's extraction. Without a store (nil) it is gone for
// good; with one, fr becomes spilled again (result reads it back, should
// anything ask). The result is never modified: the store may hand the
// same object to the next incremental run, and a blob still queued behind
// is encoded from it (clearing their edges in place broke both).
func (fr *fileResult) release(store *cache.Store) {
	var back *cache.Store
	if fr.hasResult() {
		back = store
	}
	fr.res, fr.spilled = nil, back
}

// graphStats counts what the graph holds.
func (r *run) graphStats(g *graph.Graph) {
	r.st.NodesCreated = g.NumNodes()
	r.st.EdgesCreated = adapter.CountEdges(g)
	r.st.GraphNodes, r.st.GraphEdges = r.st.NodesCreated, r.st.EdgesCreated
}

// output is the run's output on graph g; groups maps the history's commit
// groups onto g.
func (r *run) output(g *graph.Graph, commits func(*gitmeta.History) []history.Commit) *adapter.Output {
	out := &adapter.Output{Graph: g, Root: adapter.RootInfo{Path: r.wr.Root, GitRoot: r.wr.RepoRoot}}
	if h := r.hist; h != nil {
		r.st.CommitsRead = h.CommitsRead
		out.Root.GitHead, out.Root.GitBranch = h.Head, h.Branch
		out.Root.GitDetached, out.Root.GitShallow, out.Root.GitHeadTime = h.Detached, h.Shallow, h.HeadTime
		out.Commits = commits(h)
		r.st.CommitGroups = len(out.Commits)
	}
	return out
}

// commit writes the cache manifest, sets out's final statistics and keeps
// out (with the layout lay returns) for the next incremental run. A
// manifest that cannot be written leaves nothing to start from.
func (r *run) commit(out *adapter.Output, lay func() *layout) {
	cacheOK := false
	if r.store != nil {
		if err := commitCache(r.store, r.results, &r.st); err != nil {
			r.warn(fmt.Sprintf("ingest cache not updated (%v); the next incremental ingest runs in full", err))
		} else {
			cacheOK = true
		}
	}
	r.st.ElapsedMs = ms(time.Since(r.start))
	out.Stats = r.st
	switch {
	case r.store == nil:
	case cacheOK:
		remember(r.store, &r.req, r.wr, out, lay())
	default:
		r.store.SetExtra(lastRunKey, (*lastRun)(nil))
	}
}

// done reports the end of the run and names what its graph depends on
// besides its files' contents (RootInfo.RunKey), unless it is partial.
func (r *run) done(out *adapter.Output, files int) *adapter.Output {
	if !out.Stats.Partial {
		out.Root.RunKey = r.publicKey()
	}
	r.prog.phase(adapter.PhaseDone, files, files)
	return out
}

// phaseDone records the time since the previous phase ended.
func (r *run) phaseDone(ph adapter.Phase) {
	now := time.Now()
	r.st.PhaseMs[string(ph)] = ms(now.Sub(r.lap))
	r.lap = now
}

func (r *run) warn(w string) { r.st.Warnings = append(r.st.Warnings, w) }

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// commitsOf maps history paths to the file nodes of the graph, dropping
// files that are not in it (deleted, ignored, skipped) and commits left
// with none.
func commitsOf(h *gitmeta.History, g *graph.Graph) []history.Commit {
	var out []history.Commit
	for i, grp := range h.Groups {
		var ids []string
		for _, p := range grp {
			id := extract.FileID(p)
			if _, ok := g.Lookup(id); ok {
				ids = append(ids, id)
			}
		}
		if len(ids) == 0 {
			continue
		}
		c := history.Commit{Files: ids}
		if i < len(h.Commits) {
			m := h.Commits[i]
			c.Hash, c.Time, c.Author, c.Subject = m.Hash, m.Time, m.Author, m.Subject
		}
		out = append(out, c)
	}
	return out
}

// commitCache writes the manifest of this run: every file extracted or
// reused (files not reached because of a budget are left out, so the next
// incremental ingest extracts them).
func commitCache(store *cache.Store, results []fileResult, st *adapter.Stats) error {
	if inc := st.Incremental; inc != nil && !inc.Full {
		if set, del, ok := manifestChanges(store, results); ok {
			for i := range results {
				if fr := &results[i]; !leftOut(fr) {
					countOutcome(inc, fr)
				}
			}
			return store.CommitDelta(set, del)
		}
	}
	entries := make(map[string]cache.Entry, len(results))
	seen := make(map[string]bool, len(results))
	for i := range results {
		fr := &results[i]
		seen[fr.file.Rel] = true
		if leftOut(fr) {
			continue
		}
		entries[fr.file.Rel] = fr.entry
		if inc := st.Incremental; inc != nil && !inc.Full {
			countOutcome(inc, fr)
		}
	}
	if inc := st.Incremental; inc != nil && !inc.Full {
		for _, p := range store.Paths() {
			if !seen[p] {
				inc.Deleted++
			}
		}
	}
	return store.Commit(entries)
}

// leftOut says whether a file has no manifest entry: not read, timed
// out, or a result that could not be stored.
func leftOut(fr *fileResult) bool {
	return fr.timedOut || fr.readErr != nil || (!fr.hasResult() && fr.kind == cache.Text) || fr.entry == (cache.Entry{})
}

// manifestChanges lists how an incremental run's manifest differs from
// the one it started from (the store's, locked for the run): the entries
// of the files not reused as they were, and the files of the old manifest
// now left out. A file reused without a new stat is its old entry by
// construction and is not looked up. ok is false when a file of the old
// manifest is no longer walked: finding which needs every path, as a
// full commit does.
func manifestChanges(store *cache.Store, results []fileResult) (set map[string]cache.Entry, del []string, ok bool) {
	set = map[string]cache.Entry{}
	inOld := 0
	for i := range results {
		fr := &results[i]
		if fr.reused && !fr.rehashed && !leftOut(fr) {
			inOld++
			continue
		}
		_, had := store.Entry(fr.file.Rel)
		if had {
			inOld++
		}
		switch {
		case !leftOut(fr):
			set[fr.file.Rel] = fr.entry
		case had:
			del = append(del, fr.file.Rel)
		}
	}
	return set, del, inOld == store.Len()
}

// countOutcome counts how an incremental run came by a file's result.
func countOutcome(inc *adapter.IncrementalStats, fr *fileResult) {
	switch {
	case fr.rehashed:
		inc.Unchanged++
		inc.Reused++
	case fr.reused:
		inc.Reused++
	case fr.changed:
		inc.Changed++
	case fr.added:
		inc.Added++
	}
	if fr.prepared {
		inc.Prepared++
	}
}
