package code

import (
	"fmt"
	"slices"
	"strings"
	"time"
	"weak"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/history"
	"github.com/m1nd-go/m1nd/ingest/adapter"
	"github.com/m1nd-go/m1nd/ingest/cache"
	"github.com/m1nd-go/m1nd/ingest/extract"
	"github.com/m1nd-go/m1nd/ingest/gitmeta"
	"github.com/m1nd-go/m1nd/ingest/walk"
	"github.com/m1nd-go/m1nd/ingest/workspace"
)

// lastRunKey keys the previous output kept in a cache store.
const lastRunKey = "code.last"

// lastRun is the previous complete output of a store. The graph is held
// weakly: once the caller has let go of it, nothing is kept alive for this
// shortcut.
type lastRun struct {
	key     string
	optsKey string
	layout  *layout // nil: the patch path has nothing to start from
	// walk is the run's walk, which a hinted walk starts from (hint.go).
	walk    *walk.Result
	graph   weak.Pointer[graph.Graph]
	stats   adapter.Stats
	commits []history.Commit
	root    adapter.RootInfo
	// restored: the graph is one the caller served from a snapshot
	// (restored); no layout was made for it.
	restored bool
}

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
	// ws is the package structure the graph's package and workspace nodes
	// (its last nodes) were made from.
	ws *workspace.Info
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
	// derivedSig is derivedSignature of the file's contribution.
	derivedSig uint64
	// goSkel is what Go interface satisfaction reads of a Go file
	// (goSkeleton), so that a patch recomputing the derived edges does not
	// read every spilled result back (nil for other languages).
	goSkel *extract.Result
}

// goSkeleton keeps of a Go file's result what resolve.GoImplements reads:
// its path, language and imports, and its types, interfaces and methods
// with their arity. Every other node carries none of the tags that
// function looks at, so it finds the same implementations in either. A C
// or C++ file keeps its cSkeleton (prototypes); nil for a file of another
// language.
func goSkeleton(r *extract.Result) *extract.Result {
	if r != nil && cFamily(r.Language) {
		return cSkeleton(r)
	}
	if r == nil || r.Language != "go" {
		return nil
	}
	sk := &extract.Result{Path: r.Path, Language: r.Language, Imports: r.Imports, Arity: map[string]extract.Arity{}}
	for _, n := range r.Nodes {
		if goTyped(n.Tags) {
			sk.Nodes = append(sk.Nodes, n)
			if a, ok := r.Arity[n.ID]; ok {
				sk.Arity[n.ID] = a
			}
		}
	}
	sk.Nodes = slices.Clip(sk.Nodes)
	return sk
}

// cSkeleton keeps of a C or C++ file's result its functions and methods,
// prototypes tagged so, which is what prototypeEdges reads.
func cSkeleton(r *extract.Result) *extract.Result {
	sk := &extract.Result{Path: r.Path, Language: r.Language}
	for _, n := range r.Nodes {
		if slices.Contains(n.Tags, extract.KindFunction) || slices.Contains(n.Tags, extract.KindMethod) {
			sk.Nodes = append(sk.Nodes, extract.Node{ID: n.ID, Tags: n.Tags})
		}
	}
	sk.Nodes = slices.Clip(sk.Nodes)
	return sk
}

// goTyped says whether tags name a node interface satisfaction reads.
func goTyped(tags []string) bool {
	return slices.ContainsFunc(tags, func(t string) bool {
		switch t {
		case extract.KindInterface, extract.KindStruct, extract.KindTypeAlias, extract.KindMethod, "abstract":
			return true
		}
		return false
	})
}

// newLayout records a full build.
func newLayout(inc []included, h *gitmeta.History, g *graph.Graph, rc *resolveCache, ws *workspace.Info) *layout {
	l := &layout{files: make([]fileLayout, len(inc)), byPath: make(map[string]int, len(inc)), ownSources: true, history: h,
		gen: g.Generation(), resolved: rc, ws: ws}
	for i := range inc {
		f := &inc[i]
		lo, hi := graph.NoNode, graph.NodeID(0)
		for _, id := range f.nodes {
			if id != graph.NoNode {
				lo, hi = min(lo, id), max(hi, id+1)
			}
		}
		// The skeleton holds every node and arity the signature reads, in
		// the same order, so it signs as the whole extraction would.
		l.files[i] = fileLayout{
			path: f.path, lang: f.lang, hash: f.fr.entry.Hash, lo: lo, hi: hi,
			time: f.time, freq: f.freq, failed: f.fr.failed, collisions: f.collisions,
			imports: f.imports, refs: f.refs, derivedSig: derivedSignature(f.goSkel, f.imports), goSkel: f.goSkel,
		}
		l.byPath[f.path] = i
		l.ownSources = l.ownSources && f.ownEdges
	}
	return l
}

// keepFacts takes what is read of f's extraction after resolve's parallel
// pass: its Go skeleton (derived edges, the layout's signature) and
// whether its edges all start in the file (the layout). Called by that
// pass, just before the extraction is released.
func (f *included) keepFacts() {
	res := f.fr.res
	f.goSkel, f.ownEdges = goSkeleton(res), ownEdges(res)
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

// runKey identifies what a run's output depends on besides file contents:
// the root, the options, and the git HEAD.
func runKey(req *adapter.Request, wr *walk.Result) string {
	head := ""
	if wr.RepoRoot != "" && !req.NoGit {
		h, err := gitmeta.HeadState(wr.RepoRoot)
		if err != nil {
			return "" // unknown: never reuse
		}
		head = h
	}
	return optsKey(req, wr) + "|" + head
}

// runKey is runKey(&r.req, r.wr), computed once per run.
func (r *run) runKey() string {
	if r.key == nil {
		k := runKey(&r.req, r.wr)
		r.key = &k
	}
	return *r.key
}

// publicKey is the run's RootInfo.RunKey: its runKey with the build of the
// extractors (cache.Version) that made the graph, digested ("" when the
// HEAD could not be told).
func (r *run) publicKey() string {
	k := r.runKey()
	if k == "" {
		return ""
	}
	return digest(k + "|" + cache.Version())
}

// optsKey is runKey without the git HEAD: what a patched graph must share
// with the graph it starts from (history may move; the patch re-reads it).
func optsKey(req *adapter.Request, wr *walk.Result) string {
	return fmt.Sprintf("%s|%v|%s|%d|%d|%v", wr.Root, req.IncludeDotfiles, strings.Join(req.DotfilePatterns, ","),
		req.MaxCommits, req.MaxNodes, req.NoGit)
}

// unchanged returns the previous output when an incremental ingest finds
// every file as the previous run left it (same paths, sizes and mtimes) and
// nothing else moved. The graph is the same object the previous run
// returned, so a server that kept it keeps its learned weights as they are.
func (r *run) unchanged() *adapter.Output {
	if !r.incremental {
		return nil
	}
	last, ok := r.store.Extra(lastRunKey).(*lastRun)
	if !ok || last == nil {
		return nil
	}
	g := last.graph.Value()
	if g == nil {
		return nil
	}
	if len(r.store.Paths()) != len(r.wr.Files) {
		return nil
	}
	for _, f := range r.wr.Files {
		e, ok := r.store.Entry(f.Rel)
		if !ok || e.Size != f.Size || e.MTimeNS != f.ModTimeNS {
			return nil
		}
	}
	if key := r.runKey(); key == "" || key != last.key {
		return nil
	}
	st := last.stats
	st.Languages = cloneMap(st.Languages)
	st.PhaseMs = map[string]float64{"walk": ms(time.Since(r.start))}
	st.Warnings = slices.Clone(st.Warnings)
	st.Incremental = &adapter.IncrementalStats{Reused: len(r.wr.Files), Restored: last.restored}
	if st.GitHistory != "" {
		st.GitHistory = "kept"
	}
	st.ElapsedMs = ms(time.Since(r.start))
	return &adapter.Output{Graph: g, Stats: st, Commits: last.commits, Root: last.root}
}

// restored returns the graph the caller serves (Request.Previous) when an
// incremental ingest finds the tree as that graph was built from: every
// walked file with the size and modification time Previous.Files stamps
// (or, for a file without text, the cache manifest's), none missing, and
// the same RunKey (options, git HEAD, extractor build). This is a restart
// with nothing changed on disk: the cost is the walk (a stat per file),
// the HEAD lookup and the history's commits mapped onto the graph (the
// history from the cache directory when HEAD has not moved) — nothing is
// extracted, resolved or finalized again. The graph has no layout for the
// patch path, so the first change after it rebuilds (RestoredGraph).
func (r *run) restored() *adapter.Output {
	prev := r.req.Previous
	if !r.incremental || prev == nil || prev.RunKey == "" || r.wr.Truncated != "" {
		return nil
	}
	g := prev.Graph
	if g == nil || !g.Finalized() || g.NumNodes() == 0 {
		return nil
	}
	seen := 0
	for _, f := range r.wr.Files {
		if st, ok := prev.Files[f.Rel]; ok {
			if st.Size != f.Size || st.MTimeNS != f.ModTimeNS {
				return nil
			}
			seen++
			continue
		}
		// No text in the graph: binary or undecodable when last read, and
		// untouched since.
		e, ok := r.store.Entry(f.Rel)
		if !ok || e.Kind == cache.Text || e.Size != f.Size || e.MTimeNS != f.ModTimeNS {
			return nil
		}
	}
	if seen != len(prev.Files) || r.publicKey() != prev.RunKey {
		return nil
	}
	if r.wr.RepoRoot != "" && !r.req.NoGit {
		h, from, err := readHistory(r.ctx, r.store, r.wr, r.req.MaxCommits)
		if err != nil {
			if r.ctx.Err() != nil {
				return nil
			}
			r.warn(fmt.Sprintf("git history unavailable (%v); the graph is served without its commits", err))
		}
		r.hist, r.st.GitHistory = h, from
	}
	r.graphStats(g)
	r.st.FilesParsed = len(prev.Files)
	r.st.Incremental.Reused = len(r.wr.Files)
	r.st.Incremental.Restored = true
	out := r.output(g, func(h *gitmeta.History) []history.Commit { return commitsOf(h, g) })
	r.st.ElapsedMs = ms(time.Since(r.start))
	out.Stats = r.st
	st := r.st
	st.Languages = cloneMap(st.Languages)
	r.store.SetExtra(lastRunKey, &lastRun{
		key: r.runKey(), optsKey: optsKey(&r.req, r.wr), walk: r.wr, graph: weak.Make(g), stats: st,
		commits: out.Commits, root: out.Root, restored: true,
	})
	return out
}

// remember keeps a complete output for the shortcut.
func remember(store *cache.Store, req *adapter.Request, wr *walk.Result, out *adapter.Output, lay *layout) {
	if out.Stats.Partial {
		store.SetExtra(lastRunKey, (*lastRun)(nil))
		return
	}
	st := out.Stats
	st.Languages = cloneMap(st.Languages)
	store.SetExtra(lastRunKey, &lastRun{
		key: runKey(req, wr), optsKey: optsKey(req, wr), layout: lay, walk: wr, graph: weak.Make(out.Graph), stats: st,
		commits: out.Commits, root: out.Root,
	})
}

func cloneMap[K comparable, V any](m map[K]V) map[K]V {
	out := make(map[K]V, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}
