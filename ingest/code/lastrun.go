package code

import (
	"fmt"
	"slices"
	"strings"
	"time"
	"weak"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/ingest/adapter"
	"github.com/m1nd-go/m1nd/ingest/cache"
	"github.com/m1nd-go/m1nd/ingest/gitmeta"
	"github.com/m1nd-go/m1nd/ingest/walk"
)

// lastRunKey keys the previous output kept in a cache store.
const lastRunKey = "code.last"

// lastRun is the previous complete output of a store. The graph is held
// weakly: once the caller has let go of it, nothing is kept alive for this
// shortcut.
type lastRun struct {
	key          string
	optsKey      string
	layout       *layout // nil: the patch path has nothing to start from
	graph        weak.Pointer[graph.Graph]
	stats        adapter.Stats
	commitGroups [][]string
	root         adapter.RootInfo
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
func unchanged(store *cache.Store, req *adapter.Request, wr *walk.Result, start time.Time) *adapter.Output {
	last, ok := store.Extra(lastRunKey).(*lastRun)
	if !ok || last == nil {
		return nil
	}
	g := last.graph.Value()
	if g == nil {
		return nil
	}
	paths := store.Paths()
	if len(paths) != len(wr.Files) {
		return nil
	}
	for _, f := range wr.Files {
		e, ok := store.Entry(f.Rel)
		if !ok || e.Size != f.Size || e.MTimeNS != f.ModTimeNS {
			return nil
		}
	}
	if key := runKey(req, wr); key == "" || key != last.key {
		return nil
	}
	st := last.stats
	st.Languages = cloneMap(st.Languages)
	st.PhaseMs = map[string]float64{"walk": float64(time.Since(start).Microseconds()) / 1000}
	st.Warnings = slices.Clone(st.Warnings)
	st.Incremental = &adapter.IncrementalStats{Reused: len(wr.Files)}
	st.ElapsedMs = float64(time.Since(start).Microseconds()) / 1000
	return &adapter.Output{Graph: g, Stats: st, CommitGroups: last.commitGroups, Root: last.root}
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
		key: runKey(req, wr), optsKey: optsKey(req, wr), layout: lay, graph: weak.Make(out.Graph), stats: st,
		commitGroups: out.CommitGroups, root: out.Root,
	})
}

func cloneMap[K comparable, V any](m map[K]V) map[K]V {
	out := make(map[K]V, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}
