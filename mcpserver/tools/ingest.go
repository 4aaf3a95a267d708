package tools

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/ingest"
	ingestcache "github.com/m1nd-go/m1nd/ingest/cache"
	"github.com/m1nd-go/m1nd/mcpserver/session"
)

// The ingest family.
func init() { families = append(families, registerIngest) }

func registerIngest(r *Registry) {
	r.Register(&Tool{
		Name:        "ingest",
		Title:       "Ingest a repository",
		Description: "Ingest or re-ingest a codebase, a memory/markdown corpus or a JSON graph descriptor into the graph: walks the tree (honouring .gitignore), extracts entities with tree-sitter, reads git history, resolves references, builds and finalizes the graph. Reports progress when the client sends a progress token.",
		Params: []Param{
			{Name: "path", Type: String, Required: true, Description: "Directory (or file) to ingest; absolute, or relative to the server's working directory."},
			{Name: "adapter", Type: String, Default: "code", Description: "code (source tree), memory (markdown/text notes), json (a {nodes, edges} descriptor); documents: universal (Markdown, reStructuredText, AsciiDoc, text, HTML; PDF/DOCX with providers), auto or document (detects the family per file and per directory; a source tree goes to code), light (L1GHT Markdown), bibtex, article (JATS), patent, rfc (RFC XML v3), crossref."},
			{Name: "mode", Type: String, Default: "replace", Enum: []string{"replace", "merge"}, Description: "replace: rebuild the graph from this path; merge: add to the current graph (same external_id updates the node)."},
			{Name: "incremental", Type: Boolean, Default: false, Description: "Re-extract only files changed since the last ingest of this path (code adapter). When a few files only changed their contents, the current graph is patched in place of a rebuild (stats.incremental.patched); learned weights are kept either way."},
			{Name: "namespace", Type: String, Description: "Prefix for the external ids of memory and json nodes."},
			{Name: "include_dotfiles", Type: Boolean, Default: false, Description: "Also ingest hidden files and directories."},
			{Name: "dotfile_patterns", Type: StringArray, Description: "Hidden paths to include even without include_dotfiles (e.g. \".github/**\")."},
		},
		Input:     reflect.TypeFor[ingestParams](),
		Output:    reflect.TypeFor[ingestOutput](),
		Class:     Exclusive,
		WhenToUse: "Session start when health shows an empty or stale graph; after code changes (incremental: true); to merge notes or another root into the graph.",
		AvoidWhen: "The graph is current (health: stale false) — re-ingesting costs time and resets nothing you need.",
		Next:      []string{"health", "activate", "seek"},
		Example:   map[string]any{"agent_id": "claude", "path": "/path/to/repo", "mode": "replace"},
		Run:       runIngest,
	})
}

// ingestRun is one ingest call; its phases are its methods, in order:
// target (check the path and adapter) → build (ingest and shape the new
// bundle) → persist → answer.
type ingestRun struct {
	c       *Call
	root    string
	adapter string
	mode    string
	cache   *ingest.Cache
	out     *ingest.Output
	// kept: the graph served was kept as it was (nothing changed).
	kept bool
}

func runIngest(c *Call) (any, error) {
	r := &ingestRun{c: c, adapter: c.Str("adapter"), mode: c.Str("mode")}
	if err := r.target(); err != nil {
		return nil, err
	}
	start := time.Now()
	kind := "graph_replaced"
	if r.mode == "merge" {
		kind = "graph_merged"
	}
	s := c.Session
	nb, err := s.BuildBundle(kind, r.build)
	if err != nil {
		var te *Error
		if errors.As(err, &te) {
			return nil, te
		}
		return nil, Errorf("The current graph is unchanged. Check the path, adapter and mode.", "ingest failed: %v", err)
	}
	// Build the query engine and the seek index now so the first query does
	// not pay for them (in the background), and make the new graph durable
	// before answering: an acknowledged ingest survives a kill -9.
	go func() {
		s.Engine(nb)
		seekIndex(s, nb)
	}()
	persisted := persistAfterIngest(s, nb)
	if !r.kept {
		ingest.ReleaseMemory() // (a full GC and a scavenge of the heap: half a second on a large one)
	}
	return r.answer(nb, persisted, time.Since(start)), nil
}

// target checks the path (exists, under an allowed root) and the adapter,
// and opens the root's ingest cache.
func (r *ingestRun) target() error {
	raw := r.c.Str("path")
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
	if err := r.c.Session.CheckIngestPath(root); err != nil {
		var re *session.RootError
		if errors.As(err, &re) {
			return Errorf(re.Hint(), "%s", re.Msg).WithNext("Ingest a directory under one of the allowed roots, or have the server restarted with --allow-root for this one.")
		}
		return Errorf("Pass an absolute path to a repository.", "%v", err)
	}
	if _, err := ingest.Adapters().Lookup(r.adapter); err != nil {
		return Errorf(fmt.Sprintf("Available adapters: %v.", ingest.Adapters().Names()), "%v", err)
	}
	r.adapter = routeAdapter(r.c.Ctx, r.adapter, root) // documents.go: "auto" on a source tree is "code"
	r.root = root
	s := r.c.Session
	r.cache = s.RootShared(root, "ingest-cache:"+r.adapter, func() any {
		dir := ""
		if rt := s.RuntimePath("ingest-cache"); rt != "" {
			sum := sha256.Sum256([]byte(r.adapter + "\x00" + root))
			dir = filepath.Join(rt, hex.EncodeToString(sum[:8]))
		}
		c := ingest.NewCache(dir)
		// The server's caches live as long as the session, which closes
		// (flushes) them: a tick's extraction blobs and manifest are
		// written behind the answer.
		c.SetWriteBehind(true)
		return c
	}).(*ingest.Cache)
	return nil
}

// build ingests the root and returns the bundle to publish (old itself
// when an incremental ingest found nothing changed). A code root joining
// other code roots is ingested alone, then merged under namespaces
// (mergeCodeRoot); another merge starts from a copy of the current graph,
// taken under the plasticity lock since learning writes it.
func (r *ingestRun) build(old *session.Bundle) (*session.Bundle, error) {
	s := r.c.Session
	codeMerge := r.mode == "merge" && r.adapter == "code" && slices.ContainsFunc(old.Roots, func(x session.Root) bool { return x.Adapter == "code" })
	runMode := r.mode
	var existing *graph.Graph
	switch {
	case codeMerge:
		runMode = "replace"
	case r.mode == "merge" && old.Graph.NumNodes() > 0:
		s.Plasticity.Locked(func() { existing = old.Graph.Clone() })
		var err error // documents.go: a document root ingested again replaces its documents
		if existing, err = replacedDocuments(existing, r.root, r.adapter, r.c.Str("namespace")); err != nil {
			return nil, err
		}
	}
	o, err := ingest.Run(r.c.Ctx, ingest.Config{
		Root: r.root, Adapter: r.adapter, Mode: ingest.Mode(runMode), Namespace: r.c.Str("namespace"),
		Incremental: r.c.Bool("incremental"), Cache: r.cache, Previous: r.previous(old),
		IncludeDotfiles: r.c.Bool("include_dotfiles"), DotfilePatterns: r.c.Strs("dotfile_patterns"),
		Progress: func(p ingest.Progress) {
			r.c.Progress(float64(p.Done), float64(p.Total), string(p.Phase))
		},
	}, existing)
	if err != nil {
		return nil, err
	}
	r.out = o
	if o.Graph == old.Graph && !codeMerge {
		r.kept = true
		if len(old.Commits) == 0 && len(o.Commits) > 0 {
			// A graph loaded from its snapshot, kept: snapshots do not hold
			// the git commits, the ingest mapped them onto it.
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
		Path: r.root, Adapter: o.Stats.Adapter, Namespace: r.c.Str("namespace"), Mode: r.mode,
		IngestedAt: time.Now().UTC(), Files: o.Stats.FilesParsed, GitBranch: o.Root.GitBranch, GitHead: o.Root.GitHead,
	}
	files := fileStamps(o.Root.Path, r.cache, r.adapter)
	if files != nil {
		files.RunKey, files.Nodes, files.Edges = o.Root.RunKey, o.Graph.NumNodes(), o.Graph.NumEdges()
	}
	if codeMerge {
		return mergeCodeRoot(s, old, o, root, files)
	}
	return r.bundle(old, root, files), nil
}

// previous is the graph served for this root and what it was built from,
// for an incremental ingest to keep when nothing changed since (a restart
// serving the saved graph): only when the graph is this one code root's
// alone, as a replace built it.
func (r *ingestRun) previous(old *session.Bundle) *ingest.Previous {
	if !r.c.Bool("incremental") || r.mode != "replace" || r.adapter != "code" || r.c.Str("namespace") != "" || len(old.Roots) != 1 {
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
func (r *ingestRun) bundle(old *session.Bundle, root session.Root, files *session.RootFiles) *session.Bundle {
	o := r.out
	nb := &session.Bundle{Graph: o.Graph, Roots: []session.Root{root}, Commits: o.Commits}
	if files != nil {
		nb.Files = []session.RootFiles{*files}
	}
	if r.mode == "merge" && old.Graph.NumNodes() > 0 {
		nb.Roots = slices.DeleteFunc(slices.Clone(old.Roots), func(x session.Root) bool { return x.Path == r.root })
		nb.Roots = append(nb.Roots, root)
		nb.Commits = append(slices.Clone(old.Commits), o.Commits...)
		nb.Files = slices.DeleteFunc(slices.Clone(old.Files), func(x session.RootFiles) bool { return x.Root == o.Root.Path })
		if files != nil {
			nb.Files = append(nb.Files, *files)
		}
		return nb
	}
	if ns := namespaceOfRoot(old.Roots, r.root); ns != "" && r.adapter == "code" {
		pe := r.c.Session.Plasticity
		if st, err := pe.ImportState(nb.Graph, unspaceState(pe, old.Graph, ns)); err == nil {
			r.c.Session.Logf("%s is the only root again: its nodes leave namespace %q; %d learned edges followed them", r.root, ns, st.Applied)
		}
	}
	return nb
}

// answer is the ingest's response with guidance.
func (r *ingestRun) answer(nb *session.Bundle, persisted map[string]any, took time.Duration) map[string]any {
	st := r.out.Stats
	resp := map[string]any{
		"path":            r.root,
		"adapter":         st.Adapter,
		"mode":            r.mode,
		"files_processed": st.FilesParsed,
		"nodes_created":   st.NodesCreated,
		"edges_created":   st.EdgesCreated,
		"languages":       st.Languages,
		"elapsed_ms":      ms(took),
		"stats":           st,
		"root":            r.out.Root,
		"graph":           map[string]any{"node_count": nb.Graph.NumNodes(), "edge_count": nb.Graph.NumEdges(), "generation": nb.Gen},
		"persisted":       persisted,
	}
	gd := guidance{
		ProofState:        "triaging",
		NextSuggestedTool: firstTool(r.c.Registry, "seek", "activate"),
		NextStepHint:      "The graph is ready: find code by purpose with seek, explore a topic with activate, or check a file's blast radius with impact.",
	}
	if st.Partial {
		gd.NextStepHint = fmt.Sprintf("The ingest stopped early (%s budget); the graph is consistent but incomplete. Ingest a subdirectory for full coverage.", st.BudgetExhausted)
	}
	if persisted["durable"] == false && persisted["error"] != nil {
		gd.NextStepHint = "The graph is served but NOT saved (see persisted.error): a restart would lose it. Free space or fix the runtime directory, then call persist."
	}
	gd.into(resp)
	return resp
}

// fileStamps records what the code adapter read (its cache manifest: size
// and mtime per file), so staleness is a stat away; nil for adapters that
// keep no manifest.
func fileStamps(root string, cache *ingest.Cache, adapterName string) *session.RootFiles {
	if adapterName != "code" || root == "" {
		return nil
	}
	rf := &session.RootFiles{Root: root, Prefix: "file::"}
	for _, rel := range cache.Paths() {
		if e, ok := cache.Entry(rel); ok && e.Kind == ingestcache.Text {
			rf.Files = append(rf.Files, session.FileStamp{Rel: rel, Size: e.Size, MTimeNS: e.MTimeNS})
		}
	}
	slices.SortFunc(rf.Files, func(a, b session.FileStamp) int { return strings.Compare(a.Rel, b.Rel) })
	rf.Dirs = session.StampDirs(root, rf.Files)
	return rf
}

// persistAfterIngest saves a new graph before the ingest is answered, so
// an acknowledged ingest is never lost to a crash; it says what happened.
func persistAfterIngest(s *session.State, nb *session.Bundle) map[string]any {
	if cfg := s.Config(); !cfg.Persistent() {
		return map[string]any{"durable": false, "reason": "memory-only session (no --runtime-dir): the graph lives until the server stops"}
	}
	if s.PersistedGen() == nb.Gen {
		return map[string]any{"durable": true, "reason": "unchanged: the saved graph is current"}
	}
	res, err := s.Persist("ingest")
	if err != nil {
		return map[string]any{"durable": false, "error": err.Error()}
	}
	return map[string]any{"durable": true, "save_stamp": res.SaveStamp, "elapsed_ms": res.ElapsedMs}
}

// reingestRoot refreshes one code root incrementally for a tool that just
// wrote files under it (apply, apply_batch, edit_commit): the ingest
// tool's own run — the patch path when a few files changed their contents
// — published like an ingest but not persisted, so the caller decides when
// its write is final. It returns the ingest's statistics.
func reingestRoot(c *Call, root string) (*ingest.Output, error) {
	t, ok := c.Registry.Lookup("ingest")
	if !ok {
		return nil, errors.New("this build has no ingest tool")
	}
	mode := "replace"
	if len(c.Session.Current().Roots) > 1 {
		mode = "merge"
	}
	args := map[string]json.RawMessage{"path": mustRaw(root), "incremental": json.RawMessage("true"), "mode": mustRaw(mode)}
	sub := &Call{Ctx: c.Ctx, Tool: t, AgentID: c.AgentID, Session: c.Session, Progress: func(float64, float64, string) {}, Registry: c.Registry, args: args}
	r := &ingestRun{c: sub, adapter: "code", mode: mode}
	if err := r.target(); err != nil {
		return nil, err
	}
	kind := "graph_replaced"
	if mode == "merge" {
		kind = "graph_merged"
	}
	if _, err := c.Session.BuildBundle(kind, r.build); err != nil {
		return nil, err
	}
	return r.out, nil
}

func mustRaw(v any) json.RawMessage {
	b, _ := json.Marshal(v)
	return b
}
