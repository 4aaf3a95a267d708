package continuity

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/m1nd-go/m1nd/core/graph"
)

// Lock limits (docs/design.md#continuity): per agent, per region and in all.
const (
	MaxLocksPerAgent = 10
	MaxLocks         = 128
	MaxBaselineNodes = 5000
	MaxBaselineEdges = 10000
	// MaxLockFiles bounds the files whose contents a baseline hashes;
	// MaxHashBytes the bytes hashed per file.
	MaxLockFiles = 500
	MaxHashBytes = 8 << 20
	MaxRadius    = 4
	// maxWatchEvents bounds the watcher events a lock keeps until a diff
	// drains them (older ones are counted, not kept).
	maxWatchEvents = 64
	// maxDiffList bounds each list of a diff (counts cover everything).
	maxDiffList = 200
)

// Scopes of a lock.
const (
	ScopeNode     = "node"
	ScopeSubgraph = "subgraph"
	ScopeQuery    = "query_neighborhood"
	ScopePath     = "path"
)

// Scopes lists the lock scopes.
var Scopes = []string{ScopeNode, ScopeSubgraph, ScopeQuery, ScopePath}

// Watcher strategies.
const (
	WatchManual   = "manual"
	WatchOnIngest = "on_ingest"
	WatchOnLearn  = "on_learn"
)

// Strategies lists the watcher strategies.
var Strategies = []string{WatchManual, WatchOnIngest, WatchOnLearn}

const lockFormat = 1

// FileHash is what a locked file's contents were.
type FileHash struct {
	Path    string `json:"path"`
	Size    int64  `json:"size"`
	MTimeNS int64  `json:"mtime_ns"`
	SHA256  string `json:"sha256"`
}

// Baseline is the state of a region when it was locked.
type Baseline struct {
	// Nodes are the region's nodes with their signatures.
	Nodes map[string]string `json:"nodes"`
	// Edges inside the region and on its boundary (one end outside), by
	// EdgeKey, with their weights.
	Edges    map[string]float32  `json:"edges"`
	Boundary map[string]float32  `json:"boundary_edges"`
	Files    map[string]FileHash `json:"files"`
	// FilesSkipped counts files over MaxLockFiles (not hashed).
	FilesSkipped int    `json:"files_skipped,omitempty"`
	GraphGen     uint64 `json:"graph_generation"`
	PlasGen      uint64 `json:"plasticity_generation"`
	// Epoch is the process the generations belong to.
	Epoch   string `json:"epoch"`
	TakenMs int64  `json:"taken_at_ms"`
}

// WatchEvent is a graph or learning change a watcher saw.
type WatchEvent struct {
	Kind     string `json:"kind"`
	GraphGen uint64 `json:"graph_generation"`
	AtMs     int64  `json:"at_ms"`
}

// Lock is one agent's lock on a region.
type Lock struct {
	Format        int      `json:"format"`
	ID            string   `json:"lock_id"`
	AgentID       string   `json:"agent_id"`
	Scope         string   `json:"scope"`
	Roots         []string `json:"root_nodes"`
	Radius        int      `json:"radius,omitempty"`
	Query         string   `json:"query,omitempty"`
	PerspectiveID string   `json:"perspective_id,omitempty"`
	Strategy      string   `json:"strategy"`
	CreatedMs     int64    `json:"created_at_ms"`
	Rebases       int      `json:"rebases"`
	Base          Baseline `json:"baseline"`
	// Events are watcher events not yet drained by a diff (this process
	// only: they are not persisted); Dropped counts those past the bound.
	Events  []WatchEvent `json:"-"`
	Dropped int          `json:"-"`
}

// EdgeKey names an edge: "source|target|relation" (external ids).
func EdgeKey(g *graph.Graph, e graph.EdgeIdx) string {
	return g.ExternalID(g.Source(e)) + "|" + g.ExternalID(g.Target(e)) + "|" + g.RelationName(e)
}

// Env is what capturing and diffing a region needs besides the graph: the
// file stamps, the file node of a node, and a way to hash a file through
// the path guard (ok false when it cannot be read).
type Env struct {
	Graph  *graph.Graph
	Stamp  Stamp
	FileOf func(graph.NodeID) graph.NodeID
	// Stat and Hash read a file node's file on disk.
	Stat func(fileID string) (size, mtimeNS int64, ok bool)
	Hash func(fileID string) (FileHash, bool)
	// GraphGen and PlasGen are the current generations, Epoch the process.
	GraphGen, PlasGen uint64
	Epoch             string
	NowMs             int64
}

// RegionNodes computes a region: the roots (node, path), the roots and
// what lies within radius hops of them in either direction (subgraph), or
// the roots and fixed nodes (query_neighborhood: the query's answer). It
// refuses a region over MaxBaselineNodes.
func RegionNodes(g *graph.Graph, scope string, roots []graph.NodeID, radius int, fixed []graph.NodeID) ([]graph.NodeID, error) {
	set := map[graph.NodeID]bool{}
	var out []graph.NodeID
	add := func(n graph.NodeID) bool {
		if !set[n] {
			set[n] = true
			out = append(out, n)
		}
		return len(out) <= MaxBaselineNodes
	}
	for _, r := range roots {
		add(r)
	}
	for _, f := range fixed {
		add(f)
	}
	if scope == ScopeSubgraph {
		frontier := slices.Clone(roots)
		for hop := 0; hop < radius && len(frontier) > 0; hop++ {
			var next []graph.NodeID
			for _, n := range frontier {
				lo, hi := g.OutRange(n)
				for e := lo; e < hi; e++ {
					if t := g.Target(e); !set[t] {
						if !add(t) {
							return nil, tooBig(len(out), radius)
						}
						next = append(next, t)
					}
				}
				ilo, ihi := g.InRange(n)
				for p := ilo; p < ihi; p++ {
					if s := g.InSource(p); !set[s] {
						if !add(s) {
							return nil, tooBig(len(out), radius)
						}
						next = append(next, s)
					}
				}
			}
			frontier = next
		}
	}
	if len(out) > MaxBaselineNodes {
		return nil, tooBig(len(out), radius)
	}
	slices.Sort(out)
	return out, nil
}

func tooBig(n, radius int) *Error {
	hint := fmt.Sprintf("A lock's baseline holds at most %d nodes and %d edges. Lower radius, lock fewer or less central roots, or use scope \"node\".", MaxBaselineNodes, MaxBaselineEdges)
	if radius > 1 {
		hint += fmt.Sprintf(" Try radius %d.", radius-1)
	}
	return errf(Limit, hint, "the region has more than %d nodes (reached %d)", MaxBaselineNodes, n)
}

// Capture takes the baseline of a region.
func Capture(env Env, nodes []graph.NodeID) (Baseline, error) {
	g := env.Graph
	b := Baseline{Nodes: make(map[string]string, len(nodes)), Edges: map[string]float32{}, Boundary: map[string]float32{},
		Files: map[string]FileHash{}, GraphGen: env.GraphGen, PlasGen: env.PlasGen, Epoch: env.Epoch, TakenMs: env.NowMs}
	in := make(map[graph.NodeID]bool, len(nodes))
	for _, n := range nodes {
		in[n] = true
	}
	files := map[string]bool{}
	for _, n := range nodes {
		b.Nodes[g.ExternalID(n)] = Signature(g, n, env.Stamp)
		if env.FileOf != nil {
			if f := env.FileOf(n); f != graph.NoNode && g.Type(f) == graph.File {
				files[g.ExternalID(f)] = true
			}
		}
	}
	edges(g, nodes, in, func(key string, w float32, internal bool) {
		if internal {
			b.Edges[key] = w
		} else {
			b.Boundary[key] = w
		}
	})
	if n := len(b.Edges) + len(b.Boundary); n > MaxBaselineEdges {
		return Baseline{}, errf(Limit, fmt.Sprintf("A lock's baseline holds at most %d edges (inside the region and on its boundary). Lower radius or lock fewer roots.", MaxBaselineEdges),
			"the region has %d edges", n)
	}
	keys := make([]string, 0, len(files))
	for f := range files {
		keys = append(keys, f)
	}
	sort.Strings(keys)
	for i, f := range keys {
		if i >= MaxLockFiles {
			b.FilesSkipped = len(keys) - MaxLockFiles
			break
		}
		if env.Hash != nil {
			if h, ok := env.Hash(f); ok {
				b.Files[f] = h
			}
		}
	}
	return b, nil
}

// edges visits the region's edges once each (mirrors of bidirectional
// edges skipped): internal ones from their source, boundary ones from the
// end inside.
func edges(g *graph.Graph, nodes []graph.NodeID, in map[graph.NodeID]bool, visit func(key string, w float32, internal bool)) {
	for _, n := range nodes {
		lo, hi := g.OutRange(n)
		for e := lo; e < hi; e++ {
			if !g.IsMirror(e) {
				visit(EdgeKey(g, e), graph.Finite(g.Weight(e)), in[g.Target(e)])
			}
		}
		ilo, ihi := g.InRange(n)
		for p := ilo; p < ihi; p++ {
			if e := g.InEdge(p); !g.IsMirror(e) && !in[g.InSource(p)] {
				visit(EdgeKey(g, e), graph.Finite(g.Weight(e)), false)
			}
		}
	}
}

// WeightChange is an edge whose weight moved since the baseline.
type WeightChange struct {
	EdgeKey   string  `json:"edge_key"`
	OldWeight float64 `json:"old_weight"`
	NewWeight float64 `json:"new_weight"`
}

// FileChange is a locked file whose contents changed.
type FileChange struct {
	NodeID string `json:"node_id"`
	Path   string `json:"path"`
	// Change: "modified" (contents differ), "deleted" or "unreadable".
	Change string `json:"change"`
}

// Diff is what changed in a region since its baseline. Lists hold at most
// maxDiffList entries each; Counts counts everything.
type Diff struct {
	LockID          string         `json:"lock_id"`
	NoChanges       bool           `json:"no_changes"`
	NewNodes        []string       `json:"new_nodes"`
	RemovedNodes    []string       `json:"removed_nodes"`
	ChangedNodes    []string       `json:"changed_nodes"`
	NewEdges        []string       `json:"new_edges"`
	RemovedEdges    []string       `json:"removed_edges"`
	BoundaryAdded   []string       `json:"boundary_edges_added"`
	BoundaryRemoved []string       `json:"boundary_edges_removed"`
	WeightChanges   []WeightChange `json:"weight_changes"`
	FilesChanged    []FileChange   `json:"files_changed"`
	Counts          map[string]int `json:"counts"`
	// BaselineStale: the baseline was taken on another graph (an ingest
	// since, or another server process).
	BaselineStale bool `json:"baseline_stale"`
	// FastPath: the graph and learned state are the baseline's, so only
	// the files were checked.
	FastPath bool `json:"fast_path"`
}

// weightEpsilon is the smallest weight move a diff reports.
const weightEpsilon = 1e-4

// Region computes the lock's region in g as it is now: the subgraph
// around the roots that still exist, or (other scopes) the baseline's
// nodes and roots that still exist.
func (l *Lock) Region(g *graph.Graph) ([]graph.NodeID, error) {
	var roots []graph.NodeID
	for _, r := range l.Roots {
		if id, ok := g.Lookup(r); ok {
			roots = append(roots, id)
		}
	}
	if l.Scope == ScopeSubgraph {
		return RegionNodes(g, ScopeSubgraph, roots, l.Radius, nil)
	}
	var fixed []graph.NodeID
	for x := range l.Base.Nodes {
		if id, ok := g.Lookup(x); ok {
			fixed = append(fixed, id)
		}
	}
	return RegionNodes(g, l.Scope, roots, 0, fixed)
}

// DiffLock compares a lock's region now with its baseline. The region is
// computed only when the graph or its learned state moved since the
// baseline; otherwise only the locked files are checked.
func DiffLock(env Env, l *Lock) (Diff, error) {
	g, base := env.Graph, &l.Base
	d := Diff{LockID: l.ID, Counts: map[string]int{}}
	sameProcess := base.Epoch == env.Epoch
	d.BaselineStale = !sameProcess || base.GraphGen != env.GraphGen
	d.FastPath = sameProcess && base.GraphGen == env.GraphGen && base.PlasGen == env.PlasGen
	if !d.FastPath {
		now, err := l.Region(g)
		if err != nil {
			return d, err
		}
		in := make(map[graph.NodeID]bool, len(now))
		seen := make(map[string]bool, len(now))
		for _, n := range now {
			in[n] = true
			x := g.ExternalID(n)
			seen[x] = true
			if sig, ok := base.Nodes[x]; !ok {
				d.NewNodes = append(d.NewNodes, x)
			} else if sig != Signature(g, n, env.Stamp) {
				d.ChangedNodes = append(d.ChangedNodes, x)
			}
		}
		for x := range base.Nodes {
			if !seen[x] {
				d.RemovedNodes = append(d.RemovedNodes, x)
			}
		}
		curE, curB := map[string]float32{}, map[string]float32{}
		edges(g, now, in, func(key string, w float32, internal bool) {
			if internal {
				curE[key] = w
			} else {
				curB[key] = w
			}
		})
		d.NewEdges, d.RemovedEdges, d.WeightChanges = compareEdges(base.Edges, curE)
		var wb []WeightChange
		d.BoundaryAdded, d.BoundaryRemoved, wb = compareEdges(base.Boundary, curB)
		d.WeightChanges = append(d.WeightChanges, wb...)
		sort.Slice(d.WeightChanges, func(i, j int) bool {
			a, b := d.WeightChanges[i], d.WeightChanges[j]
			if da, db := math.Abs(a.NewWeight-a.OldWeight), math.Abs(b.NewWeight-b.OldWeight); da != db {
				return da > db
			}
			return a.EdgeKey < b.EdgeKey
		})
	}
	d.FilesChanged = filesChanged(env, base)
	for name, l := range map[string]*[]string{"new_nodes": &d.NewNodes, "removed_nodes": &d.RemovedNodes, "changed_nodes": &d.ChangedNodes,
		"new_edges": &d.NewEdges, "removed_edges": &d.RemovedEdges, "boundary_edges_added": &d.BoundaryAdded, "boundary_edges_removed": &d.BoundaryRemoved} {
		sort.Strings(*l)
		d.Counts[name] = len(*l)
		*l = nonNil((*l)[:min(len(*l), maxDiffList)])
	}
	d.Counts["weight_changes"] = len(d.WeightChanges)
	d.WeightChanges = nonNil(d.WeightChanges[:min(len(d.WeightChanges), maxDiffList)])
	d.Counts["files_changed"] = len(d.FilesChanged)
	d.FilesChanged = nonNil(d.FilesChanged)
	total := 0
	for _, n := range d.Counts {
		total += n
	}
	d.NoChanges = total == 0
	return d, nil
}

func compareEdges(base, cur map[string]float32) (added, removed []string, moved []WeightChange) {
	for k, w := range cur {
		old, ok := base[k]
		switch {
		case !ok:
			added = append(added, k)
		case math.Abs(float64(w-old)) > weightEpsilon:
			moved = append(moved, WeightChange{EdgeKey: k, OldWeight: round3(old), NewWeight: round3(w)})
		}
	}
	for k := range base {
		if _, ok := cur[k]; !ok {
			removed = append(removed, k)
		}
	}
	return added, removed, moved
}

func round3(f float32) float64 { return math.Round(float64(graph.Finite(f))*1000) / 1000 }

// filesChanged checks the baseline's files: a stat first, a hash only
// when size or time moved.
func filesChanged(env Env, base *Baseline) []FileChange {
	keys := make([]string, 0, len(base.Files))
	for k := range base.Files {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var out []FileChange
	for _, k := range keys {
		h := base.Files[k]
		if env.Stat == nil {
			break
		}
		size, mt, ok := env.Stat(k)
		switch {
		case !ok:
			out = append(out, FileChange{NodeID: k, Path: h.Path, Change: "deleted"})
		case size == h.Size && mt == h.MTimeNS:
		default:
			nh, ok := env.Hash(k)
			if !ok {
				out = append(out, FileChange{NodeID: k, Path: h.Path, Change: "unreadable"})
			} else if nh.SHA256 != h.SHA256 {
				out = append(out, FileChange{NodeID: k, Path: h.Path, Change: "modified"})
			}
		}
	}
	return out
}

// Validate checks a lock read from disk.
func (l *Lock) Validate() error {
	if err := ValidateAgentID(l.AgentID); err != nil {
		return err
	}
	if !slices.Contains(Scopes, l.Scope) || !slices.Contains(Strategies, l.Strategy) {
		return fmt.Errorf("scope %q or strategy %q unknown", l.Scope, l.Strategy)
	}
	if len(l.Roots) == 0 || l.Radius < 0 || l.Radius > MaxRadius {
		return fmt.Errorf("roots or radius out of range")
	}
	if len(l.Base.Nodes) > MaxBaselineNodes || len(l.Base.Edges)+len(l.Base.Boundary) > MaxBaselineEdges || len(l.Base.Files) > MaxLockFiles {
		return fmt.Errorf("baseline over the limits")
	}
	for k, w := range l.Base.Edges {
		if !graph.IsFinite(w) || strings.Count(k, "|") < 2 {
			return fmt.Errorf("baseline edge %q invalid", k)
		}
	}
	for _, w := range l.Base.Boundary {
		if !graph.IsFinite(w) {
			return fmt.Errorf("baseline boundary weight invalid")
		}
	}
	return nil
}

// Locks is the lock store. Each lock has its own mutex (diffs and
// rebases of different locks run in parallel); mu guards the map.
type Locks struct {
	s       *Store
	mu      sync.RWMutex
	items   map[string]*lockEntry
	pending map[string]int
}

type lockEntry struct {
	// agent and persp never change, so the store reads them under its
	// own lock; the lock itself is read and replaced under mu.
	agent, persp string
	mu           sync.Mutex
	lock         *Lock
}

func newEntry(l *Lock) *lockEntry {
	return &lockEntry{agent: l.AgentID, persp: l.PerspectiveID, lock: l}
}

func newLocks(s *Store) *Locks {
	ls := &Locks{s: s, items: map[string]*lockEntry{}, pending: map[string]int{}}
	loadRecords(s, locksDir, "lock", "locks", MaxLocks, parseLock, func(l *Lock) { ls.items[l.ID] = newEntry(l) })
	return ls
}

// parseLock decodes and checks a lock file named name.
func parseLock(name string, data []byte) (*Lock, error) {
	return parseRecord[Lock]("lock", name, data, lockFormat)
}

// Own lists agent's lock ids, sorted.
func (ls *Locks) Own(agent string) []string {
	ls.mu.RLock()
	defer ls.mu.RUnlock()
	return ownedIDs(ls.items, agent)
}

// Create stores a new lock for l.AgentID (id, format, strategy and time
// are set here).
func (ls *Locks) Create(l Lock) (*Lock, error) {
	if err := ValidateAgentID(l.AgentID); err != nil {
		return nil, err
	}
	ls.mu.Lock()
	mine, total := ls.pending[l.AgentID], len(ls.items)
	for _, p := range ls.pending {
		total += p
	}
	for _, e := range ls.items {
		if e.agent == l.AgentID {
			mine++
		}
	}
	if mine >= MaxLocksPerAgent {
		ls.mu.Unlock()
		return nil, errf(Limit, fmt.Sprintf("An agent holds at most %d locks. Release one you no longer need (lock_release) or rebase an existing one onto the region.", MaxLocksPerAgent),
			"agent %q already holds %d locks", l.AgentID, mine).with("your_locks", ls.Own(l.AgentID))
	}
	if total >= MaxLocks {
		ls.mu.Unlock()
		return nil, errf(Limit, fmt.Sprintf("The server holds at most %d locks in all.", MaxLocks), "the server already holds %d locks", total)
	}
	ls.pending[l.AgentID]++
	ls.mu.Unlock()
	defer func() {
		ls.mu.Lock()
		if ls.pending[l.AgentID]--; ls.pending[l.AgentID] <= 0 {
			delete(ls.pending, l.AgentID)
		}
		ls.mu.Unlock()
	}()
	l.Format, l.CreatedMs = lockFormat, ls.s.nowMs()
	if l.Strategy == "" {
		l.Strategy = WatchManual
	}
	l.ID = fmt.Sprintf("lock_%s_%03d", l.AgentID, ls.s.nextSeq("lock", l.AgentID))
	if err := ls.s.writeJSON(locksDir, l.ID+".json", &l); err != nil {
		return nil, fmt.Errorf("lock not created: %w", err)
	}
	ls.mu.Lock()
	ls.items[l.ID] = newEntry(&l)
	ls.mu.Unlock()
	return &l, nil
}

// entry finds agent's lock id.
func (ls *Locks) entry(agent, id string) (*lockEntry, error) {
	return ownEntry(&ls.mu, ls.items, "lock", agent, id, "Create one with lock_create.")
}

// With runs fn on agent's lock under the lock's own mutex. fn returns the
// lock to store (nil: unchanged); a changed lock is written before it
// replaces the old one, so a failed write changes nothing.
func (ls *Locks) With(agent, id string, fn func(l *Lock) (*Lock, error)) error {
	e, err := ls.entry(agent, id)
	if err != nil {
		return err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	nl, err := fn(e.lock)
	if err != nil || nl == nil {
		return err
	}
	if err := ls.s.writeJSON(locksDir, nl.ID+".json", nl); err != nil {
		return fmt.Errorf("lock %s not updated (unchanged): %w", id, err)
	}
	e.lock = nl
	return nil
}

// Drain returns and clears a lock's pending watcher events (memory only).
func (ls *Locks) Drain(agent, id string) (events []WatchEvent, dropped int, err error) {
	e, err := ls.entry(agent, id)
	if err != nil {
		return nil, 0, err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	events, dropped = e.lock.Events, e.lock.Dropped
	e.lock.Events, e.lock.Dropped = nil, 0
	return nonNil(events), dropped, nil
}

// Release removes agent's lock.
func (ls *Locks) Release(agent, id string) error {
	e, err := ls.entry(agent, id)
	if err != nil {
		return err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if err := ls.s.remove(locksDir, id+".json"); err != nil {
		return fmt.Errorf("lock %s not released: %w", id, err)
	}
	ls.mu.Lock()
	delete(ls.items, id)
	ls.mu.Unlock()
	return nil
}

// ReleaseForPerspective releases agent's locks tied to a perspective.
func (ls *Locks) ReleaseForPerspective(agent, perspID string) []string {
	var ids []string
	ls.mu.RLock()
	for id, e := range ls.items {
		if e.agent == agent && e.persp == perspID {
			ids = append(ids, id)
		}
	}
	ls.mu.RUnlock()
	sort.Strings(ids)
	var out []string
	for _, id := range ids {
		if ls.Release(agent, id) == nil {
			out = append(out, id)
		}
	}
	return nonNil(out)
}

// watch records an event on every lock whose watcher strategy wants it.
func (ls *Locks) watch(strategy, kind string, gen uint64) {
	ls.mu.RLock()
	var es []*lockEntry
	for _, e := range ls.items {
		es = append(es, e)
	}
	ls.mu.RUnlock()
	at := ls.s.nowMs()
	for _, e := range es {
		e.mu.Lock()
		if e.lock.Strategy == strategy {
			if len(e.lock.Events) < maxWatchEvents {
				e.lock.Events = append(e.lock.Events, WatchEvent{Kind: kind, GraphGen: gen, AtMs: at})
			} else {
				e.lock.Dropped++
			}
		}
		e.mu.Unlock()
	}
}

// Len is the number of locks held.
func (ls *Locks) Len() int {
	ls.mu.RLock()
	defer ls.mu.RUnlock()
	return len(ls.items)
}

// Snapshot returns copies of every lock (all agents), by id: for audits
// that look across agents. The baselines are shared and must not be
// modified.
func (ls *Locks) Snapshot() []Lock {
	ls.mu.RLock()
	es := make([]*lockEntry, 0, len(ls.items))
	for _, e := range ls.items {
		es = append(es, e)
	}
	ls.mu.RUnlock()
	out := make([]Lock, 0, len(es))
	for _, e := range es {
		e.mu.Lock()
		l := *e.lock
		l.Events = nil
		e.mu.Unlock()
		out = append(out, l)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}
