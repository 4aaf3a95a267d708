package code

import (
	"path"
	"slices"
	"strings"
	"time"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/history"
	"github.com/m1nd-go/m1nd/ingest/adapter"
	"github.com/m1nd-go/m1nd/ingest/cache"
	"github.com/m1nd-go/m1nd/ingest/extract"
	"github.com/m1nd-go/m1nd/ingest/gitmeta"
	"github.com/m1nd-go/m1nd/ingest/resolve"
	"github.com/m1nd-go/m1nd/ingest/testlink"
	"github.com/m1nd-go/m1nd/ingest/workspace"
)

// An incremental ingest in which a few files changed, appeared or vanished
// patches the previous graph instead of rebuilding it: the changed files'
// node ranges are replaced, new files' nodes inserted where a full build
// would place them, vanished files' removed, directories following them
// (patchdirs.go); a manifest that changed, came or went without moving the
// repository's own packages (workspace.SameLayout: a dependency or version)
// lays the package and workspace nodes out again; the references a
// change can affect are resolved again, and only the edges of files whose
// outcome moved are replaced (graph.Spliced). The result is the graph a
// full ingest of the same tree builds: same nodes in the same order, same
// edges and weights; PageRank agrees within its convergence tolerance.
// Anything outside that case runs the full pipeline, and the RebuildReason
// says why.
//
// The patch phases are methods of the same run, in the order they run:
// start (the previous run to patch), files (which changed, came or went),
// packages (what a changed manifest moves), build (their new nodes), dirs
// (where they go, and the directories), resolve, edges, enrich, finalize
// (the splice); this file holds them in that order.

// maxPatchFiles bounds the changed files a patch takes on; beyond it a
// rebuild costs about the same.
const maxPatchFiles = 64

// patchState is what the patch phases hand on to each other.
type patchState struct {
	// start: the previous run
	last *lastRun
	g0   *graph.Graph // its graph
	lay  *layout      // where each of its files' nodes are in g0
	prev *resolveCache
	// files
	files     []*fileResult  // the graph's files, in the new layout's order
	old       []int          // by new index: the file's index in the old layout, -1 for a new file
	changed   []*changedFile // files whose contents changed or which are new, in order
	isChanged []bool         // by new index
	removed   []int          // old layout indexes of the files that vanished
	// replaced marks the old nodes a splice range covers (changed and
	// vanished files' nodes, directories moving with them).
	replaced []bool
	// build: the changed files' new nodes by ID, and the directory nodes
	// the splice ranges list
	newNode map[string]*graph.Node
	// dirs
	ranges []graph.NodeRange
	// moved: files came or went (module layout, test links and times move);
	// dirsMoved: directories came or went with them
	moved, dirsMoved bool
	// manifests: a manifest changed, came or went
	manifests bool
	// packages: the package and workspace nodes laid out again (the last
	// nodes of the graph), when a manifest changed
	packages *graph.NodeRange
	// resolve
	lap     time.Time // when resolution started
	now     map[string]*fileResolution
	stale   *staleness
	ix      *resolve.Index
	outs    [][]resolve.Result // every file's outcomes, by layout index
	touched []bool             // files whose outcomes moved: their outgoing edges are replaced
	// edges, enrich
	dropFrom   []bool // old nodes whose outgoing edges are dropped
	newFiles   []fileLayout
	adds       []graph.SpliceEdge
	timesMoved bool
	// timedFiles are the files (newFiles indexes) whose time or change
	// frequency moved: only their nodes are written (applyTimes); and
	// timesFell, some of them moved down.
	timedFiles []int
	timesFell  bool
	// derivedMoved: a touched file's imports or Go method sets changed, so
	// the derived edges are recomputed (else they stay as they are).
	derivedMoved bool
	// impls are the Go implementations of the new files, computed beside
	// resolution when Go files came or went (they depend on no outcome);
	// wait on implsDone first.
	impls     []resolve.Implementation
	implsDone chan struct{}
	testLinks int
}

// changedFile is a file whose new extraction replaces its nodes (or, new,
// adds them).
type changedFile struct {
	li    int // index in the new layout
	oi    int // index in the old layout, -1 for a new file
	res   *extract.Result
	fr    *fileResult
	nodes []graph.Node // new nodes, duplicates dropped
	// collisions counts nodes dropped as duplicates.
	collisions int
	time       float64
	freq       float32
}

// patch tries the patch path. It returns the patched output, or nil (and no
// error) when the change is not one it takes on: r.rebuild then says why
// and the run rebuilds.
func (r *run) patch() (*adapter.Output, error) {
	out, why := r.tryPatch()
	if out != nil {
		return r.done(out, out.Stats.FilesParsed), nil
	}
	if err := r.ctx.Err(); err != nil {
		return nil, err
	}
	r.rebuild = why
	r.st.Incremental.RebuildReason = why.String()
	return nil, nil
}

// tryPatch runs the patch phases in order until one declines.
func (r *run) tryPatch() (*adapter.Output, *noPatch) {
	p := &patchState{}
	for _, phase := range []func(*patchState) *noPatch{r.patchStart, r.patchFiles, r.patchPackages, r.patchBuild, r.patchDirs, r.patchResolve, r.patchEdges, r.patchEnrich} {
		if why := phase(p); why != nil {
			return nil, why
		}
	}
	return r.patchFinalize(p)
}

// patchStart takes the previous complete run as the starting point, if its
// graph, options and resolution state are still the ones it left.
func (r *run) patchStart(p *patchState) *noPatch {
	last, _ := r.store.Extra(lastRunKey).(*lastRun)
	if last != nil && last.restored {
		return refuse(RestoredGraph)
	}
	if last == nil || last.layout == nil {
		return refuse(NoPreviousRun)
	}
	g0 := last.graph.Value()
	if g0 == nil {
		return refuse(PreviousGraphReleased)
	}
	lay := last.layout
	if !g0.Finalized() || g0.Generation() != lay.gen {
		return refuse(PreviousGraphChanged)
	}
	if !lay.ownSources {
		return refuse(ForeignEdges)
	}
	if last.optsKey != optsKey(&r.req, r.wr) {
		return refuse(OptionsChanged)
	}
	prev, _ := r.store.Extra(resolveCacheKey).(*resolveCache)
	if prev == nil || prev != lay.resolved || prev.ix == nil || prev.root != r.wr.Root {
		return refuse(NoResolverIndex)
	}
	p.last, p.g0, p.lay, p.prev = last, g0, lay, prev
	return nil
}

// patchFiles lines the graph's files up with the previous layout's (the
// files both hold stay in the same order) and lists those whose contents
// changed, those that are new and those that vanished.
func (r *run) patchFiles(p *patchState) *noPatch {
	lay := p.lay
	seen := make([]bool, len(lay.files))
	last := -1
	for i := range r.results {
		fr := &r.results[i]
		switch {
		case fr.timedOut || fr.readErr != nil:
			return refuse(FileUnreadable)
		case !fr.hasResult():
			continue // not source (any more): a file it was is gone
		case fr.entry.Hash == (cache.Hash{}):
			return refuse(NoContentHash)
		}
		li := len(p.files)
		p.files = append(p.files, fr)
		oi, was := lay.byPath[fr.file.Rel]
		switch {
		case was && oi < last:
			return refuse(FilesReordered)
		case was:
			last, seen[oi] = oi, true
			p.old = append(p.old, oi)
			if fr.entry.Hash == lay.files[oi].hash {
				continue
			}
		default:
			oi = -1
			p.old = append(p.old, oi)
		}
		if !ownEdges(fr.result()) {
			return refuse(ForeignEdges)
		}
		p.manifests = p.manifests || manifests[path.Base(fr.res.Path)]
		p.changed = append(p.changed, &changedFile{li: li, oi: oi, res: fr.res, fr: fr})
	}
	for oi, ok := range seen {
		if !ok {
			p.manifests = p.manifests || manifests[path.Base(lay.files[oi].path)]
			p.removed = append(p.removed, oi)
		}
	}
	if n := len(p.changed) + len(p.removed); n > maxPatchFiles {
		return &noPatch{reason: TooManyFiles, changed: n}
	}
	added := len(p.files) - (len(lay.files) - len(p.removed))
	p.moved = len(p.removed) > 0 || added > 0
	p.isChanged = make([]bool, len(p.files))
	p.replaced = make([]bool, p.g0.NumNodes())
	for _, c := range p.changed {
		p.isChanged[c.li] = true
		if c.oi >= 0 {
			p.replace(lay.files[c.oi].lo, lay.files[c.oi].hi)
		}
	}
	for _, oi := range p.removed {
		p.replace(lay.files[oi].lo, lay.files[oi].hi)
	}
	return nil
}

// replace marks the old nodes [lo, hi) as covered by a splice range.
func (p *patchState) replace(lo, hi graph.NodeID) {
	for o := lo; o < hi; o++ {
		p.replaced[o] = true
	}
}

// patchPackages takes on a changed manifest that leaves the repository's
// own packages as they were (workspace.SameLayout): resolution and file
// ownership read nothing else of it, so only the package and workspace
// nodes, which follow every file's, are laid out again — versions move,
// external packages come and go — and depends_on is recomputed as always.
func (r *run) patchPackages(p *patchState) *noPatch {
	if !p.manifests {
		return nil
	}
	if !workspace.SameLayout(p.lay.ws, r.ws) {
		return refuse(ManifestChanged)
	}
	old, ok1 := packageTail(p.lay.ws)
	now, ok2 := packageTail(r.ws)
	if !ok1 || !ok2 {
		return refuse(PackageIDCollision)
	}
	hi := graph.NodeID(p.g0.NumNodes())
	lo := hi - graph.NodeID(len(old))
	if len(p.lay.files) > 0 && lo < p.lay.files[len(p.lay.files)-1].hi {
		return refuse(PackagesOutOfPlace)
	}
	for k := range old {
		if p.g0.ExternalID(lo+graph.NodeID(k)) != old[k].ExternalID {
			return refuse(PackagesOutOfPlace)
		}
	}
	// An in-repo package's time and change frequency aggregate its files'
	// (applyTimes, after the splice); one that owns none has zeros, as
	// after enrich.
	for k, pk := range r.ws.Packages {
		if !pk.External {
			now[k].ChangeFrequency = 0
		}
	}
	p.packages = &graph.NodeRange{Lo: lo, Hi: hi, Nodes: now}
	p.replace(lo, hi)
	return nil
}

// patchBuild makes the changed files' new nodes, as build would add them.
func (r *run) patchBuild(p *patchState) *noPatch {
	p.newNode = map[string]*graph.Node{}
	grown := 0
	for _, c := range p.changed {
		if why := p.nodesOf(c, r.hist); why != nil {
			return why
		}
		for i := range c.nodes {
			p.newNode[c.nodes[i].ExternalID] = &c.nodes[i]
		}
		grown += len(c.nodes)
		if c.oi >= 0 {
			fl := &p.lay.files[c.oi]
			grown -= int(fl.hi - fl.lo)
		}
	}
	if pk := p.packages; pk != nil {
		for i := range pk.Nodes {
			p.newNode[pk.Nodes[i].ExternalID] = &pk.Nodes[i]
		}
		grown += len(pk.Nodes) - int(pk.Hi-pk.Lo)
	}
	if p.g0.NumNodes()+grown > r.maxNodes {
		return refuse(NodeBudget)
	}
	return nil
}

// nodesOf fills c.nodes; each ID must be new or one of a replaced or
// vanished file's.
func (p *patchState) nodesOf(c *changedFile, h *gitmeta.History) *noPatch {
	c.time, c.freq = fileTime(&c.fr.file, h)
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
		if o, ok := p.g0.Lookup(n.ID); ok && !p.replaced[o] {
			return refuse(NodeIDTaken)
		}
		seen[n.ID] = true
		c.nodes = append(c.nodes, nodeOf(c.res, n, c.time, c.freq))
		if n.Type == graph.File && n.ID == fid {
			hasFile = true
		}
	}
	if !hasFile {
		return refuse(FileNodeLost)
	}
	return nil
}

// patchResolve updates the resolver index in place with the changed files
// and resolves again what the change may have moved; a file whose outcomes
// moved is touched: its outgoing edges are replaced.
func (r *run) patchResolve(p *patchState) *noPatch {
	if why := p.restale(); why != nil {
		return why
	}
	if why := p.reindex(); why != nil {
		return why
	}
	if p.manifests {
		p.ix.SetWorkspace(r.ws)
	}
	p.lap = time.Now()
	p.implementations(r)
	n := len(p.files)
	p.outs, p.touched = make([][]resolve.Result, n), make([]bool, n)
	nothingElse := len(p.stale.labels) == 0 && !p.stale.types && !p.moved
	kept := make([]bool, n)
	err := forEachFile(r.ctx, len(p.files), func(i int) {
		p.outs[i], p.touched[i], kept[i] = p.reresolve(i, nothingElse)
	})
	if err != nil {
		return &noPatch{reason: Cancelled, err: err}
	}
	for i, fr := range p.files {
		if kept[i] {
			continue // the previous run's record, outcomes and all
		}
		rel := fr.file.Rel
		cur := p.now[rel]
		if !p.isChanged[i] {
			cur = cur.unresolved() // shared with the previous run: copied before a write
			p.now[rel] = cur
		}
		cur.out = packOutcomes(p.outs[i])
	}
	return nil
}

// implementations starts computing the Go implementations of the new files
// when Go files came or went: the derived edges will be recomputed, and
// this part needs nothing resolution finds, so it runs beside it.
func (p *patchState) implementations(r *run) {
	goMoved := slices.ContainsFunc(p.changed, func(c *changedFile) bool { return c.oi < 0 && c.res.Language == "go" }) ||
		slices.ContainsFunc(p.removed, func(oi int) bool { return p.lay.files[oi].lang == "go" })
	if !goMoved {
		return
	}
	results := make([]*extract.Result, len(p.files))
	for i := range p.files {
		results[i] = p.goFacts(i)
	}
	p.implsDone = make(chan struct{})
	go func() {
		defer close(p.implsDone)
		p.impls = resolve.GoImplements(results, r.ws)
	}()
}

// goFacts is what the derived edges read of file i (Go interface
// satisfaction; the other derived edges need its path and imports only):
// its result when in hand, else its Go skeleton from the previous layout
// rather than a spilled result read back (a file that did not change has
// the skeleton it had).
func (p *patchState) goFacts(i int) *extract.Result {
	fr := p.files[i]
	if fr.res != nil || p.old[i] < 0 || p.isChanged[i] {
		return fr.result()
	}
	return p.lay.files[p.old[i]].goSkel
}

// reindex updates the resolver index in place: vanished files out, new
// ones in, changed ones replaced.
func (p *patchState) reindex() *noPatch {
	p.ix = p.prev.ix
	p.prev.ix = nil // this run owns it now; a run that fails leaves none behind
	for _, oi := range p.removed {
		if !p.ix.RemoveFile(p.lay.files[oi].path) {
			return refuse(ResolverIndexOutOfStep)
		}
	}
	for _, c := range p.changed {
		ok := false
		if c.oi >= 0 {
			ok = p.ix.ReplaceFile(c.res)
		} else {
			ok = p.ix.AddFile(c.res)
		}
		if !ok {
			return refuse(ResolverIndexOutOfStep)
		}
	}
	return nil
}

// restale starts this run's resolution state from the previous run's and
// marks what the changed files can move.
func (p *patchState) restale() *noPatch {
	p.now = make(map[string]*fileResolution, len(p.files))
	for i, fr := range p.files {
		if p.old[i] < 0 {
			continue
		}
		old := p.prev.files[fr.file.Rel]
		if old == nil {
			return refuse(ResolutionIncomplete)
		}
		// Shared, not copied: most files keep it whole, and patchResolve
		// copies the few whose outcomes it writes (go-std: 5,600 records
		// a tick not allocated).
		p.now[fr.file.Rel] = old
	}
	p.stale = &staleness{labels: map[string]bool{}, changed: map[string]bool{}}
	for _, oi := range p.removed {
		path := p.lay.files[oi].path
		old := p.prev.files[path]
		if old == nil {
			return refuse(ResolutionIncomplete)
		}
		p.stale.cameOrWent(path)
		p.stale.mark(old, nil, path)
	}
	for _, c := range p.changed {
		// Made in the parse worker, beside the parse, when it could be.
		cur := c.fr.resolution
		if cur == nil || cur.hash != c.fr.entry.Hash {
			cur = newResolution(c.res, c.fr.entry.Hash)
		}
		if c.oi < 0 {
			p.stale.cameOrWent(c.res.Path)
		}
		p.stale.mark(p.now[c.res.Path], cur, c.res.Path)
		p.now[c.res.Path] = cur
	}
	// A manifest marks everything stale when the layout may have moved;
	// patchPackages made sure it did not.
	p.stale.all = false
	p.stale.markSubclasses(p.now)
	p.stale.markRubyAliases(p.prev.ix, p.now) // the previous index: the unchanged files' aliases
	p.stale.sortLabels()
	if p.moved {
		if p.dirsMoved {
			p.stale.modules = true
		}
		// Files coming or going can change which file answers a
		// star-imported module.
		for path, cur := range p.now {
			if cur.star {
				p.stale.changed[path] = true
			}
		}
	}
	return nil
}

// reresolve returns file i's outcomes and whether any moved: a changed
// file's are all resolved again, another file's only where the change can
// reach them (refs.go). A file no change reaches keeps the previous run's
// outcomes as they are: kept, and no outcomes returned.
func (p *patchState) reresolve(i int, nothingElse bool) (out []resolve.Result, moved, kept bool) {
	rel := p.files[i].file.Rel
	changed := p.isChanged[i] || p.stale.changed[rel]
	if !changed && (nothingElse || p.stale.passesOver(p.now[rel])) {
		return nil, false, true
	}
	var old []resolve.Result
	if !p.isChanged[i] {
		old = p.prev.files[rel].out.unpack()
	}
	res := p.files[i].result()
	keep := old
	if changed {
		keep = nil
	}
	fi, _ := p.ix.FileIndex(res.Path)
	refs := newFileRefs(p.ix, int(fi), res.Path, keep, p.stale)
	moved = changed
	for k := range res.Edges {
		e := &res.Edges[k]
		name, ok := strings.CutPrefix(e.Target, extract.RefPrefix)
		if !ok {
			continue
		}
		j := len(out)
		o, fresh := refs.outcome(j, e, name)
		if fresh && !moved && (j >= len(old) || old[j].Status != o.Status || old[j].Target != o.Target || !slices.Equal(old[j].Also, o.Also)) {
			moved = true
		}
		out = append(out, o)
	}
	return out, moved, false
}

// patchEdges makes the new outgoing edges of every touched file — its
// direct edges and its bound references, as build and resolve add them —
// and marks the old ones to drop.
func (r *run) patchEdges(p *patchState) *noPatch {
	p.dropFrom = make([]bool, p.g0.NumNodes())
	p.newFiles = make([]fileLayout, len(p.files))
	for i, fr := range p.files {
		if oi := p.old[i]; oi >= 0 {
			p.newFiles[i] = p.lay.files[oi]
			if p.touched[i] {
				for o := p.newFiles[i].lo; o < p.newFiles[i].hi; o++ {
					p.dropFrom[o] = true
				}
			}
			continue
		}
		p.newFiles[i] = fileLayout{path: fr.file.Rel, lang: fr.result().Language}
	}
	p.derivedMoved = p.moved
	var touched []int
	for i, t := range p.touched {
		if t {
			touched = append(touched, i)
		}
	}
	// Each touched file's edges are made apart (on both cores: they read
	// the old graph and the new nodes only), then added in file order, as
	// one pass would add them.
	adds := make([][]graph.SpliceEdge, len(touched))
	err := forEachFile(r.ctx, len(touched), func(k int) {
		i := touched[k]
		fl := &p.newFiles[i]
		own := p.owns(i, fl)
		p.directEdges(&adds[k], i, own)
		fl.refs, fl.imports = p.boundEdges(&adds[k], i, own)
		fl.derivedSig = derivedSignature(p.files[i].result(), fl.imports)
	})
	if err != nil {
		return &noPatch{reason: Cancelled, err: err}
	}
	for k, i := range touched {
		p.adds = append(p.adds, adds[k]...)
		fl := &p.newFiles[i]
		// A Python test's body decides whether it tests what it imports
		// (testlink.PyFlagsOnly): any change to it may move a link.
		pyTest := fl.lang == "python" && testlink.IsTest(fl.path)
		if p.old[i] < 0 || fl.derivedSig != p.lay.files[p.old[i]].derivedSig || pyTest {
			p.derivedMoved = true
		}
	}
	return nil
}

// owns says whether an ID is one of file i's nodes in the patched graph.
func (p *patchState) owns(i int, fl *fileLayout) func(string) bool {
	if p.isChanged[i] {
		return func(id string) bool { return p.newNode[id] != nil }
	}
	lo, hi := fl.lo, fl.hi
	return func(id string) bool { o, ok := p.g0.Lookup(id); return ok && o >= lo && o < hi }
}

// directEdges adds to adds file i's edges whose both ends the extractor
// named.
func (p *patchState) directEdges(adds *[]graph.SpliceEdge, i int, own func(string) bool) {
	res := p.files[i].result()
	for k := range res.Edges {
		e := &res.Edges[k]
		if !strings.HasPrefix(e.Target, extract.RefPrefix) && own(e.Source) && p.exists(e.Target) {
			addEdge(adds, e.Source, e.Target, e.Relation, WeightCertain)
		}
	}
}

// boundEdges adds to adds file i's bound references; it returns their
// counts and the import paths they reach.
func (p *patchState) boundEdges(adds *[]graph.SpliceEdge, i int, own func(string) bool) (refCounts, []string) {
	res := p.files[i].result()
	var rc refCounts
	var imports []string
	j := 0
	for k := range res.Edges {
		e := &res.Edges[k]
		if !strings.HasPrefix(e.Target, extract.RefPrefix) {
			continue
		}
		o := p.outs[i][j]
		j++
		if !own(e.Source) {
			continue
		}
		if o.Status == resolve.Unresolved || !p.exists(o.Target) || o.Target == e.Source {
			rc.unresolved++
			continue
		}
		addEdge(adds, e.Source, o.Target, e.Relation, rc.bound(o.Status))
		for _, id := range o.Also {
			if id != e.Source && p.exists(id) {
				addEdge(adds, e.Source, id, e.Relation, statusWeight(o.Status))
			}
		}
		if e.Relation == extract.RelImports {
			if ip := p.importPath(o.Target); ip != "" {
				imports = append(imports, ip)
			}
		}
	}
	return rc, imports
}

// exists says whether the patched graph has a node with this ID: a new one,
// or an old one outside the changed files' ranges (inside them, only the
// new nodes remain).
func (p *patchState) exists(id string) bool {
	if p.newNode[id] != nil {
		return true
	}
	o, ok := p.g0.Lookup(id)
	return ok && !p.replaced[o]
}

// importPath is importPath of a node of the patched graph.
func (p *patchState) importPath(id string) string {
	if n := p.newNode[id]; n != nil {
		return importPath(n.Provenance.SourcePath, n.Type)
	}
	o, _ := p.g0.Lookup(id)
	return importPath(p.g0.SourcePath(o), p.g0.Type(o))
}

// edge adds an edge as builder.edge does.
func (p *patchState) edge(src, dst, rel string, w float32) {
	addEdge(&p.adds, src, dst, rel, w)
}

// addEdge appends to adds an edge as builder.edge adds it.
func addEdge(adds *[]graph.SpliceEdge, src, dst, rel string, w float32) {
	if src == dst {
		return
	}
	cs, dir := CausalStrength(rel)
	*adds = append(*adds, graph.SpliceEdge{Source: src, Target: dst, Edge: graph.Edge{Relation: rel, Weight: w, Direction: dir, CausalStrength: cs}})
}

// patchEnrich brings the files' times and the package dependencies up to
// date; directories, packages and test links stay, as the same files do.
func (r *run) patchEnrich(p *patchState) *noPatch {
	// A changed file's nodes carry their times; any other file whose last
	// change moved (mtime touched, a new commit) is updated after the
	// splice, and so are the directories and packages aggregating them.
	for i, fr := range p.files {
		t, f := fileTime(&fr.file, r.hist)
		fl := &p.newFiles[i]
		if t != fl.time || f != fl.freq {
			p.timesFell = p.timesFell || t < fl.time || f < fl.freq
			fl.time, fl.freq = t, f
			p.timesMoved = true
			p.timedFiles = append(p.timedFiles, i)
		}
		fl.failed = fr.failed
	}
	for _, c := range p.changed {
		fl := &p.newFiles[c.li]
		fl.hash, fl.collisions, fl.goSkel = c.fr.entry.Hash, c.collisions, goSkeleton(c.res)
	}
	// New package nodes take their times from their files after the splice.
	p.timesMoved = p.timesMoved || p.moved || p.packages != nil
	ids := map[string]bool{}
	for _, pk := range r.ws.Packages {
		if ids[pk.ID] {
			return refuse(PackageIDCollision)
		}
		ids[pk.ID] = true
	}
	// Package dependencies follow the files' imports: recomputed whole.
	files := make([]importsOf, len(p.newFiles))
	for i := range p.newFiles {
		fl := &p.newFiles[i]
		files[i] = importsOf{fl.path, fl.lang, fl.imports}
	}
	has := func(pk *workspace.Package) bool { return p.exists(pk.ID) }
	for _, d := range packageDeps(r.ws, has, files) {
		p.edge(d[0].ID, d[1].ID, RelDependsOn, WeightCertain)
	}
	p.testLinks = p.last.stats.TestLinks
	if p.derivedMoved {
		p.derived(r)
	}
	return nil
}

// derived recomputes the derived edges whole (splice drops the old ones):
// a changed file's imports may add or remove a test link, its methods an
// interface satisfaction.
func (p *patchState) derived(r *run) {
	facts := make([]fileFacts, len(p.newFiles))
	for i := range p.newFiles {
		fl := &p.newFiles[i]
		facts[i] = fileFacts{path: fl.path, lang: fl.lang, imports: fl.imports, res: p.goFacts(i)}
	}
	p.testLinks = 0
	var impls func() []resolve.Implementation
	if p.implsDone != nil {
		impls = func() []resolve.Implementation { <-p.implsDone; return p.impls }
	}
	for _, e := range derivedEdges(facts, r.ws, r.readSource, impls) {
		if !p.exists(e.src) || !p.exists(e.dst) {
			continue
		}
		p.edge(e.src, e.dst, e.rel, WeightCertain)
		if e.rel == RelTests {
			p.testLinks++
		}
	}
}

// patchFinalize splices the change into a new graph (graph.Spliced derives
// CSR and indexes from the old ones and warm-starts PageRank), then reports
// and keeps it as finalize does.
func (r *run) patchFinalize(p *patchState) (*adapter.Output, *noPatch) {
	sp := p.splice()
	if err := r.ctx.Err(); err != nil {
		return nil, &noPatch{reason: Cancelled, err: err}
	}
	r.st.PhaseMs[string(adapter.PhaseResolve)] = ms(time.Since(p.lap))
	lap := time.Now()
	r.prog.phase(adapter.PhaseFinalize, 0, 0)
	g1, remap, err := p.g0.Spliced(sp)
	if err != nil {
		return nil, &noPatch{reason: SpliceFailed, err: err}
	}
	p.place(g1, remap)
	if p.timesMoved {
		if p.moved || p.packages != nil || p.timesFell {
			applyTimes(g1, p.newFiles, p.timedFiles, r.ws)
		} else {
			raiseTimes(g1, p.newFiles, p.timedFiles, r.ws)
		}
	}
	r.st.PhaseMs[string(adapter.PhaseFinalize)] = ms(time.Since(lap))

	r.patchStats(p, g1)
	out := r.output(g1, func(h *gitmeta.History) []history.Commit {
		if h == p.lay.history && !p.moved {
			return p.last.commits // commits list the graph's files: the same ones
		}
		return commitsOf(h, g1)
	})
	rc := &resolveCache{root: r.wr.Root, files: p.now, ix: p.ix}
	r.store.SetExtra(resolveCacheKey, rc)
	r.st.Incremental.Patched = true
	byPath := p.lay.byPath
	if p.moved {
		byPath = make(map[string]int, len(p.newFiles))
		for i := range p.newFiles {
			byPath[p.newFiles[i].path] = i
		}
	}
	r.commit(out, func() *layout {
		return &layout{files: p.newFiles, byPath: byPath, ownSources: true, history: r.hist, gen: g1.Generation(), resolved: rc, ws: r.ws}
	})
	return out, nil
}

// splice is the change as graph.Spliced takes it: the ranges patchDirs
// laid out; the touched files' outgoing edges and every
// derived and depends_on edge dropped; the new edges added.
func (p *patchState) splice() graph.Splice {
	derived := p.derivedRelations()
	dropFrom, moved := p.dropFrom, p.derivedMoved
	depends, hasDepends := p.g0.Strings().Lookup(RelDependsOn)
	sp := graph.Splice{
		DropEdge: func(src, dst graph.NodeID, rel graph.Str) bool {
			switch {
			case hasDepends && rel == depends:
				return true // recomputed whole, always
			case derived(src, rel):
				return moved
			}
			return dropFrom[src]
		},
		AddEdges: p.adds,
		// Learned state is carried onto the new graph by whoever carries it
		// after a rebuild (Run, the server's session), under the lock the
		// learning runs under; a fresh splice does not read it meanwhile.
		FreshWeights: true,
		// Only these edges can be dropped: the touched files' outgoing ones
		// and those of the relations recomputed whole.
		AskSources: dropFrom,
	}
	names := []string{RelDependsOn}
	if moved {
		names = append(names, RelTests, RelDeclares, extract.RelImplements)
	}
	for _, name := range names {
		if h, ok := p.g0.Strings().Lookup(name); ok {
			sp.AskRelations = append(sp.AskRelations, h)
		}
	}
	sp.Ranges = p.ranges
	return sp
}

// derivedRelations says whether an edge of g0 is one enrichment derives
// (and a patch recomputes): depends_on, tests and declares edges, and
// implements edges leaving Go code (the extractors emit implements for
// other languages, from the file's own nodes).
func (p *patchState) derivedRelations() func(src graph.NodeID, rel graph.Str) bool {
	strs := p.g0.Strings()
	var rels []graph.Str
	for _, name := range []string{RelDependsOn, RelTests, RelDeclares} {
		if s, ok := strs.Lookup(name); ok {
			rels = append(rels, s)
		}
	}
	impl, hasImpl := strs.Lookup(extract.RelImplements)
	return func(src graph.NodeID, rel graph.Str) bool {
		if hasImpl && rel == impl {
			return strings.HasSuffix(p.g0.SourcePath(src), ".go")
		}
		return slices.Contains(rels, rel)
	}
}

// place records where each file's nodes are in g1: unchanged files shift
// by remap; changed and new ones hold their new nodes, placed in order.
func (p *patchState) place(g1 *graph.Graph, remap []graph.NodeID) {
	ci := 0
	for i := range p.newFiles {
		fl := &p.newFiles[i]
		if ci < len(p.changed) && p.changed[ci].li == i {
			c := p.changed[ci]
			lo, _ := g1.Lookup(c.nodes[0].ExternalID)
			fl.lo, fl.hi = lo, lo+graph.NodeID(len(c.nodes))
			ci++
			continue
		}
		fl.lo, fl.hi = remap[fl.lo], remap[fl.lo]+(fl.hi-fl.lo)
	}
}

// patchStats reports the patched graph as a full run would.
func (r *run) patchStats(p *patchState, g1 *graph.Graph) {
	st := &r.st
	st.FilesParsed, st.FilesFailed, st.LabelCollisions = 0, 0, 0
	st.ReferencesResolved, st.ReferencesAmbiguous, st.ReferencesUnresolved = 0, 0, 0
	st.Languages = map[string]int{}
	for i := range p.newFiles {
		fl := &p.newFiles[i]
		countFile(st, fl.lang, fl.failed)
		st.LabelCollisions += fl.collisions
		st.ReferencesResolved += fl.refs.resolved
		st.ReferencesAmbiguous += fl.refs.ambiguous
		st.ReferencesUnresolved += fl.refs.unresolved
	}
	// Directory and package nodes are unchanged, and so are their
	// collisions (the full run counted them beside the files').
	prev := p.last.stats
	st.LabelCollisions += prev.LabelCollisions - sumCollisions(p.lay.files)
	st.FilesSkippedBinary, st.FilesSkippedEncoding = 0, 0
	for i := range r.results {
		switch r.results[i].kind {
		case cache.Binary:
			st.FilesSkippedBinary++
		case cache.Undecodable:
			st.FilesSkippedEncoding++
		}
	}
	st.TestLinks, st.Packages = p.testLinks, prev.Packages
	if p.packages != nil {
		st.Packages = len(p.packages.Nodes) - len(r.ws.Workspaces)
	}
	r.graphStats(g1)
}

func sumCollisions(files []fileLayout) int {
	n := 0
	for i := range files {
		n += files[i].collisions
	}
	return n
}

// applyTimes writes the time and change frequency of the files whose
// times moved (timed, indexes into files) on their nodes, and the
// aggregates of every file on directories and packages, as build and
// enrich do. Every other file's nodes carry its times already: the splice
// kept them from the graph that had them (a file's nodes all carry its
// own), and a changed file's new nodes were made with them. Writing every
// node of go-std was ≈ 1.8 ms of each patch's serial tail.
func applyTimes(g *graph.Graph, files []fileLayout, timed []int, ws *workspace.Info) {
	for _, i := range timed {
		timeNodes(g, &files[i])
	}
	dirs := spans{}
	pkgs := map[*workspace.Package]*span{}
	for i := range files {
		fl := &files[i]
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

// timeNodes writes a file's time and change frequency on its nodes.
func timeNodes(g *graph.Graph, fl *fileLayout) {
	for id := fl.lo; id < fl.hi; id++ {
		g.SetLastModified(id, fl.time)
		g.SetChangeFrequency(id, fl.freq)
	}
}

// raiseTimes is applyTimes when the same files stayed in the same
// packages and none of the times moved down: a directory's or a package's
// aggregate is the largest of its files', so the moved files' times are
// folded into what their directories and package hold, and no other
// aggregate moves (folding every file's was ≈ 2.5 ms of a go-std patch).
func raiseTimes(g *graph.Graph, files []fileLayout, timed []int, ws *workspace.Info) {
	raise := func(id graph.NodeID, t float64, f float32) {
		g.SetLastModified(id, max(g.LastModified(id), t))
		g.SetChangeFrequency(id, max(g.ChangeFrequency(id), f))
	}
	for _, i := range timed {
		fl := &files[i]
		timeNodes(g, fl)
		for d := parentDir(fl.path); d != ""; d = parentDir(d) {
			if id, ok := g.Lookup(resolve.DirID(d)); ok {
				raise(id, fl.time, fl.freq)
			}
		}
		if p := ws.Owner(fl.path, fl.lang); p != nil && !p.External {
			if id, ok := g.Lookup(p.ID); ok {
				raise(id, fl.time, fl.freq)
			}
		}
	}
}
