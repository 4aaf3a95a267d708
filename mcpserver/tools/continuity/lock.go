package continuity

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/m1nd-go/m1nd/core/engine"
	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/mcpserver/continuity"
	"github.com/m1nd-go/m1nd/mcpserver/pathguard"
	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

// The bounds and enums below are continuity's (lock scopes, watcher
// strategies, MaxRadius); TestDeclaredBoundsFollowTheStore holds them
// together.
type lockCreateParams struct {
	Scope         string   `json:"scope" jsonschema:"How the region grows from root_nodes." help:"node (the roots only), subgraph (within radius hops of the roots), query_neighborhood (the roots and the nodes query activates) or path (path_nodes in order)." tool:"required,enum=node|subgraph|query_neighborhood|path"`
	RootNodes     []string `json:"root_nodes" help:"Root nodes of the region (external ids, paths or labels). Non-empty." tool:"required,maxitems=50"`
	Radius        *int     `json:"radius" jsonschema:"Hops around the roots (subgraph scope)." help:"Hops around the roots (subgraph scope only, where it is required)." tool:"min=1,max=4"`
	Query         string   `json:"query" jsonschema:"Seeds the region (query_neighborhood scope)." help:"The query whose activated nodes form the region (query_neighborhood scope only, required there)."`
	PathNodes     []string `json:"path_nodes" jsonschema:"The path in order (path scope; default root_nodes)." help:"Ordered nodes of the path (path scope; default root_nodes)." tool:"maxitems=100"`
	PerspectiveID string   `json:"perspective_id" jsonschema:"A perspective of yours: closing it releases the lock." help:"Tie the lock to one of your perspectives: perspective_close then releases it." tool:"maxlen=256"`
}

// lockIDParams name a lock (lock_diff, lock_rebase, lock_release);
// lockWatchParams repeat its field (TestSharedParamsAgree).
type lockIDParams struct {
	LockID string `json:"lock_id" help:"The lock (from lock_create)." tool:"required,maxlen=256"`
}

type lockWatchParams struct {
	LockID   string `json:"lock_id" help:"The lock (from lock_create)." tool:"required,maxlen=256"`
	Strategy string `json:"strategy" help:"manual (never), on_ingest (every graph change) or on_learn (every learning change); periodic is not supported." tool:"required,enum=manual|on_ingest|on_learn"`
}

// queryLockTopK is how many activated nodes a query_neighborhood lock
// takes.
const queryLockTopK = 30

func registerLocks(r *tools.Registry) {
	own := " Locks are per agent: only the agent that created a lock sees and uses it. agent_id: 1–64 letters, digits, '-', '_' or '.'."
	tools.Add(r, tools.Tool{
		Name:        "lock_create",
		Title:       "Lock a region",
		Description: "Pin a graph region's baseline so lock_diff can say what changed under it.",
		Details: "Pin a region of the graph and capture its baseline — its nodes (with signatures), the edges inside it and on its boundary with their weights, and the contents (SHA-256) of its files — so that lock_diff can later say what changed under it: after your own edits, another agent's ingest, or learning. " +
			fmt.Sprintf("Scopes: node (the roots only), subgraph (everything within radius hops of the roots, either direction), query_neighborhood (the roots and the top %d nodes a query activates), path (an ordered list of nodes). ", queryLockTopK) +
			fmt.Sprintf("Limits: %d locks per agent, %d nodes and %d edges per baseline, %d files hashed.", continuity.MaxLocksPerAgent, continuity.MaxBaselineNodes, continuity.MaxBaselineEdges, continuity.MaxLockFiles) + own,
		Class:     tools.Write,
		WhenToUse: "Before working on a region for a while, or when other agents may change code you depend on: lock it, then lock_diff to see what moved.",
		AvoidWhen: "One quick look: impact or view answer directly.",
		Next:      []string{"lock_watch", "lock_diff"},
		Example:   map[string]any{"agent_id": "claude", "scope": "subgraph", "root_nodes": []string{"file::backend/session.py"}, "radius": 1},
	}, runLockCreate)
	tools.Add(r, tools.Tool{
		Name:        "lock_watch",
		Title:       "Set a lock's watcher",
		Description: "When a lock records changes for lock_diff: on ingest, on learn, or manual.",
		Details:     "Set when a lock records changes: on_ingest (every graph change: ingest, incremental ingest, merge), on_learn (every learning change), manual (none). Recorded events are reported and drained by the next lock_diff; lock_diff always works whatever the strategy." + own,
		Class:       tools.Write,
		WhenToUse:   "After lock_create, when you want to know whether any ingest or learning happened since your last diff.",
		AvoidWhen:   "You diff after every step anyway.",
		Next:        []string{"lock_diff"},
		Example:     map[string]any{"agent_id": "claude", "lock_id": "lock_claude_001", "strategy": "on_ingest"},
	}, runLockWatch)
	tools.Add(r, tools.Tool{
		Name:        "lock_diff",
		Title:       "What changed under a lock",
		Description: "What changed in a locked region since its baseline; use after ingests or before committing.",
		Details: "Compare a locked region with its baseline: nodes new to the region, removed or changed (edges, extent, file stamp), edges added or removed inside it and on its boundary, weights moved by learning, and locked files whose contents changed on disk (even before a re-ingest). " +
			"When neither the graph nor its learned state changed since the baseline only the files are checked (fast_path). Drains the watcher's events. Suggests lock_rebase when something changed." + own,
		Class:     tools.Write, // drains the watcher's events
		WhenToUse: "After an ingest or learning, before committing, or periodically during long work in a region.",
		AvoidWhen: "You have no lock (lock_create first).",
		Next:      []string{"lock_rebase", "view", "impact"},
		Example:   map[string]any{"agent_id": "claude", "lock_id": "lock_claude_001"},
	}, runLockDiff)
	tools.Add(r, tools.Tool{
		Name:        "lock_rebase",
		Title:       "Rebase a lock",
		Description: "Make the current state a lock's new baseline; use after reviewing lock_diff.",
		Details:     "Take a lock's baseline again from the current graph and files (same scope, roots and radius), keeping the lock and its watcher: the changes a diff reported become the new reference." + own,
		Class:       tools.Write,
		WhenToUse:   "After reviewing a lock_diff (or when it says baseline_stale).",
		AvoidWhen:   "You have not looked at the diff yet: rebasing forgets it.",
		Next:        []string{"lock_diff"},
		Example:     map[string]any{"agent_id": "claude", "lock_id": "lock_claude_001"},
	}, runLockRebase)
	tools.Add(r, tools.Tool{
		Name:        "lock_release",
		Title:       "Release a lock",
		Description: "Drop a lock, its baseline and pending events (irreversible).",
		Details:     "Release a lock and free its baseline and pending watcher events. Irreversible. perspective_close releases the locks tied to the perspective." + own,
		Class:       tools.Write,
		WhenToUse:   "Done with a region, or at the lock limit.",
		AvoidWhen:   "You still want to know what changes there (lock_rebase instead).",
		Next:        []string{"lock_create"},
		Example:     map[string]any{"agent_id": "claude", "lock_id": "lock_claude_001"},
	}, runLockRelease)
}

// diskOf maps a bundle's file node ids to their files on disk (from the
// ingest stamps).
var diskKey = session.NewKey[map[string]string]("continuity.disk")

func diskOf(b *session.Bundle) map[string]string {
	v, _ := session.Derive(b, diskKey, func(*graph.Graph) (map[string]string, error) {
		m := map[string]string{}
		for _, r := range b.Files {
			for _, f := range r.Files {
				m[r.Prefix+f.Rel] = filepath.Join(r.Root, filepath.FromSlash(f.Rel))
			}
		}
		return m, nil
	})
	return v
}

// lockEnv is what locks need from the session: stamps, file lookups and
// file hashing through the path guard.
func lockEnv(c *tools.Call, b *session.Bundle) continuity.Env {
	g := b.Graph
	gen, plas, _ := c.Session.GenerationsOf(b)
	st := c.Session.Continuity()
	disk := diskOf(b)
	graphPath := func(fileID string) string {
		if id, ok := g.Lookup(fileID); ok {
			if p := g.SourcePath(id); p != "" {
				return p
			}
		}
		return strings.TrimPrefix(fileID, "file::")
	}
	return continuity.Env{
		Graph: g, Stamp: stampsOf(b), GraphGen: gen, PlasGen: plas, Epoch: st.Epoch, NowMs: time.Now().UnixMilli(),
		FileOf: func(id graph.NodeID) graph.NodeID {
			if f := tools.FileOf(g, id); g.Type(f) == graph.File {
				return f
			}
			return graph.NoNode
		},
		Stat: func(fileID string) (int64, int64, bool) {
			p, ok := disk[fileID]
			if !ok {
				return 0, 0, false
			}
			fi, err := os.Lstat(p)
			if err != nil {
				return 0, 0, false
			}
			return fi.Size(), fi.ModTime().UnixNano(), true
		},
		Hash: func(fileID string) (continuity.FileHash, bool) {
			gp := graphPath(fileID)
			res, _, _, err := tools.BundleSpace(b).Resolve(tools.BundleGuard(b), gp)
			if err != nil || !res.Exists {
				return continuity.FileHash{}, false
			}
			f, err := pathguard.Open(res)
			if err != nil {
				return continuity.FileHash{}, false
			}
			defer f.Close()
			fi, err := f.Stat()
			if err != nil || !fi.Mode().IsRegular() {
				return continuity.FileHash{}, false
			}
			h := sha256.New()
			if _, err := io.Copy(h, io.LimitReader(f, continuity.MaxHashBytes)); err != nil {
				return continuity.FileHash{}, false
			}
			// The stamp is the one a Stat (by the ingest stamp's path)
			// will compare with.
			size, mt := fi.Size(), fi.ModTime().UnixNano()
			if p, ok := disk[fileID]; ok {
				if lfi, err := os.Lstat(p); err == nil {
					size, mt = lfi.Size(), lfi.ModTime().UnixNano()
				}
			}
			return continuity.FileHash{Path: gp, Size: size, MTimeNS: mt, SHA256: hex.EncodeToString(h.Sum(nil))}, true
		},
	}
}

type lockCreateOutput struct {
	LockID          string   `json:"lock_id"`
	Scope           string   `json:"scope"`
	RootNodes       []string `json:"root_nodes"`
	Radius          int      `json:"radius,omitempty"`
	Query           string   `json:"query,omitempty"`
	PerspectiveID   string   `json:"perspective_id,omitempty"`
	BaselineNodes   int      `json:"baseline_nodes"`
	BaselineEdges   int      `json:"baseline_edges" jsonschema:"Edges with both ends in the region."`
	BoundaryEdges   int      `json:"boundary_edges" jsonschema:"Edges with one end in the region."`
	BaselineFiles   int      `json:"baseline_files" jsonschema:"Files whose contents were hashed."`
	FilesSkipped    int      `json:"files_skipped,omitempty"`
	PathGaps        []string `json:"path_gaps,omitempty" jsonschema:"Consecutive path nodes with no edge between them (path scope)."`
	Strategy        string   `json:"strategy"`
	GraphGeneration uint64   `json:"graph_generation"`
	CreatedAtMs     int64    `json:"created_at_ms"`
	Durable         bool     `json:"durable"`
	tools.Guidance
}

func runLockCreate(c *tools.Call, in lockCreateParams) (lockCreateOutput, error) {
	agent, err := contAgent(c)
	if err != nil {
		return lockCreateOutput{}, err
	}
	if err := checkLockArgs(agent, in); err != nil {
		return lockCreateOutput{}, err
	}
	st := c.Session.Continuity()
	if in.PerspectiveID != "" {
		if err := st.Perspectives.Owns(agent, in.PerspectiveID); err != nil {
			return lockCreateOutput{}, contErr(err)
		}
	}
	var draft continuity.Lock
	var gaps []string
	err = tools.ReadGraph(c, func(b *session.Bundle) error {
		g := b.Graph
		nr := &nodeResolver{b: b, seen: map[string]string{}}
		roots, err := resolveIDs(nr, in.RootNodes, "root_nodes")
		if err != nil {
			return err
		}
		var fixed []graph.NodeID
		switch in.Scope {
		case continuity.ScopePath:
			if len(in.PathNodes) > 0 {
				if fixed, err = resolveIDs(nr, in.PathNodes, "path_nodes"); err != nil {
					return err
				}
			}
		case continuity.ScopeQuery:
			if fixed, err = queryNodes(c, b, in.Query, queryLockTopK); err != nil {
				return err
			}
		}
		radius := 0
		if in.Radius != nil {
			radius = *in.Radius
		}
		nodes, err := continuity.RegionNodes(g, in.Scope, roots, radius, fixed)
		if err != nil {
			return contErr(err)
		}
		base, err := continuity.Capture(lockEnv(c, b), nodes)
		if err != nil {
			return contErr(err)
		}
		draft = continuity.Lock{AgentID: agent, Scope: in.Scope, Roots: idsOf(g, roots), Radius: radius, Query: in.Query, PerspectiveID: in.PerspectiveID, Base: base}
		if in.Scope == continuity.ScopePath {
			gaps = pathGaps(g, pathOrder(roots, fixed))
		}
		return nil
	})
	if err != nil {
		return lockCreateOutput{}, err
	}
	// Written after the read lock is released: an ingest need not wait
	// for the fsync.
	l, err := st.Locks.Create(draft)
	if err != nil {
		return lockCreateOutput{}, contErr(err)
	}
	base := l.Base
	out := lockCreateOutput{
		LockID: l.ID, Scope: l.Scope, RootNodes: l.Roots, Radius: l.Radius, Query: l.Query, PerspectiveID: l.PerspectiveID,
		BaselineNodes: len(base.Nodes), BaselineEdges: len(base.Edges), BoundaryEdges: len(base.Boundary), BaselineFiles: len(base.Files),
		FilesSkipped: base.FilesSkipped, Strategy: l.Strategy, GraphGeneration: base.GraphGen, CreatedAtMs: l.CreatedMs, Durable: st.Persistent(), PathGaps: gaps,
	}
	out.Guidance = tools.Guidance{ProofState: "triaging", NextSuggestedTool: tools.FirstTool(c.Registry, "lock_watch", "lock_diff"), NextSuggestedTarget: l.ID,
		NextStepHint: "Set a watcher (lock_watch on_ingest) if others may re-ingest, and call lock_diff after edits or ingests to see what moved in the region."}
	return out, nil
}

// checkLockArgs refuses parameters that do not fit the scope.
func checkLockArgs(agent string, in lockCreateParams) error {
	ex := func(extra map[string]any) map[string]any {
		m := map[string]any{"agent_id": agent, "scope": in.Scope, "root_nodes": []string{"file::backend/session.py"}}
		for k, v := range extra {
			m[k] = v
		}
		return m
	}
	if len(in.RootNodes) == 0 {
		return tools.Errorf("root_nodes names at least one node the region starts from.", "root_nodes must not be empty").WithExample(ex(map[string]any{"scope": "node"}))
	}
	switch {
	case in.Scope == continuity.ScopeSubgraph && in.Radius == nil:
		return tools.Errorf(fmt.Sprintf("Scope subgraph takes everything within radius hops of the roots: pass radius 1–%d.", continuity.MaxRadius), "radius is required for scope subgraph").WithExample(ex(map[string]any{"radius": 2}))
	case in.Scope != continuity.ScopeSubgraph && in.Radius != nil:
		return tools.Errorf("radius only applies to scope subgraph.", "scope %s takes no radius", in.Scope).WithExample(ex(nil))
	case in.Scope == continuity.ScopeQuery && strings.TrimSpace(in.Query) == "":
		return tools.Errorf("Scope query_neighborhood locks the nodes a query activates: pass query.", "query is required for scope query_neighborhood").WithExample(ex(map[string]any{"query": "session expiry"}))
	case in.Scope != continuity.ScopeQuery && in.Query != "":
		return tools.Errorf("query only applies to scope query_neighborhood.", "scope %s takes no query", in.Scope).WithExample(ex(nil))
	case in.Scope != continuity.ScopePath && len(in.PathNodes) > 0:
		return tools.Errorf("path_nodes only applies to scope path.", "scope %s takes no path_nodes", in.Scope).WithExample(ex(nil))
	}
	return nil
}

func resolveIDs(nr *nodeResolver, refs []string, param string) ([]graph.NodeID, error) {
	var out []graph.NodeID
	for _, r := range refs {
		x, err := nr.ext(r, param)
		if err != nil {
			return nil, err
		}
		id, _ := nr.b.Graph.Lookup(x)
		out = append(out, id)
	}
	return out, nil
}

func idsOf(g *graph.Graph, ids []graph.NodeID) []string {
	out := make([]string, 0, len(ids))
	for _, id := range ids {
		out = append(out, g.ExternalID(id))
	}
	return dedupe(out)
}

// queryNodes are the top nodes a query activates (read-only: no learning).
func queryNodes(c *tools.Call, b *session.Bundle, q string, k int) ([]graph.NodeID, error) {
	eng, err := tools.QueryEngine(c, b)
	if err != nil {
		return nil, err
	}
	res, err := eng.Activate(c.Ctx, engine.Query{Text: q, TopK: k, NoLearn: true, XLR: c.Session.Config().XLREnabled})
	if err != nil {
		return nil, err
	}
	out := make([]graph.NodeID, 0, len(res.Activated))
	for _, n := range res.Activated {
		out = append(out, n.ID)
	}
	return out, nil
}

func pathOrder(roots, path []graph.NodeID) []graph.NodeID {
	if len(path) > 0 {
		return path
	}
	return roots
}

// pathGaps names consecutive path nodes not joined by an edge.
func pathGaps(g *graph.Graph, path []graph.NodeID) []string {
	var gaps []string
	for i := 1; i < len(path); i++ {
		if len(g.EdgesBetween(path[i-1], path[i])) == 0 && len(g.EdgesBetween(path[i], path[i-1])) == 0 {
			gaps = append(gaps, g.ExternalID(path[i-1])+" -> "+g.ExternalID(path[i]))
		}
	}
	return gaps
}

type lockWatchOutput struct {
	LockID           string `json:"lock_id"`
	Strategy         string `json:"strategy"`
	PreviousStrategy string `json:"previous_strategy"`
}

func runLockWatch(c *tools.Call, in lockWatchParams) (lockWatchOutput, error) {
	agent, err := contAgent(c)
	if err != nil {
		return lockWatchOutput{}, err
	}
	out := lockWatchOutput{LockID: in.LockID, Strategy: in.Strategy}
	err = c.Session.Continuity().Locks.With(agent, in.LockID, func(l *continuity.Lock) (*continuity.Lock, error) {
		out.PreviousStrategy = l.Strategy
		if l.Strategy == in.Strategy {
			return nil, nil
		}
		nl := *l
		nl.Strategy = in.Strategy
		return &nl, nil
	})
	if err != nil {
		return lockWatchOutput{}, contErr(err)
	}
	return out, nil
}

type lockDiffJSON struct {
	continuity.Diff
	ElapsedMs float64 `json:"elapsed_ms"`
}

type lockDiffOutput struct {
	Diff                 lockDiffJSON            `json:"diff"`
	WatcherEventsDrained int                     `json:"watcher_events_drained"`
	WatcherEvents        []continuity.WatchEvent `json:"watcher_events" jsonschema:"The graph or learning changes the watcher recorded since the last diff (at most 64 kept)."`
	RebaseSuggested      *string                 `json:"rebase_suggested" jsonschema:"lock_rebase when something changed (acknowledge it by rebasing), else null."`
	tools.Guidance
}

func runLockDiff(c *tools.Call, in lockIDParams) (lockDiffOutput, error) {
	agent, err := contAgent(c)
	if err != nil {
		return lockDiffOutput{}, err
	}
	st := c.Session.Continuity()
	var out lockDiffOutput
	err = c.Session.Read(c.Ctx, func(b *session.Bundle) error {
		start := time.Now()
		return st.Locks.With(agent, in.LockID, func(l *continuity.Lock) (*continuity.Lock, error) {
			d, err := continuity.DiffLock(lockEnv(c, b), l)
			if err != nil {
				return nil, err
			}
			out.Diff = lockDiffJSON{Diff: d, ElapsedMs: tools.Ms(time.Since(start))}
			return nil, nil
		})
	})
	if err != nil {
		return lockDiffOutput{}, contErr(err)
	}
	events, dropped, _ := st.Locks.Drain(agent, in.LockID)
	out.WatcherEvents, out.WatcherEventsDrained = events, len(events)+dropped
	out.Guidance = tools.Guidance{ProofState: "proving", NextStepHint: "Nothing changed in the region since the baseline."}
	if !out.Diff.NoChanges || out.Diff.BaselineStale {
		s := "lock_rebase"
		out.RebaseSuggested = &s
		out.Guidance = lockDiffGuidance(c, in.LockID, out.Diff.Diff)
	}
	return out, nil
}

func lockDiffGuidance(c *tools.Call, lockID string, d continuity.Diff) tools.Guidance {
	gd := tools.Guidance{ProofState: "triaging", NextSuggestedTool: tools.FirstTool(c.Registry, "lock_rebase"), NextSuggestedTarget: lockID}
	switch {
	case len(d.FilesChanged) > 0 && d.FastPath:
		gd.NextSuggestedTool, gd.NextSuggestedTarget = tools.FirstTool(c.Registry, "ingest"), d.FilesChanged[0].Path
		gd.NextStepHint = "Files in the region changed on disk but the graph does not know yet: re-ingest with incremental: true, then lock_diff again to see the structural changes."
	case len(d.ChangedNodes)+len(d.NewNodes)+len(d.RemovedNodes) > 0:
		target := first(d.ChangedNodes, d.NewNodes, d.RemovedNodes)
		gd.NextSuggestedTool, gd.NextSuggestedTarget = tools.FirstTool(c.Registry, "impact", "view"), target
		gd.NextStepHint = "The region's structure changed: check what the changed nodes affect (impact), then lock_rebase to acknowledge the changes."
	default:
		gd.NextStepHint = "Review the changes, then lock_rebase to make the current state the new baseline."
	}
	return gd
}

func first(lists ...[]string) string {
	for _, l := range lists {
		if len(l) > 0 {
			return l[0]
		}
	}
	return ""
}

type lockRebaseOutput struct {
	LockID             string `json:"lock_id"`
	PreviousGeneration uint64 `json:"previous_generation"`
	NewGeneration      uint64 `json:"new_generation"`
	BaselineNodes      int    `json:"baseline_nodes"`
	BaselineEdges      int    `json:"baseline_edges"`
	BoundaryEdges      int    `json:"boundary_edges"`
	BaselineFiles      int    `json:"baseline_files"`
	WatcherPreserved   bool   `json:"watcher_preserved"`
	Strategy           string `json:"strategy"`
}

func runLockRebase(c *tools.Call, in lockIDParams) (lockRebaseOutput, error) {
	agent, err := contAgent(c)
	if err != nil {
		return lockRebaseOutput{}, err
	}
	var out lockRebaseOutput
	err = c.Session.Read(c.Ctx, func(b *session.Bundle) error {
		return c.Session.Continuity().Locks.With(agent, in.LockID, func(l *continuity.Lock) (*continuity.Lock, error) {
			nodes, err := l.Region(b.Graph)
			if err != nil {
				return nil, err
			}
			base, err := continuity.Capture(lockEnv(c, b), nodes)
			if err != nil {
				return nil, err
			}
			nl := *l
			nl.Base, nl.Rebases = base, l.Rebases+1
			out = lockRebaseOutput{LockID: l.ID, PreviousGeneration: l.Base.GraphGen, NewGeneration: base.GraphGen, BaselineNodes: len(base.Nodes),
				BaselineEdges: len(base.Edges), BoundaryEdges: len(base.Boundary), BaselineFiles: len(base.Files), WatcherPreserved: true, Strategy: l.Strategy}
			return &nl, nil
		})
	})
	if err != nil {
		return lockRebaseOutput{}, contErr(err)
	}
	return out, nil
}

type lockReleaseOutput struct {
	LockID   string `json:"lock_id"`
	Released bool   `json:"released"`
}

func runLockRelease(c *tools.Call, in lockIDParams) (lockReleaseOutput, error) {
	agent, err := contAgent(c)
	if err != nil {
		return lockReleaseOutput{}, err
	}
	if err := c.Session.Continuity().Locks.Release(agent, in.LockID); err != nil {
		return lockReleaseOutput{}, contErr(err)
	}
	return lockReleaseOutput{LockID: in.LockID, Released: true}, nil
}
