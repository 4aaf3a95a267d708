// Package adapter defines what every ingest adapter implements and the
// registry the ingest tool picks adapters from by name ("code", "memory",
// "json"; the document adapters of a later issue register the same way).
//
// An adapter turns a path into a finalized graph plus statistics. It does
// not know about the graph a server already holds: replacing or merging,
// namespaces on top of its own, and carrying learned weights over are done
// once, by ingest.Run, for every adapter.
package adapter

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/history"
	"github.com/m1nd-go/m1nd/ingest/cache"
)

// Adapter ingests one kind of source.
type Adapter interface {
	// Name is the registry key, as the ingest tool's "adapter" argument
	// spells it ("code", "memory", "json").
	Name() string
	// Domain is the domain of the produced nodes ("code", "memory",
	// "generic", "document"; docs/design.md#adapters).
	Domain() string
	// Ingest reads req.Root and returns a finalized graph. Budgets
	// (req.MaxNodes, req.Timeout) end the work early with a consistent
	// partial graph and Stats.Partial set; cancellation of ctx returns
	// ctx's error.
	Ingest(ctx context.Context, req Request) (*Output, error)
}

// Request is what an adapter is asked to ingest. Adapters ignore the fields
// that do not concern them (the code adapter ignores Namespace, the memory
// adapter ignores the git and cache fields).
type Request struct {
	// Root is the file or directory to ingest.
	Root string
	// Namespace prefixes the external IDs of non-code nodes and is their
	// provenance namespace.
	Namespace string

	// MaxNodes stops building when the graph reaches it (0 = DefaultMaxNodes).
	MaxNodes int
	// Timeout bounds the whole ingest (0 = DefaultTimeout).
	Timeout time.Duration
	// Parallelism bounds concurrent file extraction (0 = GOMAXPROCS).
	Parallelism int

	// IncludeDotfiles and DotfilePatterns admit hidden files (see
	// walk.Options).
	IncludeDotfiles bool
	DotfilePatterns []string
	// MaxCommits bounds the git history read (0 or <0: the whole
	// first-parent history); NoGit skips git enrichment altogether.
	MaxCommits int
	NoGit      bool

	// Incremental re-extracts only files whose size, mtime or content
	// changed since the ingest that filled the cache; the result equals a
	// full ingest. It needs Cache or CacheDir.
	Incremental bool
	// CacheDir holds the manifest and per-file extraction results. A full
	// ingest with CacheDir set fills it.
	CacheDir string
	// Cache, when set, keeps the cache in memory across runs (the server
	// holds one per runtime directory) so an incremental ingest reads from
	// disk only what changed. It takes precedence over CacheDir.
	Cache *cache.Store

	// Progress, when set, receives progress reports; it is called from one
	// goroutine at a time and should return quickly.
	Progress func(Progress)

	// Previous, with Incremental, is a graph the caller already serves for
	// Root and what it was built from, kept beside it (a snapshot's): when
	// the run finds the same RunKey and every file as Files stamps it, it
	// returns Previous.Graph itself — nothing extracted, resolved or
	// finalized again — even in a process that never ingested Root (a
	// restart). Stats.Incremental.Restored says it did.
	Previous *Previous

	// OnSource, when set, is called from the code adapter's parse workers
	// with each file they read, while they hold its bytes (the server cuts
	// the seek index's body documents there: no second read). It runs
	// concurrently and should be quick. Data is the read's own buffer,
	// neither reused nor written after the call: OnSource may keep it
	// (the server keeps a small tree's, to cut after the answer), but
	// must not change it.
	OnSource func(Source)
}

// Source is a file the code adapter read (Request.OnSource).
type Source struct {
	Rel           string // root-relative, '/'-separated
	Size, MTimeNS int64  // as the walk's lstat showed
	Data          []byte
	// Lines are the first and last lines (1-based) of the entities
	// extracted from it: nil for binary or undecodable contents.
	Lines [][2]uint32
}

// Previous is a served graph and what it was built from (Request.Previous).
type Previous struct {
	Graph *graph.Graph
	// RunKey is the RootInfo.RunKey of the run that built Graph.
	RunKey string
	// Files are the size and modification time of the text files Graph was
	// built from, by root-relative path ('/'-separated).
	Files map[string]FileStamp
}

// FileStamp is what a stat of a file showed.
type FileStamp struct {
	Size    int64
	MTimeNS int64
}

// Defaults of the ingest budgets (docs/design.md#ingest).
const (
	DefaultMaxNodes = 500_000
	DefaultTimeout  = 300 * time.Second
)

// Budget returns the effective node budget and deadline of a request.
func (r *Request) Budget(start time.Time) (maxNodes int, deadline time.Time) {
	maxNodes = r.MaxNodes
	if maxNodes <= 0 {
		maxNodes = DefaultMaxNodes
	}
	t := r.Timeout
	if t <= 0 {
		t = DefaultTimeout
	}
	return maxNodes, start.Add(t)
}

// Report sends a progress report when a callback is set.
func (r *Request) Report(p Progress) {
	if r.Progress != nil {
		r.Progress(p)
	}
}

// Output is what an adapter produced.
type Output struct {
	// Graph is finalized (CSR and PageRank built).
	Graph *graph.Graph
	Stats Stats
	// Commits are the git commits that changed files of the graph (newest
	// first), each with the external IDs of the file nodes it changed: the
	// co-change matrix's input and the history predict and timeline read.
	Commits []history.Commit
	Root    RootInfo
}

// RootInfo describes the ingested root.
type RootInfo struct {
	// Path is the absolute path ingested.
	Path string `json:"path"`
	// GitRoot is the work tree containing Path ("" outside git).
	GitRoot     string  `json:"git_root,omitempty"`
	GitBranch   string  `json:"git_branch,omitempty"`
	GitHead     string  `json:"git_head,omitempty"`
	GitHeadTime float64 `json:"git_head_time,omitempty"`
	GitDetached bool    `json:"git_detached,omitempty"`
	GitShallow  bool    `json:"git_shallow,omitempty"`
	// RunKey names what a complete run's graph depends on besides the
	// contents of its files (root, options, git HEAD, the extractor
	// build); "" for a partial run. A caller keeps it beside the graph to
	// hand back as Previous.RunKey.
	RunKey string `json:"-"`
}

// Stats are what an ingest counted, and what agents and the CLI need to
// judge it. Counts are of this ingest's output graph.
type Stats struct {
	Adapter string `json:"adapter"`

	FilesScanned int `json:"files_scanned"`
	// FilesParsed are files whose nodes are in the graph.
	FilesParsed          int `json:"files_parsed"`
	FilesSkippedBinary   int `json:"files_skipped_binary"`
	FilesSkippedEncoding int `json:"files_skipped_encoding"`
	FilesSkippedLarge    int `json:"files_skipped_large,omitempty"`
	FilesIgnored         int `json:"files_ignored,omitempty"`
	// FilesFailed are files whose extractor failed; they still have their
	// file node (generic fallback).
	FilesFailed int `json:"files_failed,omitempty"`
	// Languages counts parsed files per language.
	Languages map[string]int `json:"languages"`

	NodesCreated int `json:"nodes_created"`
	// EdgesCreated counts distinct edges (a bidirectional edge once).
	EdgesCreated int `json:"edges_created"`
	// References resolved (including ambiguous ones, which were bound to
	// the best guess), ambiguous, and unresolved (no edge created).
	ReferencesResolved   int `json:"references_resolved"`
	ReferencesAmbiguous  int `json:"references_ambiguous"`
	ReferencesUnresolved int `json:"references_unresolved"`
	// LabelCollisions counts nodes dropped because their external ID was
	// already taken.
	LabelCollisions int `json:"label_collisions"`
	// TestLinks and Packages count the enrichment edges and nodes.
	TestLinks int `json:"test_links,omitempty"`
	Packages  int `json:"packages,omitempty"`

	CommitsRead  int `json:"commits_read,omitempty"`
	CommitGroups int `json:"commit_groups"`
	// GitHistory says where the git history came from: "read" (the
	// repository's commits walked), "kept" (this process's copy for the
	// same HEAD), "cached" (the ingest cache's copy on disk for the same
	// HEAD) or "extended" (a cached copy for an earlier HEAD plus the
	// commits since); "" outside git.
	GitHistory string `json:"git_history,omitempty"`

	ElapsedMs float64            `json:"elapsed_ms"`
	PhaseMs   map[string]float64 `json:"phase_ms,omitempty"`

	// Partial is set when a budget stopped the ingest early; the graph is
	// consistent but incomplete. BudgetExhausted says which ("timeout",
	// "max_nodes").
	Partial         bool   `json:"partial"`
	BudgetExhausted string `json:"budget_exhausted,omitempty"`

	Incremental *IncrementalStats `json:"incremental,omitempty"`
	// Warnings explain degraded results (unreadable manifests, a broken git
	// repository, an incremental ingest that had to run in full).
	Warnings []string `json:"warnings,omitempty"`

	// GraphNodes and GraphEdges are the totals of the graph the ingest
	// tool leaves in place (after merging, they include what was there).
	GraphNodes int `json:"graph_nodes"`
	GraphEdges int `json:"graph_edges"`
}

// IncrementalStats describe an incremental ingest.
type IncrementalStats struct {
	Reused    int `json:"reused"`
	Changed   int `json:"changed"`
	Added     int `json:"added"`
	Deleted   int `json:"deleted"`
	Unchanged int `json:"unchanged_rehashed,omitempty"` // mtime moved, content did not
	// Full is set when the incremental request ran as a full ingest, with
	// the reason in FullReason.
	Full       bool   `json:"full,omitempty"`
	FullReason string `json:"full_reason,omitempty"`
	// Patched is set when the previous graph was patched in place of a
	// rebuild (a few files changed their contents); otherwise
	// RebuildReason says why the graph was rebuilt.
	Patched       bool   `json:"patched,omitempty"`
	RebuildReason string `json:"rebuild_reason,omitempty"`
	// WalkHinted is set when the caller had just stat'ed the files and the
	// tree was not walked again (code.WithWalkHint).
	WalkHinted bool `json:"walk_hinted,omitempty"`
	// Prepared counts the changed files whose extraction was made ahead,
	// while they were being written (code.Prepare), and not parsed again.
	Prepared int `json:"prepared,omitempty"`
	// Restored is set when the graph the caller serves (Request.Previous,
	// loaded from a snapshot) was returned as it is: every file as it was
	// built from and the same RunKey, found by a walk of stats.
	Restored bool `json:"restored,omitempty"`
}

// Phase names the stage an ingest is in.
type Phase string

// Phases in order.
const (
	PhaseWalk     Phase = "walk"
	PhaseExtract  Phase = "extract"
	PhaseBuild    Phase = "build"
	PhaseResolve  Phase = "resolve"
	PhaseEnrich   Phase = "enrich"
	PhaseFinalize Phase = "finalize"
	PhaseDone     Phase = "done"
)

// Progress is one progress report: Done of Total units (files, or
// references in the resolve phase) in Phase.
type Progress struct {
	Phase Phase `json:"phase"`
	Done  int   `json:"done"`
	Total int   `json:"total"`
}

// Registry maps adapter names to adapters. It is safe for concurrent use.
type Registry struct {
	mu      sync.RWMutex
	byName  map[string]Adapter
	aliases map[string]string
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry {
	return &Registry{byName: map[string]Adapter{}, aliases: map[string]string{}}
}

// Register adds an adapter under its name and optional aliases. A name or
// alias already taken is an error.
func (r *Registry) Register(a Adapter, aliases ...string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, n := range append([]string{a.Name()}, aliases...) {
		k := strings.ToLower(n)
		if _, ok := r.byName[k]; ok {
			return fmt.Errorf("adapter %q is already registered", n)
		}
		if _, ok := r.aliases[k]; ok {
			return fmt.Errorf("adapter name %q is already an alias", n)
		}
	}
	r.byName[strings.ToLower(a.Name())] = a
	for _, al := range aliases {
		r.aliases[strings.ToLower(al)] = strings.ToLower(a.Name())
	}
	return nil
}

// Lookup finds an adapter by name or alias, case-insensitively. The error
// lists the available names.
func (r *Registry) Lookup(name string) (Adapter, error) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	k := strings.ToLower(strings.TrimSpace(name))
	if al, ok := r.aliases[k]; ok {
		k = al
	}
	if a, ok := r.byName[k]; ok {
		return a, nil
	}
	return nil, fmt.Errorf("unknown adapter %q: available adapters are %s", name, strings.Join(r.namesLocked(), ", "))
}

// Names lists the registered adapter names, sorted.
func (r *Registry) Names() []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.namesLocked()
}

func (r *Registry) namesLocked() []string {
	out := make([]string, 0, len(r.byName))
	for n := range r.byName {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// Phases lists the phases in order (for progress displays).
func Phases() []Phase {
	return slices.Clone([]Phase{PhaseWalk, PhaseExtract, PhaseBuild, PhaseResolve, PhaseEnrich, PhaseFinalize, PhaseDone})
}

// CountEdges returns the number of distinct edges of a finalized graph: a
// bidirectional edge, stored twice in the CSR, counts once.
func CountEdges(g *graph.Graph) int { return g.NumPrimaryEdges() }
