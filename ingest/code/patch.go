package code

import (
	"context"
	"fmt"
	"path"
	"slices"
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

// An incremental ingest in which a few files changed their contents (none
// appeared, vanished or was a manifest) patches the previous graph instead
// of rebuilding it: the changed files' node ranges are replaced, the
// references a change can affect are resolved again, and only the edges of
// files whose outcome moved are replaced (graph.Spliced). The result is the
// graph a full ingest of the same tree builds: same nodes in the same
// order, same edges and weights; PageRank agrees within its convergence
// tolerance. Anything outside that case runs the full pipeline.

// maxPatchFiles bounds the changed files a patch takes on; beyond it a
// rebuild costs about the same.
const maxPatchFiles = 64

// layout is what a complete run leaves for the patch path: where each
// included file's nodes are in its graph and what the file contributed.
type layout struct {
	files  []fileLayout
	byPath map[string]int
	// ownSources holds when every extracted edge starts at a node of its
	// own file: then a file's outgoing edges are exactly its contribution
	// (plus the tests links enrichment adds).
	ownSources bool
	history    *gitmeta.History
	// gen is the graph's generation when the run returned it, and resolved
	// the resolution state the same run left: both must still hold.
	gen      graph.Generation
	resolved *resolveCache
}

type fileLayout struct {
	path       string
	lang       string
	hash       cache.Hash
	lo, hi     graph.NodeID // the file's nodes in the graph
	time       float64
	freq       float32
	failed     bool
	collisions int
	imports    []string
	refs       refCounts
}

// newLayout records a full build.
func newLayout(inc []included, h *gitmeta.History, g *graph.Graph, rc *resolveCache) *layout {
	l := &layout{files: make([]fileLayout, len(inc)), byPath: make(map[string]int, len(inc)), ownSources: true, history: h,
		gen: g.Generation(), resolved: rc}
	for i := range inc {
		f := &inc[i]
		res := f.fr.res
		lo, hi := graph.NoNode, graph.NodeID(0)
		for _, id := range f.nodes {
			if id != graph.NoNode {
				lo, hi = min(lo, id), max(hi, id+1)
			}
		}
		l.files[i] = fileLayout{
			path: res.Path, lang: res.Language, hash: f.fr.entry.Hash, lo: lo, hi: hi,
			time: f.time, freq: f.freq, failed: f.fr.failed, collisions: f.collisions,
			imports: f.imports, refs: f.refs,
		}
		l.byPath[res.Path] = i
		if l.ownSources && !ownEdges(res) {
			l.ownSources = false
		}
	}
	return l
}

// ownEdges reports whether every edge of r starts at one of r's nodes.
func ownEdges(r *extract.Result) bool {
	fid := extract.FileID(r.Path)
	for i := range r.Edges {
		s := r.Edges[i].Source
		if s != fid && !(strings.HasPrefix(s, fid) && strings.HasPrefix(s[len(fid):], "::")) {
			return false
		}
	}
	return true
}

// patchInput is what the patch path needs from Ingest.
type patchInput struct {
	store   *cache.Store
	req     *adapter.Request
	wr      *walk.Result
	results []fileResult
	ws      *workspace.Info
	hist    *gitmeta.History
	st      *adapter.Stats
	prog    *progress
	start   time.Time
}

// changedFile is a file whose new extraction replaces its nodes.
type changedFile struct {
	li    int // index in the layout
	res   *extract.Result
	fr    *fileResult
	nodes []graph.Node // new nodes, duplicates dropped
	// collisions counts nodes dropped as duplicates.
	collisions int
	time       float64
	freq       float32
}

// patch tries the patch path. It returns nil and the reason when the
// change is not one it takes on (the caller then rebuilds).
func patch(ctx context.Context, in *patchInput) (*adapter.Output, string) {
	store := in.store
	last, _ := store.Extra(lastRunKey).(*lastRun)
	if last == nil || last.layout == nil {
		return nil, "no previous complete run"
	}
	g0 := last.graph.Value()
	if g0 == nil {
		return nil, "previous graph released"
	}
	lay := last.layout
	if !g0.Finalized() || g0.Generation() != lay.gen {
		return nil, "previous graph changed since"
	}
	if !lay.ownSources {
		return nil, "an extractor attached edges to another file's nodes"
	}
	if last.optsKey != optsKey(in.req, in.wr) {
		return nil, "options or root changed"
	}
	prev, _ := store.Extra(resolveCacheKey).(*resolveCache)
	if prev == nil || prev != lay.resolved || prev.ix == nil || prev.root != in.wr.Root {
		return nil, "no resolver index kept"
	}

	// The same files, in the same order; a few with new contents.
	var changed []*changedFile
	var included []*fileResult
	for i := range in.results {
		fr := &in.results[i]
		switch {
		case fr.timedOut || fr.readErr != nil:
			return nil, "a file could not be read"
		case fr.res == nil:
			if _, was := lay.byPath[fr.file.Rel]; was {
				return nil, "a file stopped being source"
			}
			continue
		}
		li := len(included)
		if li >= len(lay.files) || lay.files[li].path != fr.res.Path {
			return nil, "files appeared or vanished"
		}
		included = append(included, fr)
		if fr.entry.Hash == (cache.Hash{}) {
			return nil, "a file has no content hash"
		}
		if fr.entry.Hash == lay.files[li].hash {
			continue
		}
		if manifests[path.Base(fr.res.Path)] {
			return nil, "a manifest changed"
		}
		if !ownEdges(fr.res) {
			return nil, "an extractor attached edges to another file's nodes"
		}
		changed = append(changed, &changedFile{li: li, res: fr.res, fr: fr})
	}
	if len(included) != len(lay.files) {
		return nil, "files appeared or vanished"
	}
	if len(changed) > maxPatchFiles {
		return nil, fmt.Sprintf("%d files changed (a patch takes up to %d)", len(changed), maxPatchFiles)
	}

	// New nodes of changed files, as build would add them.
	newNode := map[string]*graph.Node{}
	for _, c := range changed {
		fl := &lay.files[c.li]
		c.time, c.freq = fileTime(&c.fr.file, in.hist)
		fid := extract.FileID(c.res.Path)
		seen := make(map[string]bool, len(c.res.Nodes))
		hasFile := false
		for ni := range c.res.Nodes {
			n := &c.res.Nodes[ni]
			if n.ID == "" {
				continue // build skips it
			}
			if seen[n.ID] {
				c.collisions++ // build counts and skips it
				continue
			}
			if o, ok := g0.Lookup(n.ID); ok && (o < fl.lo || o >= fl.hi) {
				return nil, "a new node's ID is taken by another file"
			}
			seen[n.ID] = true
			c.nodes = append(c.nodes, nodeOf(c.res, n, c.time, c.freq))
			if n.Type == graph.File && n.ID == fid {
				hasFile = true
			}
		}
		if !hasFile {
			return nil, "a changed file lost its file node"
		}
		for i := range c.nodes {
			newNode[c.nodes[i].ExternalID] = &c.nodes[i]
		}
	}

	grown := 0
	for _, c := range changed {
		grown += len(c.nodes) - int(lay.files[c.li].hi-lay.files[c.li].lo)
	}
	if maxNodes, _ := in.req.Budget(in.start); g0.NumNodes()+grown > maxNodes {
		return nil, "the node budget would run out"
	}

	// What the change can affect, then the resolver index updated in place.
	now := make(map[string]*fileResolution, len(lay.files))
	for _, fl := range lay.files {
		old := prev.files[fl.path]
		if old == nil {
			return nil, "resolution cache incomplete"
		}
		now[fl.path] = &fileResolution{hash: old.hash, labels: old.labels, parents: old.parents, star: old.star}
	}
	stale := &staleness{labels: map[string]bool{}, changed: map[string]bool{}}
	for _, c := range changed {
		l, p := fileLabels(c.res)
		cur := &fileResolution{hash: c.fr.entry.Hash, labels: l, parents: p, star: hasStar(c.res)}
		stale.mark(now[c.res.Path], cur, c.res.Path)
		now[c.res.Path] = cur
	}
	ix := prev.ix
	prev.ix = nil // this run owns it now; a run that fails leaves none behind
	for _, c := range changed {
		if !ix.ReplaceFile(c.res) {
			return nil, "resolver index out of step"
		}
	}

	lap := time.Now()
	// Resolve again what may have moved; a file whose outcomes moved is
	// touched: its outgoing edges are replaced.
	touched := make([]bool, len(lay.files))
	outs := make([][]resolve.Result, len(lay.files))
	isChanged := make([]bool, len(lay.files))
	for _, c := range changed {
		isChanged[c.li] = true
	}
	nothingElse := len(stale.labels) == 0 && !stale.types
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(max(1, runtimeProcs()))
	const chunk = 64
	for lo := 0; lo < len(included); lo += chunk {
		hi := min(lo+chunk, len(included))
		g.Go(func() error {
			for i := lo; i < hi; i++ {
				if err := gctx.Err(); err != nil {
					return err
				}
				res := included[i].res
				old := prev.files[res.Path].out
				if !isChanged[i] && nothingElse {
					outs[i] = old
					continue
				}
				var out []resolve.Result
				memo := map[memoKey]resolve.Result{}
				moved := isChanged[i]
				for k := range res.Edges {
					e := &res.Edges[k]
					name, ok := strings.CutPrefix(e.Target, extract.RefPrefix)
					if !ok {
						continue
					}
					j := len(out)
					if !isChanged[i] && j < len(old) && stale.reuse(e, name) {
						out = append(out, old[j])
						continue
					}
					r := resolveRef(ix, int32(i), res.Path, e, name, memo)
					if !moved && (j >= len(old) || old[j].Status != r.Status || old[j].Target != r.Target) {
						moved = true
					}
					out = append(out, r)
				}
				outs[i] = out
				touched[i] = moved
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, "cancelled: " + err.Error()
	}
	for i := range lay.files {
		now[lay.files[i].path].out = outs[i]
	}

	// Which old nodes lose their outgoing edges, and what replaces them.
	n0 := g0.NumNodes()
	dropFrom := make([]bool, n0)
	changedRange := make([]bool, n0)
	for i, t := range touched {
		if t {
			fl := &lay.files[i]
			for o := fl.lo; o < fl.hi; o++ {
				dropFrom[o] = true
				if isChanged[i] {
					changedRange[o] = true
				}
			}
		}
	}
	oldRemoved := func(o graph.NodeID) bool { return changedRange[o] && newNode[g0.ExternalID(o)] == nil }
	// exists, sourcePath and isDir answer for the new graph.
	exists := func(id string) bool {
		if newNode[id] != nil {
			return true
		}
		o, ok := g0.Lookup(id)
		return ok && !oldRemoved(o)
	}
	importPath := func(id string) string {
		if n := newNode[id]; n != nil {
			p := n.Provenance.SourcePath
			if n.Type == graph.Directory {
				p += "/"
			}
			return p
		}
		o, _ := g0.Lookup(id)
		p := g0.SourcePath(o)
		if p != "" && g0.Type(o) == graph.Directory {
			p += "/"
		}
		return p
	}

	var adds []graph.SpliceEdge
	edge := func(src, dst, rel string, w float32) {
		if src == dst {
			return
		}
		cs, dir := CausalStrength(rel)
		adds = append(adds, graph.SpliceEdge{Source: src, Target: dst, Edge: graph.Edge{Relation: rel, Weight: w, Direction: dir, CausalStrength: cs}})
	}
	newFiles := slices.Clone(lay.files)
	for i, t := range touched {
		if !t {
			continue
		}
		fl := &newFiles[i]
		res := included[i].res
		var own func(string) bool
		if isChanged[i] {
			own = func(id string) bool { return newNode[id] != nil }
		} else {
			lo, hi := fl.lo, fl.hi
			own = func(id string) bool { o, ok := g0.Lookup(id); return ok && o >= lo && o < hi }
		}
		for k := range res.Edges {
			e := &res.Edges[k]
			if strings.HasPrefix(e.Target, extract.RefPrefix) {
				continue
			}
			if own(e.Source) && exists(e.Target) {
				edge(e.Source, e.Target, e.Relation, WeightCertain)
			}
		}
		var rc refCounts
		var imports []string
		j := 0
		for k := range res.Edges {
			e := &res.Edges[k]
			if !strings.HasPrefix(e.Target, extract.RefPrefix) {
				continue
			}
			r := outs[i][j]
			j++
			if !own(e.Source) {
				continue
			}
			if r.Status == resolve.Unresolved || !exists(r.Target) || r.Target == e.Source {
				rc.unresolved++
				continue
			}
			w := WeightCertain
			if r.Status == resolve.Ambiguous {
				w = WeightAmbiguous
				rc.ambiguous++
			}
			rc.resolved++
			edge(e.Source, r.Target, e.Relation, w)
			if e.Relation == extract.RelImports {
				if p := importPath(r.Target); p != "" {
					imports = append(imports, p)
				}
			}
		}
		fl.refs, fl.imports = rc, imports
	}

	// Times: a changed file's nodes carry theirs; any other file whose last
	// change moved (mtime touched, a new commit) is updated after the
	// splice, and so are the directories and packages aggregating them.
	timesMoved := false
	for i, fr := range included {
		t, f := fileTime(&fr.file, in.hist)
		fl := &newFiles[i]
		if t != fl.time || f != fl.freq {
			fl.time, fl.freq = t, f
			timesMoved = true
		}
		fl.failed = fr.failed
	}
	for _, c := range changed {
		fl := &newFiles[c.li]
		fl.hash = c.fr.entry.Hash
		fl.collisions = c.collisions
	}

	ids := map[string]bool{}
	for _, p := range in.ws.Packages {
		if ids[p.ID] {
			return nil, "two packages share an ID"
		}
		ids[p.ID] = true
	}
	// Package dependencies follow the files' imports: recomputed whole.
	files := make([]importsOf, len(newFiles))
	for i := range newFiles {
		files[i] = importsOf{newFiles[i].path, newFiles[i].lang, newFiles[i].imports}
	}
	hasNode := func(p *workspace.Package) bool { _, ok := g0.Lookup(p.ID); return ok }
	for _, d := range packageDeps(in.ws, hasNode, files) {
		edge(d[0].ID, d[1].ID, RelDependsOn, WeightCertain)
	}

	strs := g0.Strings()
	testsRel, _ := strs.Lookup(RelTests)
	dependsRel, hasDepends := strs.Lookup(RelDependsOn)
	sp := graph.Splice{
		DropEdge: func(src, dst graph.NodeID, rel graph.Str) bool {
			if hasDepends && rel == dependsRel {
				return true
			}
			return dropFrom[src] && (rel != testsRel || testsRel == 0)
		},
		AddEdges: adds,
		// Learned state is carried onto the new graph by whoever carries it
		// after a rebuild (Run, the server's session), under the lock the
		// learning runs under; a fresh splice does not read it meanwhile.
		FreshWeights: true,
	}
	for _, c := range changed {
		fl := &lay.files[c.li]
		sp.Ranges = append(sp.Ranges, graph.NodeRange{Lo: fl.lo, Hi: fl.hi, Nodes: c.nodes})
	}
	if err := ctx.Err(); err != nil {
		return nil, "cancelled: " + err.Error()
	}
	in.st.PhaseMs[string(adapter.PhaseResolve)] = ms(time.Since(lap))
	lap = time.Now()
	in.prog.phase(adapter.PhaseFinalize, 0, 0)
	g1, remap, spliceErr := g0.Spliced(sp)
	if spliceErr != nil {
		return nil, "splice: " + spliceErr.Error()
	}
	// New ranges: unchanged files shift; changed ones hold their new nodes
	// (placed in order where the old ones were).
	ci := 0
	for i := range newFiles {
		fl := &newFiles[i]
		if ci < len(changed) && changed[ci].li == i {
			c := changed[ci]
			lo, _ := g1.Lookup(c.nodes[0].ExternalID)
			fl.lo, fl.hi = lo, lo+graph.NodeID(len(c.nodes))
			ci++
			continue
		}
		fl.lo, fl.hi = remap[fl.lo], remap[fl.lo]+(fl.hi-fl.lo)
	}
	if timesMoved {
		applyTimes(g1, newFiles, in.ws)
	}

	in.st.PhaseMs[string(adapter.PhaseFinalize)] = ms(time.Since(lap))

	// Statistics as a full run reports them.
	st := in.st
	prevSt := last.stats
	st.FilesParsed, st.FilesFailed, st.LabelCollisions = 0, 0, 0
	st.ReferencesResolved, st.ReferencesAmbiguous, st.ReferencesUnresolved = 0, 0, 0
	st.Languages = map[string]int{}
	for i := range newFiles {
		fl := &newFiles[i]
		st.FilesParsed++
		if fl.failed {
			st.FilesFailed++
		}
		lang := fl.lang
		if lang == "" {
			lang = "unknown"
		}
		st.Languages[lang]++
		st.LabelCollisions += fl.collisions
		st.ReferencesResolved += fl.refs.resolved
		st.ReferencesAmbiguous += fl.refs.ambiguous
		st.ReferencesUnresolved += fl.refs.unresolved
	}
	// Directory and package nodes are unchanged, and so are their
	// collisions (the full run counted them beside the files').
	st.LabelCollisions += prevSt.LabelCollisions - sumCollisions(lay.files)
	st.FilesSkippedBinary, st.FilesSkippedEncoding = 0, 0
	for i := range in.results {
		switch in.results[i].kind {
		case cache.Binary:
			st.FilesSkippedBinary++
		case cache.Undecodable:
			st.FilesSkippedEncoding++
		}
	}
	st.TestLinks, st.Packages = prevSt.TestLinks, prevSt.Packages
	st.NodesCreated = g1.NumNodes()
	st.EdgesCreated = adapter.CountEdges(g1)
	st.GraphNodes, st.GraphEdges = st.NodesCreated, st.EdgesCreated

	out := &adapter.Output{Graph: g1, Root: adapter.RootInfo{Path: in.wr.Root, GitRoot: in.wr.RepoRoot}}
	if h := in.hist; h != nil {
		st.CommitsRead = h.CommitsRead
		out.Root.GitHead, out.Root.GitBranch = h.Head, h.Branch
		out.Root.GitDetached, out.Root.GitShallow, out.Root.GitHeadTime = h.Detached, h.Shallow, h.HeadTime
		if h == lay.history {
			out.CommitGroups = last.commitGroups
		} else {
			out.CommitGroups = commitGroups(h, g1)
		}
		st.CommitGroups = len(out.CommitGroups)
	}

	rc := &resolveCache{root: in.wr.Root, files: now, ix: ix}
	store.SetExtra(resolveCacheKey, rc)
	if err := commitCache(store, in.results, st); err != nil {
		st.Warnings = append(st.Warnings, fmt.Sprintf("ingest cache not updated (%v); the next incremental ingest runs in full", err))
		store.SetExtra(lastRunKey, (*lastRun)(nil))
	} else {
		newLay := &layout{files: newFiles, byPath: lay.byPath, ownSources: true, history: in.hist, gen: g1.Generation(), resolved: rc}
		st.ElapsedMs = ms(time.Since(in.start))
		out.Stats = *st
		remember(store, in.req, in.wr, out, newLay)
	}
	st.ElapsedMs = ms(time.Since(in.start))
	out.Stats = *st
	return out, ""
}

func sumCollisions(files []fileLayout) int {
	n := 0
	for i := range files {
		n += files[i].collisions
	}
	return n
}

// resolveRef resolves one reference of file fi, sharing outcomes with the
// file's other references through memo.
func resolveRef(ix *resolve.Index, fi int32, file string, e *extract.Edge, name string, memo map[memoKey]resolve.Result) resolve.Result {
	// A node never binds to itself (except by calling itself), so a source
	// named like the reference must not share another source's outcome.
	key := memoKey{name, e.Relation, e.Hint}
	selfNamed := strings.HasSuffix(e.Source, "::"+name) || strings.HasSuffix(e.Source, "::"+lastName(name))
	if !selfNamed {
		if r, ok := memo[key]; ok {
			return r
		}
	}
	r := ix.ResolveIn(fi, resolve.Source{ID: e.Source, File: file}, name, e.Relation, e.Hint)
	if !selfNamed {
		memo[key] = r
	}
	return r
}

// applyTimes writes every file's time and change frequency on its nodes
// and the aggregates on directories and packages, as build and enrich do.
func applyTimes(g *graph.Graph, files []fileLayout, ws *workspace.Info) {
	dirs := spans{}
	pkgs := map[*workspace.Package]*span{}
	for i := range files {
		fl := &files[i]
		for id := fl.lo; id < fl.hi; id++ {
			g.SetLastModified(id, fl.time)
			g.SetChangeFrequency(id, fl.freq)
		}
		dirs.foldDirs(parentDir(fl.path), fl.time, fl.freq)
		if p := ws.Owner(fl.path, fl.lang); p != nil && !p.External {
			if pkgs[p] == nil {
				pkgs[p] = &span{}
			}
			pkgs[p].fold(fl.time, fl.freq)
		}
	}
	for d, a := range dirs {
		if id, ok := g.Lookup(resolve.DirID(d)); ok {
			g.SetLastModified(id, a.t)
			g.SetChangeFrequency(id, a.f)
		}
	}
	for p, a := range pkgs {
		if id, ok := g.Lookup(p.ID); ok {
			g.SetLastModified(id, a.t)
			g.SetChangeFrequency(id, a.f)
		}
	}
}
