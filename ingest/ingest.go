// Package ingest turns a repository, a memory corpus or a graph descriptor
// into the property graph of core/graph. It is the one entry point the MCP
// server and the CLI call:
//
//	out, err := ingest.Run(ctx, ingest.Config{Root: "/src/project"}, current)
//	// out.Graph is finalized; swap it in under the write lock.
//	// out.Commits seed the co-change matrix; out.Stats is the response.
//
// The adapter named by Config.Adapter ("code", "memory", "json"; see
// Adapters) produces a fresh graph. Run then applies the mode: "replace"
// returns that graph, "merge" returns a copy of the existing graph with the
// new nodes and edges merged in (same external ID → updated in place) and
// re-finalized. An incremental code ingest re-extracts only changed files
// and carries the learned weights of the existing graph over to the edges
// that still exist, matched by (source, target, relation).
package ingest

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/history"
	"github.com/m1nd-go/m1nd/core/plasticity"
	"github.com/m1nd-go/m1nd/ingest/adapter"
	"github.com/m1nd-go/m1nd/ingest/cache"
	"github.com/m1nd-go/m1nd/ingest/code"
	"github.com/m1nd-go/m1nd/ingest/document"
	"github.com/m1nd-go/m1nd/ingest/extract"
)

// Re-exported so callers need only this package.
type (
	// Stats are the ingest statistics.
	Stats = adapter.Stats
	// Progress is one progress report.
	Progress = adapter.Progress
	// Phase names an ingest phase.
	Phase = adapter.Phase
	// RootInfo describes the ingested root (git branch, HEAD, ...).
	RootInfo = adapter.RootInfo
	// Adapter is implemented by every ingest adapter.
	Adapter = adapter.Adapter
	// Cache keeps incremental state in memory between runs.
	Cache = cache.Store
	// Previous is a served graph and what it was built from
	// (Config.Previous).
	Previous = adapter.Previous
	// FileStamp is a file's size and modification time.
	FileStamp = adapter.FileStamp
)

// Mode says what happens to the graph already loaded.
type Mode string

const (
	// Replace discards the existing graph (the default).
	Replace Mode = "replace"
	// Merge adds the new nodes and edges to the existing graph.
	Merge Mode = "merge"
)

// Config is one ingest request. Only Root is required.
type Config struct {
	// Root is the directory (or file) to ingest: a source tree for
	// "code", a directory or file of markdown/text for "memory", a JSON
	// descriptor for "json".
	Root string
	// Adapter is the registry name ("code" when empty).
	Adapter string
	// Mode is Replace (default) or Merge.
	Mode Mode
	// Namespace prefixes the external IDs of memory and json nodes
	// ("{namespace}::{id}" for json, "memory::{namespace}::..." for
	// memory). Code node IDs (docs/design.md#node-identity) ignore it.
	Namespace string

	// Incremental re-extracts only changed files (code adapter only) and
	// keeps the learned weights of existing edges. It needs CacheDir or
	// Cache; without a usable cache it runs in full and says so in
	// Stats.Incremental.
	Incremental bool
	// CacheDir is where per-file results and the manifest live (the
	// server's runtime directory). Full code ingests with CacheDir set
	// fill it for later incremental runs.
	CacheDir string
	// Cache keeps the same state in memory across runs; see NewCache.
	Cache *Cache
	// Previous, with Incremental, is the graph the caller serves for Root
	// and what it was built from: returned as it is when nothing changed
	// since (a restart; see adapter.Request.Previous).
	Previous *Previous

	IncludeDotfiles bool
	DotfilePatterns []string

	// MaxNodes (default 500,000) and Timeout (default 300 s) stop the
	// build early with a partial, consistent graph (Stats.Partial).
	MaxNodes int
	Timeout  time.Duration
	// MaxCommits bounds the git history read (0 or <0: the whole
	// first-parent history; ingest warns when a bound cut it).
	MaxCommits int
	// Parallelism bounds concurrent extraction (default GOMAXPROCS).
	Parallelism int

	// Progress receives progress reports (phase, done, total).
	Progress func(Progress)

	// Registry resolves Adapter (default: Adapters()).
	Registry *adapter.Registry

	// OnSource receives each source file the code adapter reads, with
	// its bytes (see adapter.Request.OnSource).
	OnSource func(Source)
}

// Source is a file the code adapter read (Config.OnSource).
type Source = adapter.Source

// Output is the result of Run.
type Output struct {
	// Graph is finalized and ready to serve. In merge mode it is a new
	// graph; the existing one passed to Run is never modified.
	Graph *graph.Graph
	Stats Stats
	// Commits are the git commits (newest first) with the external IDs of
	// the file nodes each changed: the input of the co-change matrix
	// (core/temporal) and of core/history.
	Commits []history.Commit
	Root    RootInfo
	// WeightsCarried counts learned edge states carried over from the
	// existing graph (incremental ingests).
	WeightsCarried int
}

// ReleaseMemory returns the memory a finished ingest no longer needs to the
// system (Go and C heaps) when the ingest was large enough for that to pay
// (ReleaseWorth), and reports whether it did: a long-lived server calls it
// after each ingest so its footprint follows the graph it serves, not the
// ingests it ran.
func ReleaseMemory(st Stats) bool {
	if !ReleaseWorth(st) {
		return false
	}
	extract.ReleaseMemory()
	return true
}

// releaseMinElements is the graph size (nodes + edges built) from which an
// ingest's garbage is worth a forced release. The release is a full
// collection (it marks the whole live heap) and a scavenge: ≈ 73 ms of CPU
// after a py-335 ingest (17 K nodes + edges; its heap peaks near 40 MB,
// and the runtime's background scavenger returns that much on its own),
// against the 300–400 MB that go-std's ingest (855 K) leaves to return.
const releaseMinElements = 100_000

// ReleaseWorth reports whether ReleaseMemory pays after an ingest with
// these stats: a full build of at least releaseMinElements nodes and
// edges. A patch (stats.incremental.patched) re-extracted a few files,
// whatever the size of the graph it counts, so it never does.
func ReleaseWorth(st Stats) bool {
	if st.Incremental != nil && st.Incremental.Patched {
		return false
	}
	return st.NodesCreated+st.EdgesCreated >= releaseMinElements
}

// FileStat is what a stat of a file showed (WithWalkHint).
type FileStat = code.Stat

// WithWalkHint returns ctx for an incremental code ingest of root (Run
// with it) by a caller that has just stat'ed the files of the root's last
// run (stats, by root-relative path: those that changed at least) and
// found that no directory holding them gained or lost an entry: the ingest
// takes the last walk with these stats instead of walking the tree again,
// and walks as usual when they do not fit it (see code.WithWalkHint).
func WithWalkHint(ctx context.Context, root string, stats map[string]FileStat) context.Context {
	return code.WithWalkHint(ctx, root, stats)
}

// WithWalkChanges is WithWalkHint for a caller that also saw files come
// and go in directories it read (none of them new): added and removed are
// root-relative paths, stats holds the added files' stats too. The ingest
// takes the last walk with those changes, and walks as usual when they do
// not fit it (see code.WithWalkChanges).
func WithWalkChanges(ctx context.Context, root string, stats map[string]FileStat, added, removed []string) context.Context {
	return code.WithWalkChanges(ctx, root, stats, added, removed)
}

// Prepare extracts the contents a file of a code root is about to have
// (rel is root-relative) and keeps the result in the root's cache, so the
// next incremental ingest that reads exactly these contents does not parse
// them again: an edit tool calls it while its write waits on fsync.
func Prepare(c *Cache, rel string, data []byte) { code.Prepare(c, rel, data) }

// NewCache returns a cache bound to dir, to pass as Config.Cache on every
// ingest of one root: it keeps per-file results in memory and on disk
// under dir (with dir "" in memory only). Ingests sharing a cache run one
// at a time.
func NewCache(dir string) *Cache { return cache.Open(dir) }

// Run ingests cfg.Root with the configured adapter and applies the mode to
// existing (which may be nil and is never modified). Errors say what to
// change in the request.
func Run(ctx context.Context, cfg Config, existing *graph.Graph) (*Output, error) {
	if strings.TrimSpace(cfg.Root) == "" {
		return nil, errors.New("ingest: path is empty; pass the directory (or file) to ingest, e.g. {\"path\": \"/abs/path/to/repo\"}")
	}
	mode := cfg.Mode
	switch strings.ToLower(string(mode)) {
	case "", string(Replace):
		mode = Replace
	case string(Merge):
		mode = Merge
	default:
		return nil, fmt.Errorf("ingest: unknown mode %q; use \"replace\" (rebuild the graph) or \"merge\" (add to the current graph)", cfg.Mode)
	}
	reg := cfg.Registry
	if reg == nil {
		reg = Adapters()
	}
	name := cfg.Adapter
	if name == "" {
		name = "code"
	}
	a, err := reg.Lookup(name)
	if err != nil {
		return nil, fmt.Errorf("ingest: %w", err)
	}
	if cfg.Incremental && a.Name() != "code" {
		return nil, fmt.Errorf("ingest: incremental ingest is supported by the code adapter only, not %q; drop \"incremental\" or use adapter \"code\"", a.Name())
	}
	start := time.Now()
	out, err := a.Ingest(ctx, adapter.Request{
		Root:            cfg.Root,
		Namespace:       cfg.Namespace,
		MaxNodes:        cfg.MaxNodes,
		Timeout:         cfg.Timeout,
		Parallelism:     cfg.Parallelism,
		IncludeDotfiles: cfg.IncludeDotfiles,
		DotfilePatterns: cfg.DotfilePatterns,
		MaxCommits:      cfg.MaxCommits,
		Incremental:     cfg.Incremental,
		CacheDir:        cfg.CacheDir,
		Cache:           cfg.Cache,
		Progress:        cfg.Progress,
		Previous:        cfg.Previous,
		OnSource:        cfg.OnSource,
	})
	if err != nil {
		return nil, err
	}
	res := &Output{Graph: out.Graph, Stats: out.Stats, Commits: out.Commits, Root: out.Root}

	if mode == Merge && existing != nil && existing.NumNodes() > 0 {
		merged, bridged, err := MergeGraphs(existing, out.Graph)
		if err != nil {
			return nil, err
		}
		res.Graph = merged
		res.Stats.ReferencesResolved += bridged
	} else if cfg.Incremental && existing != nil && existing.Finalized() && existing != res.Graph {
		n, err := CarryWeights(existing, res.Graph)
		if err != nil {
			res.Stats.Warnings = append(res.Stats.Warnings, "learned weights not carried over: "+err.Error())
		}
		res.WeightsCarried = n
	}
	res.Stats.GraphNodes = res.Graph.NumNodes()
	res.Stats.GraphEdges = adapter.CountEdges(res.Graph)
	res.Stats.ElapsedMs = max(res.Stats.ElapsedMs, float64(time.Since(start).Microseconds())/1000)
	return res, nil
}

// MergeGraphs returns a new finalized graph holding base and add (a node
// of add with an external ID base has updates it), with the file
// references of notes bridged to code files; it also returns how many
// bridges it added. Neither input is modified.
func MergeGraphs(base, add *graph.Graph) (*graph.Graph, int, error) {
	merged := base.Clone()
	if err := merged.Merge(add); err != nil {
		return nil, 0, fmt.Errorf("ingest: merging into the current graph: %w", err)
	}
	csrNodes := 0
	if base.Finalized() {
		csrNodes = base.NumNodes()
	}
	bridged := bridgeReferences(merged, csrNodes)
	bridged += document.Bind(merged) // document sections ↔ the code they name
	merged.Finalize()
	return merged, bridged, nil
}

// CarryWeights copies the learned state (weight, original weight,
// strengthen/weaken counts, LTP/LTD flags) of every edge of from that has
// learned something onto the edge of to with the same (source external ID,
// target external ID, relation). Edges that no longer exist are dropped.
// Both graphs must be finalized. It returns the number of edges updated.
func CarryWeights(from, to *graph.Graph) (int, error) {
	eng, err := plasticity.New(plasticity.DefaultParams())
	if err != nil {
		return 0, err
	}
	states := eng.ExportState(from)
	if len(states) == 0 {
		return 0, nil
	}
	st, err := eng.ImportState(to, states)
	return st.Applied, err
}
