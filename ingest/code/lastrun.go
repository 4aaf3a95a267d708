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
}

// newLayout records a full build.
func newLayout(inc []included, h *gitmeta.History, g *graph.Graph, rc *resolveCache, ws *workspace.Info) *layout {
	l := &layout{files: make([]fileLayout, len(inc)), byPath: make(map[string]int, len(inc)), ownSources: true, history: h,
		gen: g.Generation(), resolved: rc, ws: ws}
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
			imports: f.imports, refs: f.refs, derivedSig: derivedSignature(res, f.imports),
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
	if key := runKey(&r.req, r.wr); key == "" || key != last.key {
		return nil
	}
	st := last.stats
	st.Languages = cloneMap(st.Languages)
	st.PhaseMs = map[string]float64{"walk": ms(time.Since(r.start))}
	st.Warnings = slices.Clone(st.Warnings)
	st.Incremental = &adapter.IncrementalStats{Reused: len(r.wr.Files)}
	st.ElapsedMs = ms(time.Since(r.start))
	return &adapter.Output{Graph: g, Stats: st, Commits: last.commits, Root: last.root}
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
