package system

import (
	"errors"
	"reflect"
	"time"

	"github.com/m1nd-go/m1nd/ingest"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

func registerIngest(r *tools.Registry) {
	r.Register(&tools.Tool{
		Name:        "ingest",
		Title:       "Ingest a repository",
		Description: "Ingest or re-ingest a codebase, a memory/markdown corpus or a JSON graph descriptor into the graph: walks the tree (honouring .gitignore), extracts entities with tree-sitter, reads git history, resolves references, builds and finalizes the graph. Reports progress when the client sends a progress token.",
		Params: []tools.Param{
			{Name: "path", Type: tools.String, Required: true, Description: "Directory (or file) to ingest; absolute, or relative to the server's working directory."},
			{Name: "adapter", Type: tools.String, Default: "code", Description: "code (source tree), memory (markdown/text notes), json (a {nodes, edges} descriptor); documents: universal (Markdown, reStructuredText, AsciiDoc, text, HTML; PDF/DOCX with providers), auto or document (detects the family per file and per directory; a source tree goes to code), light (L1GHT Markdown), bibtex, article (JATS), patent, rfc (RFC XML v3), crossref."},
			{Name: "mode", Type: tools.String, Default: "replace", Enum: []string{"replace", "merge"}, Description: "replace: rebuild the graph from this path; merge: add to the current graph (same external_id updates the node)."},
			{Name: "incremental", Type: tools.Boolean, Default: false, Description: "Re-extract only files changed since the last ingest of this path (code adapter). When a few files only changed their contents, the current graph is patched in place of a rebuild (stats.incremental.patched); learned weights are kept either way."},
			{Name: "namespace", Type: tools.String, Description: "Prefix for the external ids of memory and json nodes."},
			{Name: "include_dotfiles", Type: tools.Boolean, Default: false, Description: "Also ingest hidden files and directories."},
			{Name: "dotfile_patterns", Type: tools.StringArray, Description: "Hidden paths to include even without include_dotfiles (e.g. \".github/**\")."},
		},
		Input:     reflect.TypeFor[ingestParams](),
		Output:    reflect.TypeFor[ingestOutput](),
		Class:     tools.Exclusive,
		WhenToUse: "Session start when health shows an empty or stale graph; after code changes (incremental: true); to merge notes or another root into the graph.",
		AvoidWhen: "The graph is current (health: stale false) — re-ingesting costs time and resets nothing you need.",
		Next:      []string{"health", "activate", "seek"},
		Example:   map[string]any{"agent_id": "claude", "path": "/path/to/repo", "mode": "replace"},
		Run:       runIngest,
	})
}

func runIngest(c *tools.Call) (any, error) {
	r := &tools.IngestRun{C: c, Adapter: c.Str("adapter"), Mode: c.Str("mode")}
	if err := r.Target(); err != nil {
		return nil, err
	}
	start := time.Now()
	kind := "graph_replaced"
	if r.Mode == "merge" {
		kind = "graph_merged"
	}
	s := c.Session
	nb, err := s.BuildBundle(kind, r.Build)
	if err != nil {
		var te *tools.Error
		if errors.As(err, &te) {
			return nil, te
		}
		return nil, tools.Errorf("The current graph is unchanged. Check the path, adapter and mode.", "ingest failed: %v", err)
	}
	// Build the query engine and the seek index now so the first query does
	// not pay for them (in the background), and make the new graph durable
	// before answering: an acknowledged ingest survives a kill -9.
	go func() {
		s.Engine(nb)
		tools.SeekIndex(s, nb)
	}()
	persisted := tools.PersistAfterIngest(s, nb)
	if !r.Kept {
		ingest.ReleaseMemory() // (a full GC and a scavenge of the heap: half a second on a large one)
	}
	return r.Answer(nb, persisted, time.Since(start)), nil
}
