package tools

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/ingest"
	"github.com/m1nd-go/m1nd/ingest/adapter"
	ingestcache "github.com/m1nd-go/m1nd/ingest/cache"
	"github.com/m1nd-go/m1nd/mcpserver/daemon"
	"github.com/m1nd-go/m1nd/mcpserver/session"
)

// IngestRun is one ingest: the ingest tool's, or a refresh after a write
// (ReingestRoot). Its phases are its methods, in order: Target (check the
// path and adapter) → Build (ingest and shape the new bundle); the caller
// persists and answers.
type IngestRun struct {
	C *Call
	// What to ingest, as the ingest tool's parameters say it.
	Path            string
	Adapter         string
	Mode            string
	Namespace       string
	Incremental     bool
	IncludeDotfiles bool
	DotfilePatterns []string
	// MaxNodes and Timeout are the call's budgets; 0: the server's
	// (Budgets).
	MaxNodes int
	Timeout  time.Duration

	root  string
	cache *ingest.Cache
	out   *ingest.Output
	// kept: the graph served was kept as it was (nothing changed).
	Kept bool
	// releaseCache lets the cache write what BuildJournaled held.
	releaseCache func()
}

// target checks the path (exists, under an allowed root) and the adapter,
// and opens the root's ingest cache.
func (r *IngestRun) Target() error {
	raw := r.Path
	if raw == "" {
		return Errorf("path is the repository (or notes directory) to ingest.", "path must not be empty")
	}
	root, err := filepath.Abs(raw)
	if err != nil {
		return Errorf("Pass an absolute path.", "cannot resolve path %q: %v", raw, err)
	}
	if _, err := os.Stat(root); err != nil {
		e := Errorf("The path must exist on the machine the server runs on; relative paths are resolved against the server's working directory.", "path %q does not exist or cannot be read: %v", root, errors.Unwrap(err))
		return e.WithNext("Check the path (ls it), then call ingest again with the absolute path.")
	}
	if err := r.C.Session.CheckIngestPath(root); err != nil {
		var re *session.RootError
		if errors.As(err, &re) {
			return Errorf(re.Hint(), "%s", re.Msg).WithNext("Ingest a directory under one of the allowed roots, or have the server restarted with --allow-root for this one.")
		}
		return Errorf("Pass an absolute path to a repository.", "%v", err)
	}
	if _, err := ingest.Adapters().Lookup(r.Adapter); err != nil {
		return Errorf(fmt.Sprintf("Available adapters: %v.", ingest.Adapters().Names()), "%v", err)
	}
	r.Adapter = routeAdapter(r.C.Ctx, r.Adapter, root) // documents.go: "auto" on a source tree is "code"
	r.root = root
	s := r.C.Session
	r.cache = session.RootShared(s, root, IngestCacheKey(r.Adapter), func() *ingest.Cache {
		dir := ""
		if rt := s.RuntimePath("ingest-cache"); rt != "" {
			sum := sha256.Sum256([]byte(r.Adapter + "\x00" + root))
			dir = filepath.Join(rt, hex.EncodeToString(sum[:8]))
		}
		c := ingest.NewCache(dir)
		// The server's caches live as long as the session, which closes
		// (flushes) them: a tick's extraction blobs and manifest are
		// written behind the answer.
		c.SetWriteBehind(true)
		return c
	})
	return nil
}

// ingestCacheKeys are the keys of the roots' ingest caches, one per
// adapter (IngestCacheKey).
var ingestCacheKeys sync.Map // adapter name → session.Key[*ingest.Cache]

// IngestCacheKey is the key of a root's ingest cache for one adapter
// (named "ingest-cache:<adapter>"): session.RootSharedIfAny(s, root,
// IngestCacheKey("code")) finds a code root's cache without making one.
func IngestCacheKey(adapter string) session.Key[*ingest.Cache] {
	if k, ok := ingestCacheKeys.Load(adapter); ok {
		return k.(session.Key[*ingest.Cache])
	}
	k, _ := ingestCacheKeys.LoadOrStore(adapter, session.NewKey[*ingest.Cache]("ingest-cache:"+adapter))
	return k.(session.Key[*ingest.Cache])
}

// build ingests the root and returns the bundle to publish (old itself
// when an incremental ingest found nothing changed). A code root joining
// other code roots is ingested alone, then merged under namespaces
// (mergeCodeRoot); another merge starts from a copy of the current graph,
// taken under the plasticity lock since learning writes it.
func (r *IngestRun) Build(old *session.Bundle) (*session.Bundle, error) {
	s := r.C.Session
	codeMerge := r.Mode == "merge" && r.Adapter == "code" && slices.ContainsFunc(old.Roots, func(x session.Root) bool { return x.Adapter == "code" })
	runMode := r.Mode
	var existing *graph.Graph
	switch {
	case codeMerge:
		runMode = "replace"
	case r.Mode == "merge" && old.Graph.NumNodes() > 0:
		s.Plasticity.Locked(func() { existing = old.Graph.Clone() })
		var err error // documents.go: a document root ingested again replaces its documents
		if existing, err = replacedDocuments(existing, r.root, r.Adapter, r.Namespace); err != nil {
			return nil, err
		}
	}
	var feed *SeekFeed // seekindex.go: the seek index's bodies, cut as files are read
	if r.Adapter == "code" && !codeMerge {
		feed = NewSeekFeed(s, r.Incremental)
	}
	maxNodes, timeout := r.Budgets()
	o, err := ingest.Run(r.C.Ctx, ingest.Config{
		Root: r.root, Adapter: r.Adapter, Mode: ingest.Mode(runMode), Namespace: r.Namespace,
		MaxNodes: maxNodes, Timeout: timeout,
		Incremental: r.Incremental, Cache: r.cache, Previous: r.previous(old),
		IncludeDotfiles: r.IncludeDotfiles, DotfilePatterns: r.DotfilePatterns,
		Progress: func(p ingest.Progress) {
			feed.progressed(p)
			r.C.Progress(float64(p.Done), float64(p.Total), string(p.Phase))
		},
		OnSource: feed.onSource(),
	}, existing)
	if err != nil {
		return nil, err
	}
	r.out = o
	if o.Graph == old.Graph && !codeMerge {
		r.Kept = true
		if len(old.Commits) == 0 && len(o.Commits) > 0 {
			// A graph loaded from a snapshot saved without its history
			// (an older build, a damaged history file), kept: the ingest
			// mapped the commits onto it.
			return &session.Bundle{Graph: old.Graph, Roots: old.Roots, Files: old.Files, Commits: o.Commits}, nil
		}
		return old, nil // an unchanged tree: keep the bundle and its indexes
	}
	if o.Graph.NumNodes() == 0 {
		return nil, Errorf("Point path at a directory with source files (or notes for adapter memory). Nothing was changed.",
			"ingesting %s produced an empty graph (%d files scanned, %d parsed)", r.root, o.Stats.FilesScanned, o.Stats.FilesParsed).
			WithNext("Check the path and adapter, then call ingest again; health shows the graph still loaded.")
	}
	root := session.Root{
		Path: r.root, Adapter: o.Stats.Adapter, Namespace: r.Namespace, Mode: r.Mode,
		IngestedAt: time.Now().UTC(), Files: o.Stats.FilesParsed, GitBranch: o.Root.GitBranch, GitHead: o.Root.GitHead,
	}
	if root.Adapter == "code" {
		// A code root's nodes get a namespace only when it shares the
		// graph with another (mergeCodeRoot); until then it is a wish.
		root.Name, root.Namespace = r.Namespace, ""
	}
	files := fileStamps(o.Root.Path, r.cache, r.Adapter)
	if files != nil {
		files.RunKey, files.Nodes, files.Edges = o.Root.RunKey, o.Graph.NumNodes(), o.Graph.NumEdges()
	}
	if codeMerge {
		return mergeCodeRoot(s, old, o, root, files)
	}
	nb := r.bundle(old, root, files)
	if feed != nil {
		feed.Made(nb.Graph)
	}
	return nb, nil
}

// Budgets are the run's node and time budgets: the call's, else the
// server's (ingest_max_nodes, ingest_timeout_s), else the adapter's
// defaults.
func (r *IngestRun) Budgets() (maxNodes int, timeout time.Duration) {
	cfg := r.C.Session.Config()
	return cmp.Or(r.MaxNodes, cfg.IngestMaxNodes, adapter.DefaultMaxNodes),
		cmp.Or(r.Timeout, time.Duration(cfg.IngestTimeoutS)*time.Second, adapter.DefaultTimeout)
}

// previous is the graph served for this root and what it was built from,
// for an incremental ingest to keep when nothing changed since (a restart
// serving the saved graph): only when the graph is this one code root's
// alone, as a replace built it.
func (r *IngestRun) previous(old *session.Bundle) *ingest.Previous {
	if !r.Incremental || r.Mode != "replace" || r.Adapter != "code" || r.Namespace != "" || len(old.Roots) != 1 {
		return nil
	}
	root := old.Roots[0]
	if root.Path != r.root || root.Adapter != "code" || root.Namespace != "" {
		return nil
	}
	i := slices.IndexFunc(old.Files, func(f session.RootFiles) bool { return f.Root == r.root })
	if i < 0 {
		return nil
	}
	rf := &old.Files[i]
	if rf.RunKey == "" || rf.Prefix != "file::" || rf.Nodes != old.Graph.NumNodes() || rf.Edges != old.Graph.NumEdges() {
		return nil // another tool changed the graph since the ingest that stamped it
	}
	files := make(map[string]ingest.FileStamp, len(rf.Files))
	for _, f := range rf.Files {
		files[f.Rel] = ingest.FileStamp{Size: f.Size, MTimeNS: f.MTimeNS}
	}
	return &ingest.Previous{Graph: old.Graph, RunKey: rf.RunKey, Files: files}
}

// bundle shapes a replace (or a merge into a graph without code roots).
// A root that was namespaced and is now alone leaves its namespace, and
// what was learned about its nodes follows them.
func (r *IngestRun) bundle(old *session.Bundle, root session.Root, files *session.RootFiles) *session.Bundle {
	o := r.out
	nb := &session.Bundle{Graph: o.Graph, Roots: []session.Root{root}, Commits: o.Commits}
	if files != nil {
		nb.Files = []session.RootFiles{*files}
	}
	if r.Mode == "merge" && old.Graph.NumNodes() > 0 {
		// Documents merged from a code root's own directory (the usual way
		// to add a repository's docs) are a second root at that path: the
		// code root, its file stamps and its history stay, or the watcher,
		// staleness and edits stop treating the path as code.
		nb.Roots = slices.DeleteFunc(slices.Clone(old.Roots), func(x session.Root) bool { return x.Path == r.root && sameKind(x, root) })
		nb.Roots = append(nb.Roots, root)
		nb.Commits = append(slices.Clone(old.Commits), o.Commits...)
		nb.Files = slices.Clone(old.Files)
		if files != nil {
			nb.Files = slices.DeleteFunc(nb.Files, func(x session.RootFiles) bool { return x.Root == files.Root && x.Prefix == files.Prefix })
			nb.Files = append(nb.Files, *files)
		}
		return nb
	}
	if ns := namespaceOfRoot(old.Roots, r.root); ns != "" && r.Adapter == "code" {
		pe := r.C.Session.Plasticity
		if st, err := pe.ImportState(nb.Graph, unspaceState(pe, old.Graph, ns)); err == nil {
			r.C.Session.Logf("%s is the only root again: its nodes leave namespace %q; %d learned edges followed them", r.root, ns, st.Applied)
		}
	}
	return nb
}

// sameKind reports roots an ingest of one replaces the other of: both
// code, or both documents (or memory, json, …).
func sameKind(a, b session.Root) bool { return (a.Adapter == "code") == (b.Adapter == "code") }

// fileStamps records what the code adapter read (its cache manifest: size
// and mtime per file), so staleness is a stat away; nil for adapters that
// keep no manifest.
func fileStamps(root string, cache *ingest.Cache, adapterName string) *session.RootFiles {
	if adapterName != "code" || root == "" {
		return nil
	}
	if rf := restamp(root, cache); rf != nil {
		return rf // reingest_stamps.go: the last commit's few paths
	}
	seq, _, _ := cache.ManifestDelta()
	rf := &session.RootFiles{Root: root, Prefix: "file::"}
	for _, rel := range cache.Paths() {
		if e, ok := cache.Entry(rel); ok && e.Kind == ingestcache.Text {
			rf.Files = append(rf.Files, session.FileStamp{Rel: rel, Size: e.Size, MTimeNS: e.MTimeNS})
		}
	}
	slices.SortFunc(rf.Files, func(a, b session.FileStamp) int { return strings.Compare(a.Rel, b.Rel) })
	rf.Dirs = session.StampDirs(root, rf.Files)
	if again, _, _ := cache.ManifestDelta(); again == seq {
		rememberStamps(cache, seq, rf) // not if another ingest committed meanwhile
	}
	return rf
}

// Persisted says whether an ingest's graph was saved before the answer.
type Persisted struct {
	Durable   bool    `json:"durable" jsonschema:"The new graph is saved: a crash or kill cannot lose it."`
	Reason    string  `json:"reason,omitempty"`
	Error     string  `json:"error,omitempty"`
	SaveStamp string  `json:"save_stamp,omitempty"`
	ElapsedMs float64 `json:"elapsed_ms,omitempty"`
}

// PersistAfterIngest saves a new graph before the ingest is answered, so
// an acknowledged ingest is never lost to a crash; it says what happened.
func PersistAfterIngest(s *session.State, nb *session.Bundle) Persisted {
	if cfg := s.Config(); !cfg.Persistent() {
		return Persisted{Reason: "memory-only session (no --runtime-dir): the graph lives until the server stops"}
	}
	if s.PersistedGen() == nb.Gen {
		return Persisted{Durable: true, Reason: "unchanged: the saved graph is current"}
	}
	res, err := s.Persist("ingest")
	if err != nil {
		return Persisted{Error: err.Error()}
	}
	return Persisted{Durable: true, SaveStamp: res.SaveStamp, ElapsedMs: res.ElapsedMs}
}

// reingestRoot refreshes one code root incrementally for a tool that just
// wrote files under it (apply, apply_batch, edit_commit): the ingest
// tool's own run — the patch path when a few files changed their contents
// — published like an ingest but not persisted, so the caller decides when
// its write is final. It returns the ingest's statistics.
func ReingestRoot(c *Call, root string) (_ *ingest.Output, err error) {
	t, ok := c.Registry.Lookup("ingest")
	if !ok {
		return nil, errors.New("this build has no ingest tool")
	}
	mode := "replace"
	if len(c.Session.Current().Roots) > 1 {
		mode = "merge"
	}
	sub := &Call{Ctx: c.Ctx, Tool: t, AgentID: c.AgentID, Session: c.Session, Progress: func(float64, float64, string) {}, Registry: c.Registry}
	r := &IngestRun{C: sub, Path: root, Adapter: "code", Mode: mode, Incremental: true}
	if err := r.Target(); err != nil {
		return nil, err
	}
	kind := "graph_replaced"
	if mode == "merge" {
		kind = "graph_merged"
	}
	// A few changed files, a graph's worth of fresh arrays (the splice):
	// the memory limit leaves the run room for them while it lasts
	// (memlimit.go), else it would collect the whole heap several times.
	g := c.Session.Current().Graph
	room := GraphChangeRoom(g.NumNodes(), g.NumEdges())
	if !daemon.InTick(c.Ctx) {
		defer RoomForChange(room)()
	} else {
		// A daemon tick's room stays until the save behind the tick
		// (RoomHold): a burst of ticks then shares its collections.
		hold := RoomHoldOf(c.Session)
		end := hold.Keep(room)
		defer func() {
			end()
			if err != nil {
				hold.Release() // no save follows a failed run
			}
		}()
	}
	// The run's extraction blobs and manifest are written once the new
	// graph is live, not beside its parse (the queue keeps their order; a
	// crash before them loses only cache).
	r.holdCacheWrites()
	defer r.ReleaseCacheWrites()
	if _, err = c.Session.BuildBundle(kind, r.Build); err != nil {
		return nil, err
	}
	return r.out, nil
}

var roomHoldKey = session.NewKey[*RoomHold]("memory-room-hold")

// RoomHoldOf is the session's hold of a daemon tick's room, released by
// the tick's quiet save (live.go).
func RoomHoldOf(s *session.State) *RoomHold {
	return session.Shared(s, roomHoldKey, func() *RoomHold { return &RoomHold{} })
}
