// Package code is the "code" ingest adapter: it walks a repository, reads
// its git history, extracts every file in parallel with the tree-sitter
// extractors of ingest/extract, builds the graph sequentially, resolves
// references, adds directories, packages and test links, and finalizes.
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
	"strings"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/ingest/adapter"
	"github.com/m1nd-go/m1nd/ingest/cache"
	"github.com/m1nd-go/m1nd/ingest/extract"
	"github.com/m1nd-go/m1nd/ingest/gitmeta"
	"github.com/m1nd-go/m1nd/ingest/resolve"
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
	start := time.Now()
	maxNodes, deadline := req.Budget(start)
	st := adapter.Stats{Adapter: "code", Languages: map[string]int{}, PhaseMs: map[string]float64{}}
	prog := &progress{fn: req.Progress}
	lap := start
	phaseDone := func(ph adapter.Phase) {
		now := time.Now()
		st.PhaseMs[string(ph)] = ms(now.Sub(lap))
		lap = now
	}

	// Phase 1: walk.
	prog.phase(adapter.PhaseWalk, 0, 0)
	wr, err := walk.Walk(ctx, req.Root, walk.Options{IncludeDotfiles: req.IncludeDotfiles, DotfilePatterns: req.DotfilePatterns})
	if err != nil {
		return nil, fmt.Errorf("ingest %s: %w", req.Root, err)
	}
	st.FilesScanned = len(wr.Files)
	st.FilesIgnored = wr.SkippedIgnored
	st.FilesSkippedLarge = wr.SkippedLarge
	prog.phase(adapter.PhaseWalk, len(wr.Files), len(wr.Files))
	phaseDone(adapter.PhaseWalk)

	store := req.Cache
	if store == nil && req.CacheDir != "" {
		store = cache.Open(req.CacheDir)
	}
	if store != nil {
		store.Lock()
		defer store.Unlock()
	}
	incremental := false
	if req.Incremental {
		st.Incremental = &adapter.IncrementalStats{}
		switch err := loadCache(store); {
		case err == nil:
			incremental = true
		default:
			st.Incremental.Full, st.Incremental.FullReason = true, err.Error()
		}
	}
	if incremental {
		if out := unchanged(store, &req, wr, start); out != nil {
			prog.phase(adapter.PhaseDone, out.Stats.FilesParsed, out.Stats.FilesParsed)
			return out, nil
		}
	}

	// Git history runs beside extraction: it only matters once nodes are
	// built.
	type histResult struct {
		h   *gitmeta.History
		err error
	}
	histCh := make(chan histResult, 1)
	if wr.RepoRoot != "" && !req.NoGit {
		go func() {
			h, err := readHistory(ctx, store, wr, req.MaxCommits)
			histCh <- histResult{h, err}
		}()
	} else {
		histCh <- histResult{}
	}
	var ws *workspace.Info
	wsDone := make(chan struct{})
	go func() {
		defer close(wsDone)
		rels := make([]string, len(wr.Files))
		for i, f := range wr.Files {
			rels[i] = f.Rel
		}
		ws = workspace.Detect(wr.Root, rels)
	}()

	// Phase 2: extract in parallel.
	prog.phase(adapter.PhaseExtract, 0, len(wr.Files))
	x := &extractor{req: &req, store: store, incremental: incremental, deadline: deadline, prog: prog}
	results, err := x.run(ctx, wr.Files)
	<-wsDone
	hr := <-histCh
	if err != nil {
		return nil, err
	}
	if hr.err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		st.Warnings = append(st.Warnings, fmt.Sprintf("git history unavailable (%v); change frequencies use the non-git default", hr.err))
	}
	for _, p := range ws.Problems {
		st.Warnings = append(st.Warnings, "workspace manifest skipped: "+p)
	}
	phaseDone(adapter.PhaseExtract)

	if incremental {
		pin := &patchInput{store: store, req: &req, wr: wr, results: results, ws: ws, hist: hr.h, st: &st, prog: prog, start: start}
		out, why := patch(ctx, pin)
		if out != nil {
			st.Incremental.Patched = true
			out.Stats.Incremental.Patched = true
			prog.phase(adapter.PhaseDone, out.Stats.FilesParsed, out.Stats.FilesParsed)
			return out, nil
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		st.Incremental.RebuildReason = why
	}

	// Phase 3: build sequentially.
	prog.phase(adapter.PhaseBuild, 0, len(results))
	b, included := build(results, hr.h, maxNodes, deadline, &st)
	phaseDone(adapter.PhaseBuild)

	// Phase 4: resolve references and enrich.
	prog.phase(adapter.PhaseResolve, 0, len(included))
	var prevRes *resolveCache
	if incremental {
		prevRes, _ = store.Extra(resolveCacheKey).(*resolveCache)
	}
	newIndex := func() *resolve.Index { return resolve.New(resultsOf(included), ws) }
	rc, err := resolveAll(ctx, b, newIndex, included, &st, prog, prevRes, wr.Root)
	if err != nil {
		return nil, err
	}
	if store != nil {
		if st.Partial {
			// Outcomes of a partial graph depend on where the budget cut;
			// the next incremental ingest resolves everything again.
			rc = nil
		}
		store.SetExtra(resolveCacheKey, rc)
	}
	phaseDone(adapter.PhaseResolve)
	prog.phase(adapter.PhaseEnrich, 0, 0)
	enrich(b, included, ws, &st)
	b.finishDirs()
	phaseDone(adapter.PhaseEnrich)

	// Phase 5: finalize (CSR, bidirectional expansion, reverse CSR, PageRank).
	prog.phase(adapter.PhaseFinalize, 0, 0)
	b.g.Finalize()
	phaseDone(adapter.PhaseFinalize)

	st.LabelCollisions = b.collisions
	st.NodesCreated = b.g.NumNodes()
	st.EdgesCreated = adapter.CountEdges(b.g)
	st.GraphNodes, st.GraphEdges = st.NodesCreated, st.EdgesCreated

	out := &adapter.Output{Graph: b.g, Root: adapter.RootInfo{Path: wr.Root, GitRoot: wr.RepoRoot}}
	if h := hr.h; h != nil {
		st.CommitsRead = h.CommitsRead
		out.Root.GitHead, out.Root.GitBranch = h.Head, h.Branch
		out.Root.GitDetached, out.Root.GitShallow, out.Root.GitHeadTime = h.Detached, h.Shallow, h.HeadTime
		out.CommitGroups = commitGroups(h, b.g)
		st.CommitGroups = len(out.CommitGroups)
	}

	cacheOK := false
	if store != nil {
		if err := commitCache(store, results, &st); err != nil {
			st.Warnings = append(st.Warnings, fmt.Sprintf("ingest cache not updated (%v); the next incremental ingest runs in full", err))
		} else {
			cacheOK = true
		}
	}
	st.ElapsedMs = ms(time.Since(start))
	out.Stats = st
	if store != nil {
		if cacheOK {
			remember(store, &req, wr, out, newLayout(included, hr.h, b.g, rc))
		} else {
			store.SetExtra(lastRunKey, (*lastRun)(nil))
		}
	}
	prog.phase(adapter.PhaseDone, len(included), len(included))
	return out, nil
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

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

// gitCacheKey keys the history kept in a cache store between runs.
const gitCacheKey = "code.git"

type cachedHistory struct {
	key string
	h   *gitmeta.History
}

// readHistory reads the git history of the walk root, reusing the one kept
// in the store while HEAD (and what was asked) has not changed.
func readHistory(ctx context.Context, store *cache.Store, wr *walk.Result, maxCommits int) (*gitmeta.History, error) {
	sub, err := filepath.Rel(wr.RepoRoot, wr.Root)
	if err != nil || sub == "." {
		sub = ""
	}
	sub = filepath.ToSlash(sub)
	var key string
	if store != nil {
		state, err := gitmeta.HeadState(wr.RepoRoot)
		if err == nil {
			key = fmt.Sprintf("%s|%s|%d|%s", wr.RepoRoot, sub, maxCommits, state)
			if c, ok := store.Extra(gitCacheKey).(cachedHistory); ok && c.key == key {
				return c.h, nil
			}
		}
	}
	h, err := gitmeta.Read(ctx, wr.RepoRoot, gitmeta.Options{MaxCommits: maxCommits, Subdir: sub})
	if err != nil {
		return nil, err
	}
	if key != "" {
		store.SetExtra(gitCacheKey, cachedHistory{key, h})
	}
	return h, nil
}

// included is a file whose nodes made it into the graph.
type included struct {
	fr     *fileResult
	fileID graph.NodeID
	time   float64
	freq   float32
	// imports are the source paths of the nodes this file's import edges
	// were bound to (for package depends_on edges).
	imports []string
	// nodes are the graph handles of the result's nodes (NoNode for a
	// node dropped as a duplicate).
	nodes []graph.NodeID
	// collisions counts the file's nodes dropped as duplicates.
	collisions int
	// refs counts the file's references by outcome.
	refs refCounts
}

// refCounts counts references by how they were resolved.
type refCounts struct{ resolved, ambiguous, unresolved int }

func resultsOf(inc []included) []*extract.Result {
	out := make([]*extract.Result, len(inc))
	for i, f := range inc {
		out[i] = f.fr.res
	}
	return out
}

// build adds the nodes of every extracted file in path order until a
// budget runs out, then the direct (already resolved) edges.
func build(results []fileResult, h *gitmeta.History, maxNodes int, deadline time.Time, st *adapter.Stats) (*builder, []included) {
	nodes, edges := 0, 0
	for i := range results {
		if r := results[i].res; r != nil {
			nodes += len(r.Nodes)
			edges += len(r.Edges)
		}
	}
	b := newBuilder(min(nodes+nodes/8+16, maxNodes+1024), edges+edges/4)
	var inc []included
	for i := range results {
		fr := &results[i]
		switch {
		case fr.timedOut:
			st.Partial, st.BudgetExhausted = true, "timeout"
			continue
		case fr.kind == cache.Binary:
			st.FilesSkippedBinary++
			continue
		case fr.kind == cache.Undecodable:
			st.FilesSkippedEncoding++
			continue
		case fr.res == nil:
			continue
		}
		if st.Partial {
			continue
		}
		if b.g.NumNodes() >= maxNodes {
			st.Partial, st.BudgetExhausted = true, "max_nodes"
			continue
		}
		if time.Now().After(deadline) {
			st.Partial, st.BudgetExhausted = true, "timeout"
			continue
		}
		t, freq := fileTime(&fr.file, h)
		dir := parentDir(fr.file.Rel)
		dirID, hasDir := b.ensureDir(dir)
		b.touchDir(dir, t, freq)
		fileNode := graph.NoNode
		res := fr.res
		handles := make([]graph.NodeID, len(res.Nodes))
		collisions := b.collisions
		for ni := range res.Nodes {
			n := &res.Nodes[ni]
			handles[ni] = graph.NoNode
			id, ok := b.addNode(nodeOf(res, n, t, freq))
			if !ok {
				continue
			}
			handles[ni] = id
			if n.Type == graph.File && n.ID == extract.FileID(res.Path) {
				fileNode = id
			}
		}
		if fileNode == graph.NoNode {
			// The extractor's file node was missing or taken: the file
			// cannot be addressed, so none of its edges can be either.
			continue
		}
		if hasDir {
			b.edge(dirID, fileNode, extract.RelContains, WeightCertain)
		}
		if fr.failed {
			st.FilesFailed++
		}
		lang := res.Language
		if lang == "" {
			lang = "unknown"
		}
		st.Languages[lang]++
		st.FilesParsed++
		inc = append(inc, included{fr: fr, fileID: fileNode, time: t, freq: freq, nodes: handles, collisions: b.collisions - collisions})
	}
	// Direct edges: both ends were extracted (contains, same-file links).
	for _, f := range inc {
		for _, e := range f.fr.res.Edges {
			if strings.HasPrefix(e.Target, extract.RefPrefix) {
				continue
			}
			s, ok1 := b.g.Lookup(e.Source)
			d, ok2 := b.g.Lookup(e.Target)
			if ok1 && ok2 {
				b.edge(s, d, e.Relation, WeightCertain)
			}
		}
	}
	return b, inc
}

// nodeOf is the graph node of an extracted node.
func nodeOf(res *extract.Result, n *extract.Node, t float64, freq float32) graph.Node {
	return graph.Node{
		ExternalID:      n.ID,
		Label:           n.Label,
		Type:            n.Type,
		Tags:            n.Tags,
		LastModified:    t,
		ChangeFrequency: freq,
		Provenance: graph.Provenance{
			SourcePath: res.Path,
			LineStart:  n.Line,
			LineEnd:    n.EndLine,
			Excerpt:    n.Excerpt,
			Namespace:  NamespaceCode,
		},
	}
}

// fileTime is a file's last change (last commit, else mtime) and change
// frequency.
func fileTime(f *walk.File, h *gitmeta.History) (float64, float32) {
	t, freq := f.ModTime(), gitmeta.NotGitFrequency
	if h != nil {
		fs := h.Files[f.Rel]
		freq = gitmeta.ChangeFrequency(fs.Commits)
		if fs.LastCommit > 0 {
			t = fs.LastCommit
		}
	}
	return t, freq
}

// resolved is the outcome of one reference.
type resolved struct {
	src    graph.NodeID
	dst    graph.NodeID // NoNode: look target up by ID
	target string
	rel    string
	status resolve.Status
}

// memoKey identifies references that resolve alike within one file: the
// outcome depends on the file, the name, the relation and the hint (and on
// the source node only when it is itself a candidate, see below).
type memoKey struct {
	name, rel string
	hint      extract.RefHint
}

// resolveAll resolves every ref:: edge, in parallel per file (the index is
// read-only), then adds the edges sequentially in file order so the graph
// does not depend on scheduling. With a cache of the previous run's
// outcomes (incremental ingests), references no change can affect keep
// their outcome and only the others are resolved again.
func resolveAll(ctx context.Context, b *builder, newIndex func() *resolve.Index, inc []included, st *adapter.Stats, prog *progress, prev *resolveCache, root string) (*resolveCache, error) {
	stale, now := prev.diff(root, inc)
	var ix *resolve.Index
	if stale.all || len(stale.changed) > 0 {
		ix = newIndex()
	}
	out := make([][]resolved, len(inc))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(max(1, runtimeProcs()))
	const chunk = 64
	for lo := 0; lo < len(inc); lo += chunk {
		hi := min(lo+chunk, len(inc))
		g.Go(func() error {
			for i := lo; i < hi; i++ {
				if err := gctx.Err(); err != nil {
					return err
				}
				res := inc[i].fr.res
				var old []resolve.Result
				if !stale.all && !stale.changed[res.Path] {
					old = prev.files[res.Path].out
				}
				fr := now[res.Path]
				var list []resolved
				lastSrc, srcID := "", graph.NoNode
				memo := map[memoKey]resolve.Result{}
				for k := range res.Edges {
					e := &res.Edges[k]
					name, ok := strings.CutPrefix(e.Target, extract.RefPrefix)
					if !ok {
						continue
					}
					j := len(fr.out)
					var r resolve.Result
					fresh := false
					if j < len(old) && stale.reuse(e, name) {
						r = old[j]
					} else {
						r, fresh = resolveRef(ix, int32(i), res.Path, e, name, memo), true
					}
					fr.out = append(fr.out, r)
					if e.Source != lastSrc {
						lastSrc = e.Source
						if id, ok := b.g.Lookup(e.Source); ok {
							srcID = id
						} else {
							srcID = graph.NoNode
						}
					}
					if srcID == graph.NoNode {
						continue
					}
					dst := graph.NoNode
					if fresh && r.Status != resolve.Unresolved && r.File >= 0 && int(r.File) < len(inc) {
						if ns := inc[r.File].nodes; int(r.Node) < len(ns) {
							dst = ns[r.Node]
						}
					}
					list = append(list, resolved{src: srcID, dst: dst, target: r.Target, rel: e.Relation, status: r.Status})
				}
				out[i] = list
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	for i, list := range out {
		rc := &inc[i].refs
		for _, r := range list {
			if r.status == resolve.Unresolved {
				rc.unresolved++
				continue
			}
			dst, ok := r.dst, r.dst != graph.NoNode
			if !ok {
				dst, ok = b.g.Lookup(r.target)
			}
			if !ok || dst == r.src {
				rc.unresolved++
				continue
			}
			w := WeightCertain
			if r.status == resolve.Ambiguous {
				w = WeightAmbiguous
				rc.ambiguous++
			}
			rc.resolved++
			b.edge(r.src, dst, r.rel, w)
			if r.rel == extract.RelImports {
				if p := b.g.SourcePath(dst); p != "" {
					if b.g.Type(dst) == graph.Directory {
						p += "/" // a package directory, not a file
					}
					inc[i].imports = append(inc[i].imports, p)
				}
			}
		}
		st.ReferencesResolved += rc.resolved
		st.ReferencesAmbiguous += rc.ambiguous
		st.ReferencesUnresolved += rc.unresolved
		prog.report(adapter.PhaseResolve, i+1, len(out))
	}
	if ix == nil && prev != nil {
		ix, prev.ix = prev.ix, nil // nothing changed: the index still holds
	}
	return &resolveCache{root: root, files: now, ix: ix}, nil
}

// commitGroups maps history paths to the file nodes of the graph, dropping
// files that are not in it (deleted, ignored, skipped) and groups left
// empty.
func commitGroups(h *gitmeta.History, g *graph.Graph) [][]string {
	var out [][]string
	for _, grp := range h.Groups {
		var ids []string
		for _, p := range grp {
			id := extract.FileID(p)
			if _, ok := g.Lookup(id); ok {
				ids = append(ids, id)
			}
		}
		if len(ids) > 0 {
			out = append(out, ids)
		}
	}
	return out
}

// commitCache writes the manifest of this run: every file extracted or
// reused (files not reached because of a budget are left out, so the next
// incremental ingest extracts them).
func commitCache(store *cache.Store, results []fileResult, st *adapter.Stats) error {
	entries := make(map[string]cache.Entry, len(results))
	seen := make(map[string]bool, len(results))
	for i := range results {
		fr := &results[i]
		seen[fr.file.Rel] = true
		if fr.timedOut || fr.readErr != nil || (fr.res == nil && fr.kind == cache.Text) {
			continue
		}
		if fr.entry == (cache.Entry{}) {
			continue // the result could not be stored
		}
		entries[fr.file.Rel] = fr.entry
		if inc := st.Incremental; inc != nil && !inc.Full {
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
